// /intelligent_store: the agent market inside the console, for signed-in developers: what is on
// the shelf, and the way to put their own agent there (/upload, reviewed by administrators).
import { CloudUploadOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { AgentCard, CardGrid } from "../../components/market/market-cards";
import { useScrollPages } from "../../components/market/use-scroll-pages";
import { requireSessionAccount } from "../../lib/auth.server";
import { trpc } from "../../lib/trpc";
import { listAgentMarket } from "../../../server/market/catalog.service";
import { PAGE_SIZE } from "../../../server/market/market.schema";
import "../../components/market/market.css";

export const handle = { i18n: ["market"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSessionAccount(request);
  return { page: await listAgentMarket({ limit: PAGE_SIZE }) };
}

export default function IntelligentStore() {
  const { t } = useTranslation("market");
  const { page } = useLoaderData<typeof loader>();
  const list = useScrollPages(page, (cursor) => trpc.market.agents.query({ cursor }));
  return (
    <div className="mk-page" data-testid="console-agent-market">
      <div className="mk-section__head">
        <h1 className="console__title">{t("agents.console_title")}</h1>
        <AppLink to="/upload">
          <Button type="primary" icon={<CloudUploadOutlined />}>
            {t("agents.list_mine")}
          </Button>
        </AppLink>
      </div>
      <p className="console__hint">{t("agents.console_hint")}</p>
      <CardGrid empty={t("agents.empty")} {...list} onRetry={() => void list.loadMore()}>
        {list.items.map((a) => (
          <AgentCard key={a.id} agent={a} />
        ))}
      </CardGrid>
    </div>
  );
}
