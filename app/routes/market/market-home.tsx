// /index and /home: the market's home: carousel, the four ranking lists, featured apps
// (the most popular) and the newest agents. "/" stays the public site's home.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { CarouselBanner } from "../../components/market/carousel-banner";
import { AgentCard, AppCard } from "../../components/market/market-cards";
import { MarketNav } from "../../components/market/market-nav";
import { RankingCard } from "../../components/market/ranking-card";
import { pageMeta } from "../../components/site/page-meta";
import { listAgentMarket, listAppCentre } from "../../../server/market/catalog.service";
import { getMarketHeader } from "../../../server/market/market-admin.service";
import { readRankingsCached } from "../../../server/market/ranking.service";
import { RANKING_LISTS } from "../../../server/market/market.schema";
import "../../components/market/market.css";

export const handle = { i18n: ["market"] };
export const meta = pageMeta("Zelin · Market");

export async function loader(_: LoaderFunctionArgs) {
  const [header, featured, agents, rankings] = await Promise.all([
    getMarketHeader(),
    listAppCentre({ sort: "popular", limit: 8 }),
    listAgentMarket({ limit: 8 }),
    readRankingsCached(),
  ]);
  return { carousel: header.carousel, featured: featured.items, agents: agents.items, rankings };
}

export default function MarketHome() {
  const { t } = useTranslation("market");
  const { carousel, featured, agents, rankings } = useLoaderData<typeof loader>();
  return (
    <div className="mk-page" data-testid="market-home">
      <MarketNav />
      <CarouselBanner slides={carousel} />
      <section className="mk-section">
        <div className="mk-section__head">
          <h2>{t("home.rankings")}</h2>
        </div>
        <div className="mk-ranks">
          {RANKING_LISTS.map((l) => (
            <RankingCard key={l} list={l} rows={rankings[l].slice(0, 5)} />
          ))}
        </div>
      </section>
      <section className="mk-section">
        <div className="mk-section__head">
          <h2>{t("home.featured")}</h2>
          <AppLink to="/app_store">{t("home.more")}</AppLink>
        </div>
        {featured.length ? (
          <div className="mk-grid">
            {featured.map((a) => (
              <AppCard key={a.id} app={a} />
            ))}
          </div>
        ) : (
          <div className="mk-empty">{t("app_store.empty")}</div>
        )}
      </section>
      <section className="mk-section">
        <div className="mk-section__head">
          <h2>{t("home.new_agents")}</h2>
          <AppLink to="/intelligent_stores">{t("home.more")}</AppLink>
        </div>
        {agents.length ? (
          <div className="mk-grid">
            {agents.map((a) => (
              <AgentCard key={a.id} agent={a} />
            ))}
          </div>
        ) : (
          <div className="mk-empty">{t("agents.empty")}</div>
        )}
      </section>
    </div>
  );
}
