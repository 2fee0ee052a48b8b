// The page around the app form, shared by /create_app (H5, or ?type=bot|workshop|digital_human)
// and /create_api; ?id= edits. An API app shows its id once created (the key panel follows it).
import { Button, Result, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate } from "../../app-link";
import type { TAppType, TAppView } from "../../../../server/apps/apps.schema";
import { AppForm, type TAppFormOptions } from "./app-form";
import { emptyFormValues, toFormValues } from "./form-values";

export type TAppEditorData = TAppFormOptions & { type: TAppType; app: TAppView | null };

export function AppEditorPage({ data }: { data: TAppEditorData }) {
  const { t } = useTranslation("apps");
  const navigate = useAppNavigate();
  const [created, setCreated] = useState<TAppView | null>(null);
  const initial = data.app ? toFormValues(data.app.input) : emptyFormValues(data.type);
  const title = data.app ? t("editor.edit_title", { type: t(`type.${data.type}`) }) : t("editor.create_title", { type: t(`type.${data.type}`) });

  if (created && created.type === "api")
    return (
      <div className="console__page" data-testid="app-created">
        <Result
          status="success"
          title={t("editor.api_created")}
          subTitle={
            <span>
              {t("editor.app_id")}:{" "}
              <Typography.Text copyable code data-testid="app-created-id">
                {created.id}
              </Typography.Text>
            </span>
          }
          extra={[
            <Button key="list" type="primary" onClick={() => navigate("/my_app?type=api")}>
              {t("editor.to_my_apps")}
            </Button>,
            <AppLink key="edit" to={`/create_api?id=${encodeURIComponent(created.id)}`}>
              {t("actions.edit")}
            </AppLink>,
          ]}
        />
      </div>
    );

  return (
    <div className="console__page" data-testid="app-editor">
      <h1 className="console__title">{title}</h1>
      <p className="app-form__muted">{t("editor.review_note")}</p>
      <AppForm
        initial={initial}
        appId={data.app?.id}
        state={data.app?.state}
        options={data}
        onSaved={(app) => (app.type === "api" && !data.app ? setCreated(app) : navigate(`/my_app?type=${app.type}`))}
      />
    </div>
  );
}
