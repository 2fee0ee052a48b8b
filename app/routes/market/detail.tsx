// /detail?id=: an app's or an agent's details: introduction, tags, the update log of its
// agent (versions and notes), the developer with a follow button, like and collect, comments.
import { AppstoreOutlined, RobotOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Avatar, Button, Empty, Tag, Timeline } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { CommentSection } from "../../components/market/comment-section";
import { getViewer, readParams } from "../../components/market/market-loader.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { MarketNav } from "../../components/market/market-nav";
import { DeveloperCard } from "../../components/market/developer-card";
import { ReactionButtons } from "../../components/market/social-buttons";
import { pageMeta } from "../../components/site/page-meta";
import { LocalDate } from "../../components/ui/local-date";
import { getMarketDetail } from "../../../server/market/catalog.service";
import { getMarketHeader } from "../../../server/market/market-admin.service";
import { listComments } from "../../../server/market/social.service";
import { getOffer } from "../../../server/money/purchases/purchases.service";
import { BuyPanel } from "../../components/purchases/buy-panel";
import type { TMarketLanguage } from "../../../server/market/market.schema";
import { workshopAppPath } from "../../components/workshops/workshop-links";
import "../../components/market/market.css";

export const handle = { i18n: ["market", "purchases", "payments"] };
export const meta = pageMeta("Zelin · Details");

export async function loader({ request }: LoaderFunctionArgs) {
  const params = readParams(request);
  const id = params.get("id") ?? "";
  const type = params.get("type");
  const viewer = await getViewer(request);
  const detail = await orNotFound(() => getMarketDetail(viewer, id, type === "agent" || type === "app" ? type : undefined));
  const target = detail.kind === "app" ? { targetType: "app" as const, targetId: detail.app.id } : { targetType: "agent" as const, targetId: detail.agent.id };
  // What is on sale (plans, buyout price) and the viewer's balance; nothing when not for sale.
  const offerTarget = target.targetType === "app" ? { app_id: target.targetId } : { agent_id: target.targetId };
  const [comments, header, offer] = await Promise.all([
    orNotFound(() => listComments(viewer, { ...target, limit: 10 })),
    getMarketHeader(),
    getOffer(viewer, offerTarget).catch(() => null),
  ]);
  return { detail, comments, target, categories: header.categories, offer };
}

export default function Detail() {
  const { t, i18n } = useTranslation("market");
  const { detail, comments, target, categories, offer } = useLoaderData<typeof loader>();
  const lng = i18n.language as TMarketLanguage;
  const english = lng === "en" || lng === "pt";
  const isApp = detail.kind === "app";
  const head = isApp
    ? {
        name: english ? detail.app.nameEn || detail.app.name : detail.app.name,
        icon: detail.app.iconUrl,
        intro: english ? detail.app.introductionEn || detail.app.introduction : detail.app.introduction,
        likes: detail.app.likeCount,
        collects: detail.app.collectCount,
      }
    : {
        name: detail.agent.name,
        icon: detail.agent.avatarUrl,
        intro: [detail.agent.introduction, detail.agent.details].filter(Boolean).join("\n\n"),
        likes: detail.agent.likeCount,
        collects: detail.agent.collectCount,
      };
  const category = isApp ? categories.find((c) => c.id === detail.app.categoryId) : undefined;

  return (
    <div className="mk-page" data-testid="market-detail" data-kind={detail.kind}>
      <MarketNav />
      <div className="mk-detail">
        <div>
          <section className="mk-panel">
            <div className="mk-hero">
              <Avatar
                className="mk-hero__icon"
                size={72}
                shape={isApp ? "square" : "circle"}
                src={head.icon || undefined}
                icon={isApp ? <AppstoreOutlined /> : <RobotOutlined />}
              />
              <div>
                <h1 data-testid="detail-name">{head.name}</h1>
                <div className="mk-hero__sub">
                  {isApp ? t(`app_type.${detail.app.type}`) : t("detail.agent_version", { version: detail.agent.version })}
                  {category && ` · ${category.names[lng]}`}
                </div>
                <div>
                  {isApp && detail.app.tags.map((tag) => <Tag key={tag}>{tag}</Tag>)}
                  {!isApp && detail.agent.modelKey && <Tag color="purple">{detail.agent.modelKey}</Tag>}
                  {isApp && !detail.app.listed && <Tag color="orange">{t("detail.not_listed")}</Tag>}
                </div>
              </div>
            </div>
            <p className="mk-hero__intro" data-testid="detail-intro">
              {head.intro || t("card.no_introduction")}
            </p>
            <div className="mk-actions">
              {isApp && (detail.app.type === "h5" || detail.app.type === "workshop") && detail.app.state === "on_shelf" && (
                <a href={detail.app.type === "workshop" ? workshopAppPath(detail.app.id) : `/share?app=${detail.app.id}`}>
                  <Button type="primary" data-testid="open-app">
                    {t("detail.open_app")}
                  </Button>
                </a>
              )}
              <ReactionButtons
                {...target}
                signedIn={detail.viewer.signedIn}
                liked={detail.viewer.liked}
                collected={detail.viewer.collected}
                likeCount={head.likes}
                collectCount={head.collects}
              />
            </div>
          </section>
          {offer && (offer.plans.length > 0 || offer.buyout_price_micro !== null) && (
            <section className="mk-panel">
              <BuyPanel offer={offer} target={target.targetType === "app" ? { appId: target.targetId } : { agentId: target.targetId }} />
            </section>
          )}
          <section className="mk-panel" data-testid="update-log">
            <h2>{t("detail.update_log")}</h2>
            {detail.updateLog.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("detail.no_versions")} />
            ) : (
              <Timeline
                items={detail.updateLog.map((v) => ({
                  children: (
                    <div>
                      <b>v{v.version}</b> · <LocalDate iso={v.publishedAt} />
                      <div className="mk-comment__text">{v.updateNote || t("detail.no_note")}</div>
                    </div>
                  ),
                }))}
              />
            )}
          </section>
          <section className="mk-panel">
            <div className="mk-section__head">
              <h2>{t("comments.title")}</h2>
              <AppLink to={`/discussion?id=${target.targetId}&type=${target.targetType}`} data-testid="all-comments">
                {t("comments.view_all")}
              </AppLink>
            </div>
            <CommentSection target={target} initial={comments} signedIn={detail.viewer.signedIn} />
          </section>
        </div>
        {detail.developer && <DeveloperCard developer={detail.developer} signedIn={detail.viewer.signedIn} following={detail.viewer.following} />}
      </div>
    </div>
  );
}
