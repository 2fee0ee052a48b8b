// Micro-Z as people read Z coins, one way on every page (browser-safe: no server imports).
// Two decimals, or three where an amount holds fractions of a fen (0.003 per message), rounded half
// away from zero at the third; `exact` keeps every non-zero decimal up to the micro (the
// reconciliation page, prices that may be set below a fen); `signed` puts + before money in.
export function formatZ(micro: number | null | undefined, opts: { signed?: boolean; exact?: boolean } = {}): string {
  const value = Number(micro ?? 0);
  const abs = Math.abs(value);
  const sign = value < 0 ? "-" : opts.signed && value > 0 ? "+" : "";
  if (opts.exact) return sign + (abs / 1_000_000).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 });
  const decimals = abs % 10_000 === 0 ? 2 : 3;
  const units = Math.round(abs / 10 ** (6 - decimals));
  const whole = Math.floor(units / 10 ** decimals).toLocaleString("en-US");
  const frac = String(units % 10 ** decimals).padStart(decimals, "0");
  return `${sign}${whole}.${frac}`;
}
