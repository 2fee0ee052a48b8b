// Micro-Z as people read Z coins, one way on every page (browser-safe: no server imports).
//
// The rule:
// - Two decimals, thousands grouped: 1,234.50.
// - A balance (what someone holds: coins, gift credit, what can be withdrawn) is rounded DOWN to the
//   fen, so a page never shows more than is there: 99.979 reads 99.97, never 99.98.
// - Any other amount (a price, a charge, a dividend, a statement line) keeps the digits it has below
//   the fen, down to the micro, and is never rounded into another amount: the 0.003 channel fee reads
//   0.003, not 0.00; 1.2345 reads 1.2345.
// - The unit follows the number as the locale labels it (common:money.z: "12.50 Z", "12.50 Z币").
//   Only money paid in from outside through a payment provider (a top-up or edition order) is shown
//   in yuan, "¥12.50", with the same digits: 1 Z coin is 1 yuan.
// `signed` puts + before money in (statements).
export function formatZ(micro: number | null | undefined, opts: { signed?: boolean; balance?: boolean } = {}): string {
  const value = Math.trunc(Number(micro ?? 0)) || 0;
  const abs = Math.abs(value);
  const shown = opts.balance ? abs - (abs % 10_000) : abs;
  const sign = shown === 0 ? "" : value < 0 ? "-" : opts.signed ? "+" : "";
  const whole = Math.floor(shown / 1_000_000).toLocaleString("en-US");
  const frac = String(shown % 1_000_000)
    .padStart(6, "0")
    .replace(/0+$/, "")
    .padEnd(2, "0");
  return `${sign}${whole}.${frac}`;
}

/** A balance as formatZ shows it: rounded down to the fen. */
export const formatZBalance = (micro: number | null | undefined) => formatZ(micro, { balance: true });

/** Yuan as a number (the payment and withdrawal views' amounts) in micro-Z: 1 Z coin is 1 yuan. */
export const yuanToMicro = (yuan: number) => Math.round(Number(yuan) * 1_000_000);

/** An amount the API gives in yuan (payment orders), with formatZ's digits and grouping. */
export const formatYuan = (yuan: number) => formatZ(yuanToMicro(yuan));
