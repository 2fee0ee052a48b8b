// /customer?id=: a developer's public page: who they are, followers, their listed apps
// (scroll-loaded) and their agents on the market's shelf, and a follow button.
import { UserOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Avatar, Tabs } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AgentCard, AppCard, CardGrid } from "../../components/market/market-cards";
import { getViewer, readParams } from "../../components/market/market-loader.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { MarketNav } from "../../components/market/market-nav";
import { FollowButton } from "../../components/market/social-buttons";
import { useScrollPages } from "../../components/market/use-scroll-pages";
import { pageMeta } from "../../components/site/page-meta";
import { LocalDate } from "../../components/ui/local-date";
import { trpc } from "../../lib/trpc";
import { getDeveloperPage } from "../../../server/market/catalog.service";
import { ZDeveloperPageInput } from "../../../server/market/market.schema";
import "../../components/market/market.css";

export const handle = { i18n: ["market"] };
export const meta = pageMeta("Zelin · Developer");

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  return orNotFound(() => getDeveloperPage(viewer, ZDeveloperPageInput.parse({ id: readParams(request).get("id") ?? "" })));
}

export default function Customer() {
  const { t } = useTranslation("market");
  const { developer, apps, agents, following, signedIn } = useLoaderData<typeof loader>();
  const [followers, setFollowers] = useState(developer.followers);
  const list = useScrollPages(apps, (cursor) => trpc.market.developerApps.query({ id: developer.id, cursor }));
  return (
    <div className="mk-page" data-testid="market-customer">
      <MarketNav />
      <section className="mk-panel mk-profile">
        <Avatar size={72} src={developer.avatarUrl ?? undefined} icon={<UserOutlined />} />
        <div className="mk-profile__main">
          <h1 data-testid="customer-name">{developer.nickname}</h1>
          <div className="mk-hero__sub">
            {t("developer.joined")} <LocalDate iso={developer.joinedAt} />
          </div>
          <div className="mk-dev__stats">
            <span>
              <b data-testid="follower-count">{followers}</b>
              {t("developer.followers")}
            </span>
            <span>
              <b>{developer.following}</b>
              {t("developer.following")}
            </span>
            <span>
              <b>{developer.apps}</b>
              {t("developer.apps")}
            </span>
            <span>
              <b>{developer.agents}</b>
              {t("developer.agents")}
            </span>
          </div>
        </div>
        <FollowButton accountId={developer.id} signedIn={signedIn} following={following} onChange={setFollowers} />
      </section>
      <Tabs
        items={[
          {
            key: "apps",
            label: t("developer.apps_tab", { count: developer.apps }),
            children: (
              <CardGrid empty={t("developer.no_apps")} {...list} onRetry={() => void list.loadMore()}>
                {list.items.map((a) => (
                  <AppCard key={a.id} app={a} />
                ))}
              </CardGrid>
            ),
          },
          {
            key: "agents",
            label: t("developer.agents_tab", { count: developer.agents }),
            children: agents.length ? (
              <div className="mk-grid">
                {agents.map((a) => (
                  <AgentCard key={a.id} agent={a} />
                ))}
              </div>
            ) : (
              <div className="mk-empty">{t("developer.no_agents")}</div>
            ),
          },
        ]}
      />
    </div>
  );
}
