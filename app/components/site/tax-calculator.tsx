import { InputNumber, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { computeLabourTax, formatYuan, WITHDRAWAL_MIN_YUAN, type TLabourTax } from "./labour-tax";

// Strings in the "mobi" namespace under withdrawal.*.

/** Type an amount, see the tax withheld and what arrives. */
export function TaxCalculator() {
  const { t, i18n } = useTranslation("mobi");
  const [amount, setAmount] = useState<number | null>(10000);
  const fmt = (v: number) => formatYuan(v, i18n.language.replace("_", "-"));
  const valid = amount !== null && amount >= WITHDRAWAL_MIN_YUAN;
  const r = valid ? computeLabourTax(amount) : null;
  return (
    <div className="mp-calc" data-testid="tax-calculator">
      <Space.Compact block>
        <Space.Addon>{t("withdrawal.calc.amount")}</Space.Addon>
        <InputNumber<number>
          aria-label={t("withdrawal.calc.amount")}
          value={amount}
          onChange={setAmount}
          min={0}
          max={10000000}
          precision={2}
          inputMode="decimal"
          style={{ width: "100%" }}
          suffix={t("withdrawal.yuan")}
        />
      </Space.Compact>
      {r ? (
        <div className="mp-calc__result" aria-live="polite">
          <div className="mp-calc__cell">
            <small>{t("withdrawal.calc.taxable")}</small>
            <strong>{fmt(r.taxable)}</strong>
          </div>
          <div className="mp-calc__cell">
            <small>{t("withdrawal.calc.tax")}</small>
            <strong>{fmt(r.tax)}</strong>
          </div>
          <div className="mp-calc__cell mp-calc__cell--main">
            <small>{t("withdrawal.calc.received")}</small>
            <strong>{fmt(r.received)}</strong>
          </div>
        </div>
      ) : (
        <div className="mp-formula" role="alert">
          {t("withdrawal.calc.too_small", { min: WITHDRAWAL_MIN_YUAN })}
        </div>
      )}
    </div>
  );
}

/** The step-by-step sum for one amount. */
export function WorkedExample({ income }: { income: number }) {
  const { t, i18n } = useTranslation("mobi");
  const locale = i18n.language.replace("_", "-");
  const fmt = (v: number) => (Number.isInteger(v) ? v.toLocaleString(locale) : formatYuan(v, locale));
  const r: TLabourTax = computeLabourTax(income);
  const high = income > 4000;
  const vars = { income: fmt(r.income), taxable: fmt(r.taxable), rate: r.rate, deduction: fmt(r.quickDeduction), tax: fmt(r.tax), received: fmt(r.received) };
  return (
    <div className="mp-formula" data-testid={`worked-example-${income}`}>
      <b>{t("withdrawal.example.title", vars)}</b>
      <ol className="mp-work">
        <li>
          <span>{t(high ? "withdrawal.example.taxable_high" : "withdrawal.example.taxable_low", vars)}</span>
          <b>{vars.taxable}</b>
        </li>
        <li>
          <span>{t("withdrawal.example.rate", vars)}</span>
          <b>{r.rate}%</b>
        </li>
        <li>
          <span>{t("withdrawal.example.tax", vars)}</span>
          <b>{vars.tax}</b>
        </li>
        <li>
          <span>{t("withdrawal.example.received", vars)}</span>
          <b>{vars.received}</b>
        </li>
      </ol>
    </div>
  );
}
