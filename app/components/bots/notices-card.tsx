// What happened to the bot that its owner should know (a WeChat login that lapsed, a package that
// ran out, a message that could not be sent), in the owner's language. New ones are marked read
// once the page has shown them.
import { Badge, Button, Card, Empty, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { uiLocale } from "../../i18n/config";
import { LocalDate } from "../ui/local-date";
import { useStateDetail } from "./bot-state-tag";
import type { TEventView } from "./types";

export function useNoticeText() {
  const { t, i18n } = useTranslation("bots");
  const stateDetail = useStateDetail();
  const locale = uiLocale(i18n.language);
  return (e: TEventView) => {
    const params: Record<string, unknown> = { ...e.detail };
    if (typeof params.state === "string") params.state = t(`state.${params.state}`, { defaultValue: params.state });
    if (typeof params.date === "string" && !Number.isNaN(Date.parse(params.date))) params.date = new Date(params.date).toLocaleDateString(locale);
    if (typeof params.error === "string" && params.error.startsWith("detail.")) params.error = t(params.error, { defaultValue: params.error });
    const text = t(`events.${e.kind}`, { ...params, defaultValue: e.kind });
    // A state change says why when the gateway said so ("offline (connection lost, reconnecting)").
    const why = e.kind === "state_changed" && typeof params.detail === "string" ? stateDetail(params.detail) : "";
    return why ? t("notices.with_detail", { text, detail: why }) : text;
  };
}

/** Notices shown before "show all": enough for the recent story, short enough beside the other cards. */
const FIRST_NOTICES = 8;

export function NoticesCard({ events, fresh }: { events: TEventView[]; fresh: Set<string> }) {
  const { t } = useTranslation("bots");
  const text = useNoticeText();
  const [all, setAll] = useState(false);
  const shown = all ? events : events.slice(0, FIRST_NOTICES);
  return (
    <Card title={t("notices.title")} className="bots-section" data-testid="bot-notices">
      {events.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("notices.empty")} />
      ) : (
        <ul className="bots-list">
          {shown.map((e) => (
            <li key={e.id} className="bots-list__item" data-testid="notice-row" data-kind={e.kind} data-fresh={fresh.has(e.id)}>
              <div className="bots-list__main">
                <div className="bots-list__meta">
                  {fresh.has(e.id) && <Badge status="processing" text={t("notices.new")} />}
                  <Typography.Text type="secondary">
                    <LocalDate iso={e.created_at} withTime />
                  </Typography.Text>
                </div>
                <div>{text(e)}</div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {!all && events.length > FIRST_NOTICES && (
        <Button type="link" onClick={() => setAll(true)} data-testid="notices-all">
          {t("notices.show_all", { count: events.length })}
        </Button>
      )}
    </Card>
  );
}
