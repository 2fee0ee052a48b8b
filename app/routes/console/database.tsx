// /database: the account's database training sets (state, verify again, edit, delete) and a box to
// try a query on one of them (?id= picks it).
import { PlusOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../components/app-link";
import { DatabaseList } from "../../components/database/database-list";
import { QueryBox } from "../../components/database/query-box";
import { requireSessionAccount } from "../../lib/auth.server";
import { listDatabaseSets } from "../../../server/knowledge/database/database-sets.service";
import "../../components/database/database.css";
import "../../styles/chat.css";

export const handle = { i18n: ["database", "chat"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return { sets: await listDatabaseSets(account) };
}

export default function DatabasePage() {
  const { t } = useTranslation("database");
  const loaded = useLoaderData<typeof loader>();
  const navigate = useAppNavigate();
  const [params] = useSearchParams();
  const [sets, setSets] = useState(loaded.sets);
  const [selectedId, setSelectedId] = useState<string | null>(params.get("id"));
  return (
    <div className="console__page db-page" data-testid="database-page">
      <div className="db-page__head">
        <div>
          <h1 className="console__title">{t("title")}</h1>
          <p className="db-page__sub">{t("subtitle")}</p>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate("/Createdatabases")} data-testid="db-create">
          {t("create")}
        </Button>
      </div>
      <div className="db-page__stack">
        <DatabaseList sets={sets} selectedId={selectedId} onSelect={setSelectedId} onChanged={setSets} />
        {sets.some((s) => s.state === "done") && <QueryBox sets={sets} selectedId={selectedId} onSelect={setSelectedId} />}
      </div>
    </div>
  );
}
