// Labour-remuneration tax withheld on a withdrawal (SPEC 9, DESIGN 8), for the explanation pages.
// Works in fen so the figures shown are exact.

export const WITHDRAWAL_MIN_YUAN = 10;
export const WITHDRAWAL_DAYS = 7;

export type TLabourTax = {
  income: number;
  taxable: number;
  /** Percent: 20, 30 or 40. */
  rate: number;
  quickDeduction: number;
  tax: number;
  received: number;
};

export const TAX_BRACKETS = [
  { upTo: 20000, rate: 20, quickDeduction: 0 },
  { upTo: 50000, rate: 30, quickDeduction: 2000 },
  { upTo: null, rate: 40, quickDeduction: 7000 },
] as const;

export function computeLabourTax(incomeYuan: number): TLabourTax {
  const income = Math.max(0, Math.round(incomeYuan * 100));
  const taxable = income <= 400000 ? Math.max(0, income - 80000) : Math.round((income * 8) / 10);
  const bracket = TAX_BRACKETS.find((b) => b.upTo === null || taxable <= b.upTo * 100) ?? TAX_BRACKETS[2];
  const tax = taxable === 0 ? 0 : Math.max(0, Math.round((taxable * bracket.rate) / 100) - bracket.quickDeduction * 100);
  return {
    income: income / 100,
    taxable: taxable / 100,
    rate: bracket.rate,
    quickDeduction: bracket.quickDeduction,
    tax: tax / 100,
    received: (income - tax) / 100,
  };
}

export function formatYuan(value: number, locale: string): string {
  return value.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
