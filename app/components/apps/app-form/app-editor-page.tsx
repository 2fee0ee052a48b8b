// The page around the app form, shared by /create_app (H5, or ?type=bot|workshop|digital_human)
// and /create_api; ?id= edits. An API app shows its id once created (the key panel follows it).
import { Alert, Button, Result, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate } from "../../app-link";
import type { TAppType, TAppView } from "../../../../server/apps/apps.schema";
import { AppForm, type TAppFormOptions } from "./app-form";
import { emptyFormValues, toFormValues, withWorkshop, type TAppFormValues, type TWorkshopChoice } from "./form-values";
import { MEDIA_SLOTS, type TChosenMedia } from "./chosen-media";

export type TAppEditorData = TAppFormOptions & {
  type: TAppType;
  app: TAppView | null;
  chosen?: TChosenMedia | null;
  /** A new workshop app publishing this workshop (/create_app?type=workshop&workshop_id=). */
  workshop?: TWorkshopChoice | null;
};

/** The form starts with the chosen picture in its field; it is only kept when the form is saved. */
function withChosenMedia(values: TAppFormValues, chosen: TChosenMedia | null | undefined): TAppFormValues {
  return chosen && "slot" in chosen ? { ...values, [MEDIA_SLOTS[chosen.slot]]: chosen.url } : values;
}

function ChosenMediaNotice({ chosen }: { chosen: TChosenMedia }) {
  const { t } = useTranslation("apps");
  const set = "slot" in chosen;
  const message = set ? t(`editor.media_set_${chosen.slot}`) : t(`editor.media_refused_${chosen.refused}`);
  return <Alert type={set ? "info" : "warning"} showIcon className="app-form__notice" message={message} data-testid="app-chosen-media-notice" />;
}

export function AppEditorPage({ data }: { data: TAppEditorData }) {
  const { t } = useTranslation("apps");
  const navigate = useAppNavigate();
  const [created, setCreated] = useState<TAppView | null>(null);
  const blank = data.workshop ? withWorkshop(emptyFormValues(data.type), data.workshop) : emptyFormValues(data.type);
  const initial = withChosenMedia(data.app ? toFormValues(data.app.input) : blank, data.chosen);
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
      {data.chosen && <ChosenMediaNotice chosen={data.chosen} />}
      <AppForm
        initial={initial}
        unsaved={Boolean(data.chosen && "slot" in data.chosen)}
        appId={data.app?.id}
        state={data.app?.state}
        options={data}
        onSaved={(app) => (app.type === "api" && !data.app ? setCreated(app) : navigate(`/my_app?type=${app.type}`))}
      />
    </div>
  );
}
