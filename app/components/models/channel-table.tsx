// The channels of one priority tier: who serves what, each one's share of the tier's traffic, its
// state, and the actions on it.
import { Button, Grid, Popconfirm, Space, Table, Tag, Tooltip, Typography, type ButtonProps } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useTranslation } from "react-i18next";
import { useIsMobi } from "../app-link";
import { ChannelState } from "./channel-state";
import type { TChannelRow, TChannelTest } from "./models-api";

export type TChannelAction = "test" | "enable" | "disable" | "edit" | "delete";

type TProps = {
  channels: TChannelRow[];
  /** Cards instead of a table (phones, and the narrower settings card). */
  compact?: boolean;
  showFailures: boolean;
  busy: string | null;
  tests: Record<string, TChannelTest | undefined>;
  onAction: (channel: TChannelRow, action: TChannelAction) => void;
};

/** Traffic share inside a tier: weight over the enabled channels' total (disabled ones get none). */
function shareOf(channel: TChannelRow, channels: TChannelRow[]) {
  if (channel.state !== "enabled") return 0;
  const total = channels.filter((c) => c.state === "enabled").reduce((sum, c) => sum + c.weight, 0);
  return total ? Math.round((channel.weight / total) * 100) : 0;
}

export function ChannelTable({ channels, compact, showFailures, busy, tests, onAction }: TProps) {
  const { t } = useTranslation("models");
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.md === false || Boolean(compact);
  // A self-hosted SD WebUI or ComfyUI may run without any key.
  const showKeyHint = (hint: string) => (hint ? `…${hint}` : t("channels.no_key"));
  const columns: ColumnsType<TChannelRow> = [
    {
      title: t("channels.fields.name"),
      key: "name",
      width: 180,
      render: (_, c) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid="channel-name-cell">
            {c.name}
          </Typography.Text>
          <Typography.Text type="secondary" className="models__small">
            {t(`channels.types.${c.type}`)}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t("channels.fields.base_url"),
      dataIndex: "base_url",
      width: 200,
      render: (url: string) => (
        <Typography.Text className="models__url" ellipsis={{ tooltip: url }}>
          {url}
        </Typography.Text>
      ),
    },
    { title: t("channels.fields.key"), dataIndex: "key_hint", width: 90, render: (hint: string) => <span className="models__key">{showKeyHint(hint)}</span> },
    {
      title: t("channels.fields.models"),
      dataIndex: "models",
      width: 180,
      render: (models: string[]) => (
        <Space size={[0, 4]} wrap>
          {models.slice(0, 3).map((m) => (
            <Tag key={m}>{m}</Tag>
          ))}
          {models.length > 3 && (
            <Tooltip title={models.slice(3).join(", ")}>
              <Tag>+{models.length - 3}</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t("channels.fields.weight"),
      key: "weight",
      width: 100,
      render: (_, c) => (
        <Tooltip title={t("channels.share_hint")}>
          <span data-testid="channel-weight-cell">
            {c.weight} <Typography.Text type="secondary">({shareOf(c, channels)}%)</Typography.Text>
          </span>
        </Tooltip>
      ),
    },
    { title: t("channels.fields.state"), key: "state", width: 200, render: (_, c) => <ChannelState channel={c} /> },
    ...(showFailures
      ? [
          {
            title: t("channels.fields.recent_failures"),
            dataIndex: "recent_failures",
            width: 90,
            render: (n: number | undefined) => <Typography.Text type={n ? "warning" : "secondary"}>{n ?? 0}</Typography.Text>,
          },
        ]
      : []),
    {
      title: t("channels.fields.actions"),
      key: "actions",
      width: 300,
      render: (_, c) => <ChannelActions channel={c} busy={busy === c.id} test={tests[c.id]} onAction={onAction} />,
    },
  ];
  if (narrow) {
    return (
      <div className="models__cards models__cards--grid">
        {channels.map((c) => (
          <div key={c.id} className="models__channel" data-testid="channel-row" data-name={c.name}>
            <div className="models__channel-head">
              <Typography.Text strong>{c.name}</Typography.Text>
              <ChannelState channel={c} />
            </div>
            <div className="models__card-row">
              <span>{t("channels.fields.type")}</span>
              <span>{t(`channels.types.${c.type}`)}</span>
            </div>
            <div className="models__card-row">
              <span>{t("channels.fields.base_url")}</span>
              <span className="models__key">{c.base_url}</span>
            </div>
            <div className="models__card-row">
              <span>{t("channels.fields.key")}</span>
              <span className="models__key">{showKeyHint(c.key_hint)}</span>
            </div>
            <div className="models__card-row">
              <span>{t("channels.fields.models")}</span>
              <span className="models__key">{c.models.join(", ")}</span>
            </div>
            <div className="models__card-row">
              <span>{t("channels.fields.weight")}</span>
              <span>
                {c.weight} ({shareOf(c, channels)}%)
              </span>
            </div>
            {showFailures && (
              <div className="models__card-row">
                <span>{t("channels.fields.recent_failures")}</span>
                <span>{c.recent_failures ?? 0}</span>
              </div>
            )}
            <div style={{ marginTop: 8 }}>
              <ChannelActions channel={c} busy={busy === c.id} test={tests[c.id]} onAction={onAction} />
            </div>
          </div>
        ))}
      </div>
    );
  }
  return (
    <Table
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={channels}
      pagination={false}
      scroll={{ x: 1150 }}
      onRow={(c) => ({ "data-testid": "channel-row", "data-name": c.name }) as React.HTMLAttributes<HTMLElement>}
    />
  );
}

function ChannelActions({ channel, busy, test, onAction }: { channel: TChannelRow; busy: boolean; test?: TChannelTest; onAction: TProps["onAction"] }) {
  const { t } = useTranslation("models");
  const enabled = channel.state === "enabled";
  return (
    <Space size={4} wrap>
      <Button size="small" loading={busy} onClick={() => onAction(channel, "test")} data-testid="channel-test">
        {t("actions.test")}
      </Button>
      {test && (
        <Typography.Text type={test.ok ? "success" : "danger"} className="models__small" data-testid="channel-test-result">
          {test.ok ? t("channels.test_latency", { ms: test.ms }) : t("channels.test_failed_short")}
        </Typography.Text>
      )}
      <Button size="small" onClick={() => onAction(channel, enabled ? "disable" : "enable")} data-testid={enabled ? "channel-disable" : "channel-enable"}>
        {enabled ? t("actions.disable") : t("actions.enable")}
      </Button>
      <Button size="small" onClick={() => onAction(channel, "edit")} data-testid="channel-edit">
        {t("actions.edit")}
      </Button>
      <Popconfirm
        title={t("channels.delete_confirm", { name: channel.name })}
        onConfirm={() => onAction(channel, "delete")}
        okButtonProps={{ "data-testid": "channel-delete-ok" } as ButtonProps}
      >
        <Button size="small" danger data-testid="channel-delete">
          {t("actions.delete")}
        </Button>
      </Popconfirm>
    </Space>
  );
}
