// Channels grouped by priority tier, highest first, so the routing order reads top to bottom; used
// by /modelProducer (the platform's channels) and the settings card (an account's own keys).
import { PlusOutlined } from "@ant-design/icons";
import { App, Button, Card, Empty, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { ChannelFormDrawer, type TModelOption } from "./channel-form-drawer";
import { ChannelTable, type TChannelAction } from "./channel-table";
import { channelsApi, type TChannelRow, type TChannelScope, type TChannelTest } from "./models-api";

type TProps = { scope: TChannelScope; initial: TChannelRow[]; models: TModelOption[] };

/** Tiers in routing order: the highest priority first. */
function groupByTier(channels: TChannelRow[]) {
  const tiers = new Map<number, TChannelRow[]>();
  for (const c of [...channels].sort((a, b) => b.priority - a.priority || a.created_at.localeCompare(b.created_at))) {
    tiers.set(c.priority, [...(tiers.get(c.priority) ?? []), c]);
  }
  return [...tiers.entries()];
}

export function ChannelManager({ scope, initial, models }: TProps) {
  const { t } = useTranslation("models");
  const { message } = App.useApp();
  const [channels, setChannels] = useState(initial);
  const [editing, setEditing] = useState<TChannelRow | "new" | null>(null);
  const [tests, setTests] = useState<Record<string, TChannelTest | undefined>>({});
  const api = channelsApi(scope);

  const refresh = async () => setChannels(await api.list());
  const change = useMutation(async (channel: TChannelRow, action: Exclude<TChannelAction, "edit">) => {
    if (action === "test") {
      try {
        const result = await api.test(channel.id);
        setTests((s) => ({ ...s, [channel.id]: result }));
        message.success(t("channels.test_ok", { ms: result.ms }));
      } catch (err) {
        const detail = err instanceof ApiError ? (err.data as TChannelTest | null) : null;
        setTests((s) => ({ ...s, [channel.id]: { ok: false, ms: detail?.ms ?? 0, error: detail?.error ?? null } }));
        message.error(err instanceof ApiError ? [err.description, detail?.error].filter(Boolean).join(": ") : String(err));
      }
    } else if (action === "delete") {
      await api.remove(channel.id);
      message.success(t("channels.deleted"));
    } else {
      await api.setEnabled(channel.id, action === "enable");
    }
    // A test can disable a channel (a banned key): always show the state the server has now.
    await refresh();
  });
  const busy = change.busyKey?.id ?? null;
  const act = (channel: TChannelRow, action: TChannelAction) => (action === "edit" ? setEditing(channel) : void change.run(channel, action));

  const tiers = groupByTier(channels);
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid={`channels-${scope}`}>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="channel-add">
        {scope === "own" ? t("own.add") : t("channels.add")}
      </Button>
      {tiers.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={scope === "own" ? t("channels.own_empty") : t("channels.empty")} />}
      {tiers.map(([priority, list], index) => (
        <Card
          key={priority}
          size="small"
          data-testid="channel-tier"
          data-priority={priority}
          title={
            <Space wrap size={8}>
              <span>{t("channels.tier_title", { priority })}</span>
              <Typography.Text type="secondary" className="models__small">
                {index === 0 ? t("channels.tier_first") : t("channels.tier_next")}
              </Typography.Text>
            </Space>
          }
        >
          <ChannelTable channels={list} compact={scope === "own"} showFailures={scope === "admin"} busy={busy} tests={tests} onAction={act} />
        </Card>
      ))}
      <ChannelFormDrawer
        scope={scope}
        editing={editing}
        models={models}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void refresh();
        }}
      />
    </Space>
  );
}
