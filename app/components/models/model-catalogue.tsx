// The model catalogue: a table on wide screens and cards on phones. Administrators also see
// disabled models, a switch to enable or disable each one, and edit and delete. Image, video and
// voice models are priced per unit of output, shown where a language model's token prices are.
import { CheckOutlined, MinusOutlined } from "@ant-design/icons";
import { Button, Card, Empty, Grid, Popconfirm, Space, Switch, Table, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useTranslation } from "react-i18next";
import { useIsMobi } from "../app-link";
import { formatTokens } from "./model-format";
import { isUnitPricedKind } from "../../../server/models/model-kinds";
import { formatZ } from "../../../server/money/money-format";
import { LIPSYNC_PRICE_MICRO_PER_5S } from "../../../server/digital/digital.schema";

export type TCatalogueModel = {
  id: string;
  key: string;
  display_name: string;
  kind: string;
  context_window: number;
  input_price_micro: number;
  output_price_micro: number;
  unit_price_micro: number;
  supports_tools: boolean;
  supports_reasoning: boolean;
  enabled: boolean;
  upstream_model?: string;
};

type TProps = {
  models: TCatalogueModel[];
  admin: boolean;
  busy: string | null;
  onEdit: (m: TCatalogueModel) => void;
  onToggle: (m: TCatalogueModel, enabled: boolean) => void;
  onDelete: (m: TCatalogueModel) => void;
};

/** Kinds shown with one price instead of token prices: unit-priced models, and lip-sync at its fixed price. */
const hasOnePrice = (kind: string) => isUnitPricedKind(kind) || kind === "lipsync";

const KIND_COLOURS: Record<string, string> = {
  text: "blue",
  reasoning: "purple",
  image: "magenta",
  video: "volcano",
  voice: "cyan",
  lipsync: "lime",
  embedding: "green",
  rerank: "gold",
  other: "default",
};

function Yes({ on, label }: { on: boolean; label: string }) {
  return on ? <CheckOutlined style={{ color: "#16a34a" }} aria-label={label} /> : <MinusOutlined style={{ color: "#94a3b8" }} aria-label={label} />;
}

