import { CheckCircleFilled, CheckOutlined, MinusOutlined } from "@ant-design/icons";
import { Table } from "antd";
import type { ColumnsType } from "antd/es/table";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { EDITIONS_FOR_DISPLAY as EDITIONS, type TEdition } from "./editions";

// Strings live in the "site" namespace under editions.*; routes that show plans load "site".

function useLimit() {
  const { t } = useTranslation("site");
  return (n: number | null) => (n === null ? t("editions.values.unlimited") : String(n));
}

type TLine = { key: string; on: boolean; text: string };

function useLines() {
  const { t } = useTranslation("site");
  const limit = useLimit();
  return (e: TEdition): TLine[] => [
    { key: "resources", on: true, text: e.agents === null ? t("editions.lines.resources_unlimited") : t("editions.lines.resources", { n: e.agents }) },
    { key: "chats", on: true, text: t("editions.lines.chats", { n: e.chatsPerDay }) },
    { key: "bots", on: e.bots !== 0, text: e.bots === 0 ? t("editions.lines.bots_none") : t("editions.lines.bots", { limit: limit(e.bots) }) },
    { key: "distribution", on: e.distribution, text: t("editions.lines.distribution") },
    { key: "private_key", on: e.privateKey, text: t("editions.lines.private_key") },
    { key: "sub_accounts", on: e.subAccounts, text: t("editions.lines.sub_accounts") },
    { key: "branding", on: e.branding, text: t("editions.lines.branding") },
  ];
}

/** One card per edition with its fee, prepaid top-up and main limits. */
export function EditionCards({ footer }: { footer?: (e: TEdition) => ReactNode }) {
  const { t } = useTranslation("site");
  const lines = useLines();
  return (
    <div className="sp-plans" data-testid="edition-cards">
      {EDITIONS.map((e) => (
        <div key={e.key} className={`sp-plan${e.featured ? " sp-plan--featured" : ""}`} data-testid={`edition-${e.key}`}>
          {e.featured && <span className="sp-plan__badge">{t("editions.featured")}</span>}
          <div className="sp-plan__name">{t(`editions.items.${e.key}.name`)}</div>
          <div className="sp-plan__for">{t(`editions.items.${e.key}.for`)}</div>
          <div className="sp-plan__price">
            <small>¥</small>
            <strong>{e.fee}</strong>
            <span className="sp-plan__prepaid">{t("editions.fee_unit")}</span>
          </div>
          <div className="sp-plan__prepaid">{t("editions.prepaid", { amount: e.prepaid })}</div>
          <ul>
            {lines(e).map((l) => (
              <li key={l.key} className={l.on ? undefined : "is-off"}>
                {l.on ? <CheckOutlined /> : <MinusOutlined />}
                <span>{l.text}</span>
              </li>
            ))}
          </ul>
          {footer && <div style={{ marginTop: "auto", paddingTop: 18 }}>{footer(e)}</div>}
        </div>
      ))}
    </div>
  );
}

type TRow = { key: string; label: string; values: ReactNode[] };

/** Every limit side by side; scrolls sideways on phones. */
export function EditionCompareTable() {
  const { t } = useTranslation("site");
  const limit = useLimit();
  const yes = (on: boolean) =>
    on ? (
      <CheckCircleFilled className="is-yes" aria-label={t("editions.values.yes")} />
    ) : (
      <MinusOutlined className="is-no" aria-label={t("editions.values.no")} />
    );
  const row = (key: string, pick: (e: TEdition) => ReactNode): TRow => ({ key, label: t(`editions.rows.${key}`), values: EDITIONS.map(pick) });
  const rows: TRow[] = [
    row("fee", (e) => `¥${e.fee}`),
    row("prepaid", (e) => `¥${e.prepaid}`),
    row("agents", (e) => limit(e.agents)),
    row("training_sets", (e) => limit(e.trainingSets)),
    row("apps", (e) => limit(e.apps)),
    row("bots", (e) => (e.bots === 0 ? yes(false) : limit(e.bots))),
    row("chats", (e) => e.chatsPerDay),
    row("distribution", (e) => yes(e.distribution)),
    row("private_key", (e) => yes(e.privateKey)),
    row("sub_accounts", (e) => yes(e.subAccounts)),
    row("branding", (e) => yes(e.branding)),
  ];
  const columns: ColumnsType<TRow> = [
    { key: "label", title: t("editions.rows.item"), dataIndex: "label", fixed: "left", width: 132 },
    ...EDITIONS.map((e, i) => ({
      key: e.key,
      title: t(`editions.items.${e.key}.name`),
      align: "center" as const,
      width: 104,
      render: (_: unknown, r: TRow) => r.values[i],
    })),
  ];
  return (
    <div className="sp-compare" data-testid="edition-compare">
      <Table<TRow> columns={columns} dataSource={rows} pagination={false} size="small" scroll={{ x: 660 }} bordered />
    </div>
  );
}
