// The labour tax of the explanation pages (/mobi/withdrawal_tip, the calculator) is the server's
// own module, so what a page explains is what a withdrawal withholds.
import { WITHDRAWAL_MIN_MICRO, WITHDRAWAL_WORKING_DAYS, MICRO } from "../../../server/money/money.constants";

export { computeLabourTax, TAX_BRACKETS, type TLabourTax } from "../../../server/money/withdrawals/labour-tax";

export const WITHDRAWAL_MIN_YUAN = WITHDRAWAL_MIN_MICRO / MICRO;
export const WITHDRAWAL_DAYS = WITHDRAWAL_WORKING_DAYS;

export function formatYuan(value: number, locale: string | undefined): string {
  return value.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
