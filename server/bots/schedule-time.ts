// When a scheduled message goes out next, from its send time and loop settings. Daily and
// weekly loops keep the wall-clock time of the first send in the owner's clock (a fixed offset
// from UTC, the browser's when it was saved): "daily at 09:00" stays at 09:00. Every N hours
// counts from the first send. A loop that was missed (the gateway was down) fires once, late,
// and then carries on from the next time after now: never a burst of catch-up sends.
import type { TScheduleLoop } from "./bots.schema";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type TScheduleRule = { sendAt: Date; loop: TScheduleLoop; everyHours: number | null; utcOffsetMinutes: number };

/** The first occurrence at or after `from` (null when a one-off is past). */
export function firstRunAtOrAfter(rule: TScheduleRule, from: Date): Date | null {
  if (rule.sendAt >= from) return rule.sendAt;
  if (rule.loop === "once") return null;
  const step = stepMs(rule);
  if (rule.loop === "hours") {
    const n = Math.ceil((from.getTime() - rule.sendAt.getTime()) / step);
    return new Date(rule.sendAt.getTime() + n * step);
  }
  // Daily and weekly: whole days in the owner's clock (a fixed offset has no daylight saving, so a
  // day is always 24 hours and the wall-clock time holds).
  const n = Math.ceil((from.getTime() - rule.sendAt.getTime()) / step);
  return new Date(rule.sendAt.getTime() + n * step);
}

/** The occurrence after the one due at `due`, skipping any that are already past at `now`. */
export function nextRunAfter(rule: TScheduleRule, due: Date, now: Date): Date | null {
  if (rule.loop === "once") return null;
  const after = new Date(Math.max(due.getTime(), now.getTime()) + 1);
  return firstRunAtOrAfter(rule, after);
}

function stepMs(rule: TScheduleRule): number {
  if (rule.loop === "daily") return DAY_MS;
  if (rule.loop === "weekly") return 7 * DAY_MS;
  return Math.max(1, rule.everyHours ?? 1) * HOUR_MS;
}

/** The wall-clock hour and minute of the first send in the owner's clock (for labels). */
export function wallClock(rule: Pick<TScheduleRule, "sendAt" | "utcOffsetMinutes">): { hour: number; minute: number; weekday: number } {
  const local = new Date(rule.sendAt.getTime() + rule.utcOffsetMinutes * 60_000);
  return { hour: local.getUTCHours(), minute: local.getUTCMinutes(), weekday: local.getUTCDay() };
}
