// /create_bot?bot_id=: one bot. Its connection (state, login QR code or callback URL), package,
// scheduled messages and what was sent, settings and credentials, and its notices. The page polls
// while the bot is being deployed or waits for a scan, and slower otherwise.
import { ArrowLeftOutlined, BellOutlined } from "@ant-design/icons";
import { Link } from "@remix-run/react";
import { Alert, App, Col, Row, Space } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { WALLET_CHANGED_EVENT } from "../money/recharge-api";
import { BOTS_PATH, useBotsHref, useBotsNavigate } from "./bot-links";
import { BotPackageCard } from "./bot-package-card";
import { BotCredentialsCard, BotSettingsCard } from "./bot-settings-card";
import { BotStateTag } from "./bot-state-tag";
import { BotStatusCard } from "./bot-status-card";
import { DeliveriesCard } from "./deliveries-card";
import { NoticesCard, useNoticeText } from "./notices-card";
import { PlatformBadge } from "./platform-badge";
import { SchedulesCard } from "./schedules-card";
import { formatMicro, type TBotView, type TDeliveryView, type TEventView, type TScheduleView, type TTargetView } from "./types";
import { useBotPoll } from "./use-bot-poll";
import { BOT_PACKAGE_YEAR_MICRO } from "../../../server/bots/bot-package";

type TData = { bot: TBotView; schedules: TScheduleView[]; deliveries: TDeliveryView[]; targets: TTargetView[]; events: TEventView[]; origin: string };

/** Newest first page merged over what is already shown (older pages the owner loaded stay). */
function mergeDeliveries(first: TDeliveryView[], shown: TDeliveryView[]) {
  const ids = new Set(first.map((d) => d.id));
  const oldest = first[first.length - 1]?.created_at ?? "";
  return [...first, ...shown.filter((d) => !ids.has(d.id) && d.created_at < oldest)];
}

