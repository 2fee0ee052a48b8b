import {
  CalculatorOutlined,
  ClockCircleOutlined,
  FileProtectOutlined,
  IdcardOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  WalletOutlined,
  WarningOutlined,
} from "@ant-design/icons";
import { Alert, Steps, Table } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ContactCard } from "../../components/site/contact-card";
import { IconBadge, type TTone } from "../../components/site/icon-card";
import { computeLabourTax, formatYuan, TAX_BRACKETS, WITHDRAWAL_DAYS, WITHDRAWAL_MIN_YUAN } from "../../components/site/labour-tax";
import { TaxCalculator, WorkedExample } from "../../components/site/tax-calculator";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";
import { uiLocale } from "../../i18n/config";

export const handle = { i18n: ["mobi", "site"] };

export const meta = pageMeta("Zelin · Withdrawals");

const RULES: { key: string; icon: ReactNode; tone: TTone }[] = [
  { key: "minimum", icon: <WalletOutlined />, tone: "emerald" },
  { key: "arrival", icon: <ClockCircleOutlined />, tone: "indigo" },
  { key: "real_name", icon: <IdcardOutlined />, tone: "cyan" },
  { key: "sources", icon: <SafetyCertificateOutlined />, tone: "violet" },
  { key: "enterprise", icon: <TeamOutlined />, tone: "amber" },
];

const FLOW = ["apply", "submitted", "arrived"] as const;
const SAMPLES = [500, 3000, 10000, 30000, 100000];

export default function WithdrawalTip() {
  const { t, i18n } = useTranslation("mobi");
  const fmt = (v: number) => formatYuan(v, uiLocale(i18n.language));
  const whole = (v: number) => v.toLocaleString(uiLocale(i18n.language));
  const vars = { min: WITHDRAWAL_MIN_YUAN, days: WITHDRAWAL_DAYS };

  const bracketRows = TAX_BRACKETS.map((b, i) => ({
    key: String(i),
    range:
      b.upTo === null
        ? t("withdrawal.tax.range_above", { from: whole(TAX_BRACKETS[i - 1].upTo ?? 0) })
        : i === 0
          ? t("withdrawal.tax.range_upto", { to: whole(b.upTo) })
          : t("withdrawal.tax.range_between", { from: whole(TAX_BRACKETS[i - 1].upTo ?? 0), to: whole(b.upTo) }),
    rate: `${b.rate}%`,
    deduction: whole(b.quickDeduction),
  }));

  const sampleRows = SAMPLES.map((s) => ({ key: String(s), ...computeLabourTax(s) }));

  return (
    <div className="sp-page mp" data-testid="mobi-withdrawal-tip">
      <section className="mp-hero">
        <span className="mp-hero__eyebrow">{t("withdrawal.hero.eyebrow")}</span>
        <h1>{t("withdrawal.hero.title")}</h1>
        <p>{t("withdrawal.hero.lead", vars)}</p>
      </section>

      <section className="mp-card">
        <h2>
          <FileProtectOutlined />
          {t("withdrawal.rules.title")}
        </h2>
        <ul className="mp-list">
          {RULES.map((r) => (
            <li key={r.key}>
              <IconBadge icon={r.icon} tone={r.tone} small />
              <div>
                <b>{t(`withdrawal.rules.items.${r.key}.title`, vars)}</b>
                <span>{t(`withdrawal.rules.items.${r.key}.desc`, vars)}</span>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section className="mp-card">
        <h2>
          <ClockCircleOutlined />
          {t("withdrawal.flow.title")}
        </h2>
        <Steps
          orientation="vertical"
          size="small"
          current={-1}
          style={{ marginTop: 12 }}
          items={FLOW.map((k) => ({
            status: (k === "arrived" ? "finish" : "process") as "finish" | "process",
            title: t(`withdrawal.flow.items.${k}.title`),
            content: t(`withdrawal.flow.items.${k}.desc`, vars),
          }))}
        />
        <Alert
          type="warning"
          showIcon
          icon={<WarningOutlined />}
          title={t("withdrawal.flow.abnormal_title")}
          description={t("withdrawal.flow.abnormal_desc")}
        />
      </section>

      <section className="mp-card">
        <h2>
          <SafetyCertificateOutlined />
          {t("withdrawal.tax.title")}
        </h2>
        <p className="mp-card__lead">{t("withdrawal.tax.lead")}</p>
        <div className="mp-formula">
          <span>
            <code>{t("withdrawal.tax.step1_label")}</code> {t("withdrawal.tax.step1")}
          </span>
          <span>
            <code>{t("withdrawal.tax.step2_label")}</code> {t("withdrawal.tax.step2")}
          </span>
          <span>
            <code>{t("withdrawal.tax.step3_label")}</code> {t("withdrawal.tax.step3")}
          </span>
        </div>
        <Table
          style={{ marginTop: 14 }}
          size="small"
          pagination={false}
          bordered
          dataSource={bracketRows}
          columns={[
            { key: "range", dataIndex: "range", title: t("withdrawal.tax.col_range") },
            { key: "rate", dataIndex: "rate", title: t("withdrawal.tax.col_rate"), align: "center", width: 72 },
            { key: "deduction", dataIndex: "deduction", title: t("withdrawal.tax.col_deduction"), align: "right", width: 96 },
          ]}
        />
      </section>

      <section className="mp-card">
        <h2>
          <CalculatorOutlined />
          {t("withdrawal.example.heading")}
        </h2>
        <p className="mp-card__lead">{t("withdrawal.example.lead")}</p>
        <div style={{ display: "grid", gap: 12 }}>
          <WorkedExample income={3000} />
          <WorkedExample income={10000} />
        </div>
        <Table
          style={{ marginTop: 14 }}
          size="small"
          pagination={false}
          dataSource={sampleRows}
          columns={[
            { key: "income", dataIndex: "income", title: t("withdrawal.samples.income"), render: (v: number) => whole(v) },
            { key: "tax", dataIndex: "tax", title: t("withdrawal.samples.tax"), align: "right", render: (v: number) => fmt(v) },
            { key: "received", dataIndex: "received", title: t("withdrawal.samples.received"), align: "right", render: (v: number) => <b>{fmt(v)}</b> },
          ]}
        />
      </section>

      <section className="mp-card">
        <h2>
          <CalculatorOutlined />
          {t("withdrawal.calc.title")}
        </h2>
        <p className="mp-card__lead">{t("withdrawal.calc.lead")}</p>
        <TaxCalculator />
      </section>

      <p className="sp-card__desc" style={{ fontSize: ".82rem", padding: "0 4px" }}>
        {t("withdrawal.disclaimer")}
      </p>

      <ContactCard title={t("withdrawal.contact.title")} desc={t("withdrawal.contact.desc")} />
    </div>
  );
}
