// /model: the model catalogue for everyone (what each model does, its context window and prices),
// filtered by type number (server/models/model-kinds.ts); platform administrators also add, edit, enable or
// disable, and delete models here.
import { PlusOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { App, Button, Segmented } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { requireSessionAccount } from "../../lib/auth.server";
import { useMutation } from "../../lib/use-mutation";
import { ModelCatalogue, type TCatalogueModel } from "../../components/models/model-catalogue";
import { ModelFormDrawer } from "../../components/models/model-form-drawer";
import { getFilterLabelKey, isKindInFilter, MODEL_FILTERS } from "../../components/models/model-format";
import { modelsApi } from "../../components/models/models-api";
import { hasRole } from "../../../server/accounts/access";
import { listAllModels, listCatalogueModels } from "../../../server/models/models.service";
import "../../components/models/models.css";

export const handle = { i18n: ["models"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const admin = hasRole(account, "platform_admin");
  // Administrators also see disabled models and where each one runs upstream.
  const models: TCatalogueModel[] = admin ? await listAllModels() : await listCatalogueModels();
  return { admin, models };
}

export default function ModelPage() {
  const { t } = useTranslation("models");
  const { message } = App.useApp();
  const { admin, models } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState<TCatalogueModel | "new" | null>(null);
  const filter = MODEL_FILTERS.includes(Number(params.get("type")) as never) ? Number(params.get("type")) : 99;
  const shown = models.filter((m) => isKindInFilter(m.kind, filter));

  const { run, busyKey: busy } = useMutation(async (_id: string, action: () => Promise<unknown>, done?: string) => {
    await action();
    if (done) message.success(done);
    revalidator.revalidate();
  });

  return (
    <div className="console__page models__page" data-testid="model-page">
      <div className="models__head">
        <h1 className="console__title">{t("title")}</h1>
        {admin && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="model-add">
            {t("catalogue.add")}
          </Button>
        )}
      </div>
      <p className="console__hint">
        {t("catalogue.subtitle")} {t("catalogue.price_note")}
      </p>
      <div className="models__filters">
        <Segmented
          value={filter}
          onChange={(v) =>
            setParams((p) => (Number(v) === 99 ? (p.delete("type"), p) : (p.set("type", String(v)), p)), { replace: true, preventScrollReset: true })
          }
          options={MODEL_FILTERS.map((f) => ({ value: f, label: <span data-testid={`model-filter-${f}`}>{t(getFilterLabelKey(f))}</span> }))}
        />
      </div>
      <ModelCatalogue
        models={shown}
        admin={admin}
        busy={busy}
        onEdit={(m) => setEditing(m)}
        onToggle={(m, enabled) => void run(m.id, () => modelsApi.update(m.id, { enabled }))}
        onDelete={(m) => void run(m.id, () => modelsApi.remove(m.id), t("catalogue.deleted"))}
      />
      {admin && (
        <ModelFormDrawer
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            revalidator.revalidate();
          }}
        />
      )}
    </div>
  );
}