export function BotPage({ data }: { data: TData }) {
  const { t } = useTranslation("bots");
  const { message } = App.useApp();
  const href = useBotsHref();
  const navigate = useBotsNavigate();
  const botId = data.bot.id;
  const [bot, setBot] = useState(data.bot);
  const [schedules, setSchedules] = useState(data.schedules);
  const [deliveries, setDeliveries] = useState(data.deliveries);
  const [targets, setTargets] = useState(data.targets);
  const [events, setEvents] = useState(data.events);
  const [fresh, setFresh] = useState(() => new Set(data.events.filter((e) => !e.read).map((e) => e.id)));
  const [busy, setBusy] = useState<string | null>(null);
  const noticeText = useNoticeText();

  const refreshLists = useCallback(async () => {
    const [s, d, tg] = await Promise.all([
      trpc.bots.schedules.list.query({ bot_id: botId }),
      trpc.bots.deliveries.query({ bot_id: botId }),
      trpc.bots.targets.query({ bot_id: botId }),
    ]);
    setSchedules(s);
    setDeliveries((shown) => mergeDeliveries(d, shown));
    setTargets(tg);
  }, [botId]);

  // Notices the page shows are seen: marked read, still flagged "new" while the page stays open.
  const seeEvents = useCallback(async () => {
    const list = await trpc.bots.events.list.query({ bot_id: botId });
    setEvents(list);
    setFresh((f) => new Set([...f, ...list.filter((e) => !e.read).map((e) => e.id)]));
    if (list.some((e) => !e.read)) await trpc.bots.events.markRead.mutate({ bot_id: botId });
    setBot((b) => ({ ...b, unread_events: 0 }));
  }, [botId]);

  useEffect(() => {
    if (data.bot.unread_events > 0) void trpc.bots.events.markRead.mutate({ bot_id: botId }).catch(() => undefined);
  }, [botId, data.bot.unread_events]);

  useBotPoll(bot.state, bot.enabled && !bot.package_expired, async (slow) => {
    const next = await trpc.bots.get.query({ bot_id: botId });
    const moved = next.state !== bot.state;
    setBot(next);
    if (slow || moved) await refreshLists();
    if (next.unread_events > 0) await seeEvents();
  });

  /** Runs a bot action; the refusal reaches the caller (the cards show their own). */
  const act = async <T,>(name: string, run: () => Promise<T>, done?: string) => {
    setBusy(name);
    try {
      const out = await callTrpc(run);
      if (done) message.success(done);
      return out;
    } finally {
      setBusy(null);
    }
  };
  const reloadBot = async () => setBot(await callTrpc(() => trpc.bots.get.query({ bot_id: botId })));
  const toast = (err: unknown) => message.error(errorText(err));

  const freshEvents = events.filter((e) => fresh.has(e.id));
  return (
    <div className="console__page bots-page bots-page--wide" data-testid="bot-page" data-bot-id={bot.id}>
      <Link to={href(BOTS_PATH)} className="bots-back" data-testid="bot-back">
        <ArrowLeftOutlined /> {t("page.back")}
      </Link>
      <div className="bots-page__head">
        <h1 className="console__title bots-page__name" data-testid="bot-title">
          {bot.name}
        </h1>
        <Space wrap size={8}>
          <PlatformBadge channel={bot.channel} />
          <BotStateTag state={bot.state} />
          {bot.agent && <span className="console__hint">{t("list.agent", { name: bot.agent.name })}</span>}
        </Space>
      </div>
      {freshEvents.length > 0 && (
        <Alert
          type="warning"
          showIcon
          icon={<BellOutlined />}
          className="bots-alert"
          data-testid="bot-fresh-notices"
          message={t("notices.fresh", { count: freshEvents.length })}
          description={
            <ul className="bots-fresh">
              {freshEvents.slice(0, 3).map((e) => (
                <li key={e.id}>{noticeText(e)}</li>
              ))}
            </ul>
          }
        />
      )}
      <Row gutter={[16, 0]}>
        <Col xs={24} lg={14}>
          <BotStatusCard
            bot={bot}
            origin={data.origin}
            busy={busy === "relogin"}
            onRelogin={() => void act("relogin", () => trpc.bots.relogin.mutate({ bot_id: botId }), t("status.relogin_done")).then(setBot, toast)}
          />
          <SchedulesCard botId={botId} schedules={schedules} targets={targets} onChange={refreshLists} />
          <DeliveriesCard botId={botId} deliveries={deliveries} onMore={(older) => setDeliveries((d) => [...d, ...older])} />
        </Col>
        <Col xs={24} lg={10}>
          <BotPackageCard
            bot={bot}
            priceMicro={BOT_PACKAGE_YEAR_MICRO}
            busy={busy}
            onRenew={async () => {
              await act("renew", () => trpc.bots.renew.mutate({ bot_id: botId }), t("package.renewed"));
              window.dispatchEvent(new CustomEvent(WALLET_CHANGED_EVENT));
              await reloadBot();
              await seeEvents();
            }}
            onToggle={async () =>
              setBot(
                await act(
                  "toggle",
                  () => trpc.bots.update.mutate({ bot_id: botId, enabled: !bot.enabled }),
                  bot.enabled ? t("package.paused") : t("package.resumed"),
                ),
              )
            }
            onDelete={async () => {
              const { refunded_micro } = await act("delete", () => trpc.bots.delete.mutate({ bot_id: botId }));
              message.success(refunded_micro > 0 ? t("package.deleted_refunded", { amount: formatMicro(refunded_micro) }) : t("package.deleted"));
              if (refunded_micro > 0) window.dispatchEvent(new CustomEvent(WALLET_CHANGED_EVENT));
              navigate(BOTS_PATH);
            }}
          />
          <BotSettingsCard bot={bot} onSaved={setBot} />
          <BotCredentialsCard bot={bot} onSaved={setBot} />
          <NoticesCard events={events} fresh={fresh} />
        </Col>
      </Row>
    </div>
  );
}
