// A channel's state as administrators read it: a coloured tag, and for a disabled channel why and
// when, in words (the gateway records reasons as short codes or its own failure summary).
import { Space, Tag, Tooltip, Typography } from "antd";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../ui/local-date";
import type { TChannelRow } from "./models-api";

const COLOURS = { enabled: "success", disabled_manual: "default", disabled_auto: "error" } as const;

/** "key_banned", "manual", or "3 failures in 300s; last: http_500: ..." (gateway.service). */
export function describeDisabledReason(reason: string | null, t: TFunction) {
  if (!reason) return null;
  if (reason === "key_banned") return t("key_banned", { ns: "errors" });
  if (reason === "manual") return t("channels.reason_manual");
  const failures = /^(\d+) failures in (\d+)s; last: (.*)$/s.exec(reason);
  if (failures) return t("channels.reason_failures", { count: Number(failures[1]), seconds: Number(failures[2]), last: failures[3] });
  return reason;
}

export function ChannelState({ channel }: { channel: TChannelRow }) {
  const { t } = useTranslation("models");
  const reason = describeDisabledReason(channel.disabled_reason, t);
  const tag = (
    <Tag color={COLOURS[channel.state]} data-testid="channel-state" data-state={channel.state}>
      {t(`channels.states.${channel.state}`)}
    </Tag>
  );
  if (channel.state === "enabled") return tag;
  return (
    <Space direction="vertical" size={0}>
      <Tooltip title={reason}>{tag}</Tooltip>
      {reason && channel.state === "disabled_auto" && (
        <Typography.Text type="danger" className="models__reason" data-testid="channel-disabled-reason">
          {reason}
        </Typography.Text>
      )}
      {channel.disabled_at && (
        <Typography.Text type="secondary" className="models__reason">
          <LocalDate iso={channel.disabled_at} withTime />
        </Typography.Text>
      )}
    </Space>
  );
}
