// The bot package (SPEC 9: "Bot priced per year"): each bot runs on a package paid a year at a
// time from the owner's wallet, on top of the edition's bot count (basic none, professional 10,
// higher unlimited). Decision 0010 sets the price.
import { MICRO } from "../accounts/editions";

export const BOT_PACKAGE_YEAR_MICRO = 99 * MICRO;
export const BOT_PACKAGE_DAYS = 365;
const DAY_MS = 86_400_000;

/** The package's end after paying one more year: a year from now, or from the current end while it lasts. */
export function extendPaidUntil(current: Date | null, now: Date): Date {
  const from = current && current > now ? current : now;
  return new Date(from.getTime() + BOT_PACKAGE_DAYS * DAY_MS);
}
