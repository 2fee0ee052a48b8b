// Labour-remuneration tax withheld on a withdrawal, the one implementation: the
// withdrawal service charges it, the preview endpoint and the pages show it, the explanation pages
// (app/components/site/labour-tax.ts) re-export it. Pure and browser-safe.
// The sums run in fen (integers) so the figures are exact: amounts withdrawn are whole fen.
import { FEN } from "../money.constants";

/** Income up to this is taxed on income − 800; above it, on 80% of income (yuan). */
export const FLAT_DEDUCTION_LIMIT_YUAN = 4000;
export const FLAT_DEDUCTION_YUAN = 800;
export const PERCENT_TAXABLE_ABOVE_LIMIT = 80;

/** Progressive rates on the taxable amount (yuan); each bracket's quick deduction keeps the tax continuous. */
export const TAX_BRACKETS = [
  { upTo: 20000, rate: 20, quickDeduction: 0 },
  { upTo: 50000, rate: 30, quickDeduction: 2000 },
  { upTo: null, rate: 40, quickDeduction: 7000 },
] as const;

export type TLabourTaxFen = {
  incomeFen: number;
  taxableFen: number;
  /** Percent: 20, 30 or 40. */
  rate: number;
  quickDeductionFen: number;
  taxFen: number;
  receivedFen: number;
};

/** The tax on an income of `incomeFen` fen. */
export function computeLabourTaxFen(incomeFen: number): TLabourTaxFen {
  const income = Math.max(0, Math.round(incomeFen));
  const taxable =
    income <= FLAT_DEDUCTION_LIMIT_YUAN * 100 ? Math.max(0, income - FLAT_DEDUCTION_YUAN * 100) : Math.round((income * PERCENT_TAXABLE_ABOVE_LIMIT) / 100);
  const bracket = TAX_BRACKETS.find((b) => b.upTo === null || taxable <= b.upTo * 100) ?? TAX_BRACKETS[TAX_BRACKETS.length - 1];
  const tax = Math.max(0, Math.round((taxable * bracket.rate) / 100) - bracket.quickDeduction * 100);
  return {
    incomeFen: income,
    taxableFen: taxable,
    rate: bracket.rate,
    quickDeductionFen: bracket.quickDeduction * 100,
    taxFen: tax,
    receivedFen: income - tax,
  };
}

export type TLabourTaxMicro = { amountMicro: number; taxableMicro: number; rate: number; taxMicro: number; receivedMicro: number };

/** The tax on a withdrawal of `amountMicro` micro-Z (a whole number of fen; anything below a fen is not withdrawn). */
export function computeLabourTaxMicro(amountMicro: number): TLabourTaxMicro {
  const r = computeLabourTaxFen(Math.floor(amountMicro / FEN));
  return { amountMicro: r.incomeFen * FEN, taxableMicro: r.taxableFen * FEN, rate: r.rate, taxMicro: r.taxFen * FEN, receivedMicro: r.receivedFen * FEN };
}

export type TLabourTax = {
  income: number;
  taxable: number;
  /** Percent: 20, 30 or 40. */
  rate: number;
  quickDeduction: number;
  tax: number;
  received: number;
};

/** The same in yuan (2 decimals), for the explanation pages and the preview. */
export function computeLabourTax(incomeYuan: number): TLabourTax {
  const r = computeLabourTaxFen(Math.round(incomeYuan * 100));
  return {
    income: r.incomeFen / 100,
    taxable: r.taxableFen / 100,
    rate: r.rate,
    quickDeduction: r.quickDeductionFen / 100,
    tax: r.taxFen / 100,
    received: r.receivedFen / 100,
  };
}
