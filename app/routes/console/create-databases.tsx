// /Createdatabases (?id= to edit): a database training set's connection and table-creation
// statements, verified before it is saved.
import { ArrowLeftOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../components/app-link";
import { DatabaseForm } from "../../components/database/database-form";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { getDatabaseSet } from "../../../server/knowledge/database/database-sets.service";
import { ZDatabaseSetId } from "../../../server/knowledge/database/database-sets.schema";
import "../../components/database/database.css";

export const handle = { i18n: ["database"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const id = new URL(request.url).searchParams.get("id");
  return { set: id ? await orNotFound(() => getDatabaseSet(account, ZDatabaseSetId.parse({ id }))) : null };
}

export default function CreateDatabases() {
  const { t } = useTranslation("database");
  const { set } = useLoaderData<typeof loader>();
  const navigate = useAppNavigate();
  return (
    <div className="console__page db-page" data-testid="create-databases-page">
      <div className="db-page__head">
        <div>
          <h1 className="console__title">{set ? t("edit_title") : t("create_title")}</h1>
          <p className="db-page__sub">{t("subtitle")}</p>
        </div>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate("/database")}>
          {t("back")}
        </Button>
      </div>
      <DatabaseForm key={set?.id ?? "new"} set={set} onSaved={(saved) => navigate(`/database?id=${encodeURIComponent(saved.id)}`)} />
    </div>
  );
}