export function ModelCatalogue({ models, admin, busy, onEdit, onToggle, onDelete }: TProps) {
  const { t } = useTranslation("models");
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.md === false;
  if (models.length === 0)
    return (
      <Card>
        <Empty description={t("catalogue.empty")} />
      </Card>
    );

  const price = (micro: number) => t("catalogue.price", { amount: formatZ(micro) });
  // A voice model without a price of its own speaks at the platform's speech price.
  const unitPrice = (m: TCatalogueModel) =>
    m.kind === "lipsync"
      ? t("catalogue.unit_price.lipsync", { amount: formatZ(LIPSYNC_PRICE_MICRO_PER_5S) })
      : m.kind === "voice" && m.unit_price_micro === 0
        ? t("catalogue.unit_price.voice_default")
        : t(`catalogue.unit_price.${m.kind}`, { amount: formatZ(m.unit_price_micro) });
  const enabledSwitch = (m: TCatalogueModel) => (
    <Switch
      size="small"
      checked={m.enabled}
      loading={busy === m.id}
      onChange={(on) => onToggle(m, on)}
      aria-label={t("fields.enabled")}
      data-testid="model-enabled"
    />
  );
  const editDelete = (m: TCatalogueModel) => (
    <Space size={0}>
      <Button size="small" type="link" onClick={() => onEdit(m)} data-testid="model-edit">
        {t("actions.edit")}
      </Button>
      <Popconfirm title={t("catalogue.delete_confirm", { name: m.display_name })} onConfirm={() => onDelete(m)}>
        <Button size="small" type="link" danger data-testid="model-delete">
          {t("actions.delete")}
        </Button>
      </Popconfirm>
    </Space>
  );

  if (narrow) {
    return (
      <div className="models__cards">
        {models.map((m) => (
          <Card
            key={m.id}
            size="small"
            data-testid="model-row"
            data-key={m.key}
            title={
              <Space>
                {m.display_name}
                <Tag color={KIND_COLOURS[m.kind]}>{t(`kinds.${m.kind}`)}</Tag>
              </Space>
            }
            extra={!m.enabled && <Tag>{t("catalogue.disabled")}</Tag>}
          >
            <div className="models__card-row">
              <span>{t("fields.key")}</span>
              <span className="models__key">{m.key}</span>
            </div>
            {hasOnePrice(m.kind) ? (
              <div className="models__card-row">
                <span>{t("fields.unit_price")}</span>
                <span data-testid="model-unit-price-cell">{unitPrice(m)}</span>
              </div>
            ) : (
              <>
                <div className="models__card-row">
                  <span>{t("fields.context_window")}</span>
                  <span>{formatTokens(m.context_window)}</span>
                </div>
                <div className="models__card-row">
                  <span>{t("fields.input_price")}</span>
                  <span>{price(m.input_price_micro)}</span>
                </div>
                <div className="models__card-row">
                  <span>{t("fields.output_price")}</span>
                  <span>{price(m.output_price_micro)}</span>
                </div>
              </>
            )}
            <div className="models__card-row">
              <span>{t("fields.supports_tools")}</span>
              <Yes on={m.supports_tools} label={t("fields.supports_tools")} />
            </div>
            <div className="models__card-row">
              <span>{t("fields.supports_reasoning")}</span>
              <Yes on={m.supports_reasoning} label={t("fields.supports_reasoning")} />
            </div>
            {admin && (
              <div className="models__card-row" style={{ marginTop: 8, alignItems: "center" }}>
                <Space size={6}>
                  {enabledSwitch(m)}
                  <span>{t("fields.enabled")}</span>
                </Space>
                {editDelete(m)}
              </div>
            )}
          </Card>
        ))}
      </div>
    );
  }

  const columns: ColumnsType<TCatalogueModel> = [
    {
      title: t("fields.display_name"),
      key: "name",
      render: (_, m) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{m.display_name}</Typography.Text>
          <Typography.Text type="secondary" className="models__key models__nowrap">
            {m.key}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t("fields.kind"), dataIndex: "kind", render: (k: string) => <Tag color={KIND_COLOURS[k]}>{t(`kinds.${k}`)}</Tag> },
    {
      title: t("fields.context_window"),
      dataIndex: "context_window",
      align: "right",
      render: (n: number, m) => (hasOnePrice(m.kind) ? <Typography.Text type="secondary">—</Typography.Text> : formatTokens(n)),
    },
    {
      title: t("fields.input_price"),
      dataIndex: "input_price_micro",
      align: "right",
      // A unit-priced model has one price: it takes both price columns.
      onCell: (m) => ({ colSpan: hasOnePrice(m.kind) ? 2 : 1 }),
      render: (v: number, m) =>
        hasOnePrice(m.kind) ? <span data-testid="model-unit-price-cell">{unitPrice(m)}</span> : t("money.z", { ns: "common", amount: formatZ(v) }),
    },
    {
      title: t("fields.output_price"),
      dataIndex: "output_price_micro",
      align: "right",
      onCell: (m) => ({ colSpan: hasOnePrice(m.kind) ? 0 : 1 }),
      render: (v: number) => t("money.z", { ns: "common", amount: formatZ(v) }),
    },
    {
      title: t("fields.supports_tools"),
      dataIndex: "supports_tools",
      align: "center",
      render: (v: boolean) => <Yes on={v} label={t("fields.supports_tools")} />,
    },
    {
      title: t("fields.supports_reasoning"),
      dataIndex: "supports_reasoning",
      align: "center",
      render: (v: boolean) => <Yes on={v} label={t("fields.supports_reasoning")} />,
    },
    ...(admin
      ? [
          { title: t("fields.enabled"), key: "enabled", align: "center" as const, render: (_: unknown, m: TCatalogueModel) => enabledSwitch(m) },
          { title: t("channels.fields.actions"), key: "actions", render: (_: unknown, m: TCatalogueModel) => editDelete(m) },
        ]
      : []),
  ];
  return (
    <Table
      rowKey="id"
      columns={columns}
      dataSource={models}
      pagination={false}
      onRow={(m) => ({ "data-testid": "model-row", "data-key": m.key }) as React.HTMLAttributes<HTMLElement>}
    />
  );
}
