// Time left shown as years, months and days (a 365-day year, a 30.4375-day month).
import { splitDuration } from "../../../server/money/money.constants";

export type TDurationPart = { unit: "years" | "months" | "days"; count: number };

/**
 * The non-zero parts of `days`, largest first. Time left is counted in whole days first (to the
 * nearest): a year bought a moment ago shows "1 year", not "11 months 30 days".
 */
export function durationParts(days: number): TDurationPart[] {
  const d = splitDuration(Math.round(Math.max(0, days)));
  const parts: TDurationPart[] = [];
  if (d.years) parts.push({ unit: "years", count: d.years });
  if (d.months) parts.push({ unit: "months", count: d.months });
  if (d.days || parts.length === 0) parts.push({ unit: "days", count: d.days });
  return parts;
}

/** With the editions namespace's duration.<unit>_one/_other keys. */
export function formatDuration(t: (key: string, opts: { count: number }) => string, days: number): string {
  return durationParts(days)
    .map((p) => t(`duration.${p.unit}`, { count: p.count }))
    .join(" ");
}
