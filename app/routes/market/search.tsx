// /search?q=: apps and agents of the market by name, introduction and tags, Chinese or English,
// best match first; more results load near the bottom.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../components/app-link";
import { AgentCard, AppCard, CardGrid } from "../../components/market/market-cards";
import { readParams } from "../../components/market/market-loader.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { MarketNav } from "../../components/market/market-nav";
import { useScrollPages } from "../../components/market/use-scroll-pages";
import { pageMeta } from "../../components/site/page-meta";
import { trpc } from "../../lib/trpc";
import { searchMarket } from "../../../server/market/catalog.service";
import { ZSearchInput } from "../../../server/market/market.schema";
import "../../components/market/market.css";

export const handle = { i18n: ["market"] };
export const meta = pageMeta("Zelin · Search");

export async function loader({ request }: LoaderFunctionArgs) {
  const params = readParams(request);
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const kind = params.get("kind") === "agent" ? "agent" : "app";
  return orNotFound(() => searchMarket(ZSearchInput.parse({ q, kind })));
}

export default function Search() {
  const { t } = useTranslation("market");
  const result = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigate = useAppNavigate();
  const apps = useScrollPages(result.apps, (cursor) => trpc.market.search.query({ q: result.q, kind: "app", cursor }).then((r) => r.apps));
  const agents = useScrollPages(result.agents, (cursor) => trpc.market.search.query({ q: result.q, kind: "agent", cursor }).then((r) => r.agents));
  const switchKind = (kind: string) => {
    const q = new URLSearchParams(params);
    q.set("kind", kind);
    navigate(`/search?${q}`, { replace: true });
  };
  const empty = result.q ? t("search.empty", { q: result.q }) : t("search.prompt");
  return (
    <div className="mk-page" data-testid="market-search-page">
      <MarketNav query={result.q} />
      {result.q && <h1 className="mk-search-title">{t("search.title", { q: result.q })}</h1>}
      <Tabs
        activeKey={result.kind}
        onChange={switchKind}
        items={[
          {
            key: "app",
            label: <span data-testid="search-tab-app">{t("search.apps")}</span>,
            children: (
              <CardGrid empty={empty} {...apps} onRetry={() => void apps.loadMore()}>
                {apps.items.map((a) => (
                  <AppCard key={a.id} app={a} />
                ))}
              </CardGrid>
            ),
          },
          {
            key: "agent",
            label: <span data-testid="search-tab-agent">{t("search.agents")}</span>,
            children: (
              <CardGrid empty={empty} {...agents} onRetry={() => void agents.loadMore()}>
                {agents.items.map((a) => (
                  <AgentCard key={a.id} agent={a} />
                ))}
              </CardGrid>
            ),
          },
        ]}
      />
    </div>
  );
}
