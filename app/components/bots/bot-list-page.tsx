// My bots (/create_bot): each bot's platform, state with its reason, agent, package expiry and
// unread notices, and the way to its page; the edition's bot count and the "New bot" button.
import { BellOutlined, PlusOutlined } from "@ant-design/icons";
import { Link } from "@remix-run/react";
import { Badge, Button, Card, Col, Empty, Row, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../ui/local-date";
import { botPath, newBotPath, useBotsHref, useBotsNavigate } from "./bot-links";
import { BotStateDetail, BotStateTag } from "./bot-state-tag";
import { PlatformBadge, PlatformIcon } from "./platform-badge";
import { QuoteLine } from "./quote-line";
import type { TBotQuote, TBotView } from "./types";

function BotCard({ bot }: { bot: TBotView }) {
  const { t } = useTranslation("bots");
  const href = useBotsHref();
  return (
    <Card className="bots-card" data-testid="bot-row" data-bot-id={bot.id} data-name={bot.name}>
      <div className="bots-card__top">
        <Badge count={bot.unread_events} size="small" offset={[-2, 2]} title={t("list.unread", { count: bot.unread_events })}>
          <PlatformIcon channel={bot.channel} size={44} />
        </Badge>
        <div className="bots-card__body">
          <div className="bots-card__name-line">
            <Link to={href(botPath(bot.id))} className="bots-card__name" data-testid="bot-name">
              {bot.name}
            </Link>
            <BotStateTag state={bot.state} />
          </div>
          <BotStateDetail detail={bot.state_detail} />
          <div className="bots-card__meta">
            <PlatformBadge channel={bot.channel} />
            <span>{t("list.agent", { name: bot.agent?.name || t("list.no_agent") })}</span>
            <span className={bot.package_expired ? "bots-expired" : undefined} data-testid="bot-paid-until">
              {bot.package_expired ? t("list.expired_on") : t("list.expires_on")} <LocalDate iso={bot.paid_until} />
            </span>
            {bot.unread_events > 0 && (
              <span className="bots-unread" data-testid="bot-unread">
                <BellOutlined /> {t("list.unread", { count: bot.unread_events })}
              </span>
            )}
          </div>
        </div>
      </div>
      <div className="bots-card__actions">
        <Link to={href(botPath(bot.id))}>
          <Button size="small" type="primary" ghost data-testid="bot-manage">
            {t("list.manage")}
          </Button>
        </Link>
      </div>
    </Card>
  );
}

export function BotListPage({ data }: { data: { bots: TBotView[]; quote: TBotQuote } }) {
  const { t } = useTranslation("bots");
  const navigate = useBotsNavigate();
  return (
    <div className="console__page bots-page" data-testid="bots-page">
      <div className="bots-page__head">
        <h1 className="console__title">{t("list.title")}</h1>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(newBotPath())} data-testid="bot-new">
          {t("list.new")}
        </Button>
      </div>
      <Typography.Paragraph type="secondary" className="bots-page__intro">
        {t("list.intro")}
      </Typography.Paragraph>
      <QuoteLine quote={data.quote} />
      {data.bots.length === 0 ? (
        <Card>
          <Empty description={t("list.empty")} data-testid="bots-empty">
            <Space direction="vertical">
              <Typography.Text type="secondary">{t("list.empty_hint")}</Typography.Text>
              <Button type="primary" onClick={() => navigate(newBotPath())}>
                {t("list.new")}
              </Button>
            </Space>
          </Empty>
        </Card>
      ) : (
        <Row gutter={[12, 0]}>
          {data.bots.map((bot) => (
            <Col key={bot.id} xs={24} lg={12}>
              <BotCard bot={bot} />
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
