// A bot's state (deploying, to be associated, online, offline, expired) as a coloured
// tag, and the reason beside it: an i18n key under bots:detail, or the platform's own words.
import { Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { TBotState } from "../../../server/bots/bots.schema";

const COLORS: Record<TBotState, string> = { deploying: "processing", to_be_associated: "warning", online: "success", offline: "default", expired: "error" };

export function BotStateTag({ state }: { state: TBotState }) {
  const { t } = useTranslation("bots");
  return (
    <Tag color={COLORS[state]} data-testid="bot-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}

/** The detail is stored as "detail.<key>" (the gateway's) or as the platform's words. */
export function useStateDetail() {
  const { t } = useTranslation("bots");
  return (detail: string | null | undefined) => (!detail ? "" : detail.startsWith("detail.") ? t(detail, { defaultValue: detail }) : detail);
}

export function BotStateDetail({ detail }: { detail: string | null | undefined }) {
  const text = useStateDetail()(detail);
  if (!text) return null;
  return (
    <Typography.Text type="secondary" className="bots-state-detail" data-testid="bot-state-detail">
      {text}
    </Typography.Text>
  );
}
