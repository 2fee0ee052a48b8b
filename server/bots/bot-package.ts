// The bot package: each bot runs on a package paid a year at a time from the owner's wallet, on
// top of the edition's bot count (basic none, professional 10, higher unlimited). The price is set
// in docs/decisions/0010-bots-leases-packages-and-sends.md.
import { MICRO } from "../accounts/editions";

export const BOT_PACKAGE_YEAR_MICRO = 99 * MICRO;
export const BOT_PACKAGE_DAYS = 365;
const DAY_MS = 86_400_000;

/** The package's end after paying one more year: a year from now, or from the current end while it lasts. */
export function extendPaidUntil(current: Date | null, now: Date): Date {
  const from = current && current > now ? current : now;
  return new Date(from.getTime() + BOT_PACKAGE_DAYS * DAY_MS);
}

/** How long after buying a bot its owner may delete it for a full refund, while it has never come online. */
export const REFUND_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Until when deleting the bot refunds what its package cost: 24 hours from its purchase, as long
 * as it has never come online (a platform saw it: `lastSeenAt`); null once either has passed.
 */
export function refundableUntil(bot: { createdAt: Date; lastSeenAt: Date | null }, now: Date): Date | null {
  if (bot.lastSeenAt) return null;
  const until = new Date(bot.createdAt.getTime() + REFUND_WINDOW_MS);
  return until > now ? until : null;
}

/** The ledger key of a bot's package refund: one per bot, so it is paid at most once. */
export const packageRefundKey = (botId: string) => `bot_refund:${botId}`;
