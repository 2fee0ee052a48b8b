// /discussion?id=: every comment on an app or agent with its replies, newest first.
import { AppstoreOutlined, RobotOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Avatar } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { CommentSection } from "../../components/market/comment-section";
import { getViewer, readParams } from "../../components/market/market-loader.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { MarketNav } from "../../components/market/market-nav";
import { pageMeta } from "../../components/site/page-meta";
import { getMarketDetail } from "../../../server/market/catalog.service";
import { listComments } from "../../../server/market/social.service";
import { PAGE_SIZE } from "../../../server/market/market.schema";
import "../../components/market/market.css";

export const handle = { i18n: ["market"] };
export const meta = pageMeta("Zelin · Discussion");

export async function loader({ request }: LoaderFunctionArgs) {
  const params = readParams(request);
  const type = params.get("type");
  const viewer = await getViewer(request);
  const detail = await orNotFound(() => getMarketDetail(viewer, params.get("id") ?? "", type === "agent" || type === "app" ? type : undefined));
  const head =
    detail.kind === "app"
      ? { targetType: "app" as const, targetId: detail.app.id, name: detail.app.name, icon: detail.app.iconUrl, count: detail.app.commentCount }
      : { targetType: "agent" as const, targetId: detail.agent.id, name: detail.agent.name, icon: detail.agent.avatarUrl, count: detail.agent.commentCount };
  const comments = await orNotFound(() => listComments(viewer, { targetType: head.targetType, targetId: head.targetId, limit: PAGE_SIZE }));
  return { head, comments, signedIn: Boolean(viewer) };
}

export default function Discussion() {
  const { t } = useTranslation("market");
  const { head, comments, signedIn } = useLoaderData<typeof loader>();
  return (
    <div className="mk-page" data-testid="market-discussion">
      <MarketNav />
      <section className="mk-panel">
        <div className="mk-hero">
          <Avatar
            size={48}
            shape={head.targetType === "app" ? "square" : "circle"}
            src={head.icon || undefined}
            icon={head.targetType === "app" ? <AppstoreOutlined /> : <RobotOutlined />}
          />
          <div>
            <h1>{t("discussion.title", { name: head.name })}</h1>
            <div className="mk-hero__sub">
              {t("discussion.count", { count: head.count })} ·{" "}
              <AppLink to={`/detail?id=${head.targetId}&type=${head.targetType}`}>{t("discussion.back")}</AppLink>
            </div>
          </div>
        </div>
      </section>
      <section className="mk-panel">
        <CommentSection target={{ targetType: head.targetType, targetId: head.targetId }} initial={comments} signedIn={signedIn} />
      </section>
    </div>
  );
}
