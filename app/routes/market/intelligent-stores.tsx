// /intelligent_stores: the agent market. Agents whose version passed review through
// /upload and sits on the shelf, newest first, with the language and image agent rankings.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CarouselBanner } from "../../components/market/carousel-banner";
import { AgentCard, CardGrid } from "../../components/market/market-cards";
import { MarketNav } from "../../components/market/market-nav";
import { RankingCard } from "../../components/market/ranking-card";
import { useScrollPages } from "../../components/market/use-scroll-pages";
import { pageMeta } from "../../components/site/page-meta";
import { trpc } from "../../lib/trpc";
import { listAgentMarket } from "../../../server/market/catalog.service";
import { PAGE_SIZE } from "../../../server/market/market.schema";
import { getMarketHeader } from "../../../server/market/market-admin.service";
import { readRankingsCached } from "../../../server/market/ranking.service";
import "../../components/market/market.css";

export const handle = { i18n: ["market"] };
export const meta = pageMeta("Zelin · Agent market");

export async function loader(_: LoaderFunctionArgs) {
  const [header, page, rankings] = await Promise.all([getMarketHeader(), listAgentMarket({ limit: PAGE_SIZE }), readRankingsCached()]);
  return { carousel: header.carousel, page, rankings: { language_agents: rankings.language_agents, image_agents: rankings.image_agents } };
}

export default function IntelligentStores() {
  const { t } = useTranslation("market");
  const { carousel, page, rankings } = useLoaderData<typeof loader>();
  const list = useScrollPages(page, (cursor) => trpc.market.agents.query({ cursor }));
  return (
    <div className="mk-page" data-testid="agent-market">
      <MarketNav />
      <CarouselBanner slides={carousel} />
      <div className="mk-ranks">
        <RankingCard list="language_agents" rows={rankings.language_agents} />
        <RankingCard list="image_agents" rows={rankings.image_agents} />
      </div>
      <section className="mk-section">
        <div className="mk-section__head">
          <h2>{t("agents.title")}</h2>
        </div>
        <CardGrid empty={t("agents.empty")} {...list} onRetry={() => void list.loadMore()}>
          {list.items.map((a) => (
            <AgentCard key={a.id} agent={a} />
          ))}
        </CardGrid>
      </section>
    </div>
  );
}
