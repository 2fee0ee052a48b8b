// Cards of the market's lists: an app (icon, name, introduction, developer, likes) and an agent.
import { AppstoreOutlined, CommentOutlined, HeartOutlined, RobotOutlined, StarOutlined } from "@ant-design/icons";
import { Avatar, Tag } from "antd";
import type { ReactNode, RefObject } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import type { TAgentCard, TAppCard } from "../../../server/market/market.schema";

export function AppCard({ app }: { app: TAppCard }) {
  const { t, i18n } = useTranslation("market");
  // Apps keep a Chinese and an English text: readers of English and Portuguese get the English one.
  const latin = i18n.language === "en" || i18n.language === "pt";
  const name = latin ? app.nameEn || app.name : app.name;
  const introduction = latin ? app.introductionEn || app.introduction : app.introduction;
  return (
    <AppLink to={`/detail?id=${app.id}`} className="mk-card" data-testid="market-app-card" data-id={app.id} data-name={app.name}>
      <div className="mk-card__head">
        <Avatar shape="square" size={52} src={app.iconUrl || undefined} icon={<AppstoreOutlined />} className="mk-card__icon" />
        <div className="mk-card__title">
          <h3>{name}</h3>
          <span className="mk-card__owner">{app.owner.nickname}</span>
        </div>
      </div>
      <p className="mk-card__intro">{introduction || t("card.no_introduction")}</p>
      <div className="mk-card__foot">
        <span className="mk-card__tags">
          <Tag variant="filled" color="geekblue">
            {t(`app_type.${app.type}`)}
          </Tag>
          {app.tags.slice(0, 2).map((tag) => (
            <Tag key={tag} variant="filled">
              {tag}
            </Tag>
          ))}
        </span>
        <span className="mk-card__stats" aria-label={t("card.stats")}>
          <span>
            <HeartOutlined /> {app.likeCount}
          </span>
          <span>
            <StarOutlined /> {app.collectCount}
          </span>
          <span>
            <CommentOutlined /> {app.commentCount}
          </span>
        </span>
      </div>
    </AppLink>
  );
}

export function AgentCard({ agent }: { agent: TAgentCard }) {
  const { t } = useTranslation("market");
  return (
    <AppLink to={`/detail?id=${agent.id}&type=agent`} className="mk-card" data-testid="market-agent-card" data-id={agent.id} data-name={agent.name}>
      <div className="mk-card__head">
        <Avatar size={52} src={agent.avatarUrl || undefined} icon={<RobotOutlined />} className="mk-card__icon mk-card__icon--agent" />
        <div className="mk-card__title">
          <h3>{agent.name}</h3>
          <span className="mk-card__owner">{agent.owner.nickname}</span>
        </div>
      </div>
      <p className="mk-card__intro">{agent.introduction || t("card.no_introduction")}</p>
      <div className="mk-card__foot">
        <span className="mk-card__tags">
          <Tag variant="filled" color="purple">
            v{agent.version}
          </Tag>
          {agent.modelKey && <Tag variant="filled">{agent.modelKey}</Tag>}
        </span>
        <span className="mk-card__stats">
          <span>
            <HeartOutlined /> {agent.likeCount}
          </span>
        </span>
      </div>
    </AppLink>
  );
}

/** A grid of cards with the scroll-loading sentinel and its states under it. */
export function CardGrid({
  children,
  empty,
  hasMore,
  loading,
  error,
  sentinel,
  onRetry,
  className = "mk-grid",
}: {
  className?: string;
  children: ReactNode[];
  empty: string;
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  sentinel: RefObject<HTMLDivElement>;
  onRetry: () => void;
}) {
  const { t } = useTranslation("market");
  if (children.length === 0)
    return (
      <div className="mk-empty" data-testid="market-empty">
        {empty}
      </div>
    );
  return (
    <>
      <div className={className}>{children}</div>
      <div ref={sentinel} className="mk-more" data-testid="market-more">
        {error ? (
          <button type="button" className="mk-more__retry" onClick={onRetry}>
            {error} · {t("list.retry")}
          </button>
        ) : loading ? (
          t("list.loading")
        ) : hasMore ? (
          t("list.scroll_more")
        ) : (
          t("list.end")
        )}
      </div>
    </>
  );
}
