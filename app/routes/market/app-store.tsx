// /app_store: the app centre. Carousel, category tabs, listed apps (public, on the shelf, in the app
// centre) sorted by popularity or newest, the next page fetched near the bottom. The category and the sort
// live in the query, so a tab is a link and the server renders its first page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Segmented, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../components/app-link";
import { CarouselBanner } from "../../components/market/carousel-banner";
import { AppCard, CardGrid } from "../../components/market/market-cards";
import { readParams } from "../../components/market/market-loader.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { MarketNav } from "../../components/market/market-nav";
import { useScrollPages } from "../../components/market/use-scroll-pages";
import { pageMeta } from "../../components/site/page-meta";
import { trpc } from "../../lib/trpc";
import { getMarketHeader } from "../../../server/market/market-admin.service";
import { listAppCentre } from "../../../server/market/catalog.service";
import { MARKET_SORTS, ZListAppsInput, type TMarketLanguage, type TMarketSort } from "../../../server/market/market.schema";
import "../../components/market/market.css";

export const handle = { i18n: ["market"] };
export const meta = pageMeta("Zelin · App centre");

export async function loader({ request }: LoaderFunctionArgs) {
  const params = readParams(request);
  const categoryId = Number(params.get("category")) || undefined;
  const sort: TMarketSort = (MARKET_SORTS as readonly string[]).includes(params.get("sort") ?? "") ? (params.get("sort") as TMarketSort) : "popular";
  const [header, page] = await Promise.all([getMarketHeader(), orNotFound(() => listAppCentre(ZListAppsInput.parse({ categoryId, sort })))]);
  return { header, page, categoryId: categoryId ?? null, sort };
}

export default function AppStore() {
  const { t, i18n } = useTranslation("market");
  const { header, page, categoryId, sort } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigate = useAppNavigate();
  const list = useScrollPages(page, (cursor) => trpc.market.apps.query({ categoryId: categoryId ?? undefined, sort, cursor }));
  const lng = i18n.language as TMarketLanguage;

  const go = (next: { category?: number | null; sort?: TMarketSort }) => {
    const q = new URLSearchParams(params);
    const cat = next.category === undefined ? categoryId : next.category;
    if (cat) q.set("category", String(cat));
    else q.delete("category");
    q.set("sort", next.sort ?? sort);
    navigate(`/app_store?${q}`, { replace: true });
  };

  return (
    <div className="mk-page" data-testid="app-store">
      <MarketNav />
      <CarouselBanner slides={header.carousel} />
      <div className="mk-toolbar">
        <Tabs
          className="mk-tabs"
          activeKey={String(categoryId ?? "all")}
          onChange={(key) => go({ category: key === "all" ? null : Number(key) })}
          items={[
            { key: "all", label: <span data-testid="category-all">{t("app_store.all")}</span> },
            ...header.categories.map((c) => ({
              key: String(c.id),
              label: (
                <span data-testid="category-tab" data-name={c.names[lng]}>
                  {c.names[lng]}
                </span>
              ),
            })),
          ]}
        />
        <Segmented
          value={sort}
          onChange={(v) => go({ sort: v as TMarketSort })}
          options={MARKET_SORTS.map((s) => ({ value: s, label: <span data-testid={`sort-${s}`}>{t(`sort.${s}`)}</span> }))}
        />
      </div>
      <CardGrid empty={t("app_store.empty")} {...list} onRetry={() => void list.loadMore()}>
        {list.items.map((a) => (
          <AppCard key={a.id} app={a} />
        ))}
      </CardGrid>
    </div>
  );
}
