// What deleting a bot gives back. A bot that has never come online, deleted within a day of its
// purchase, is refunded what its package cost: the exact reverse of the postings that paid it (the
// first year and any renewal), gift credit back to gift and coins back to coins, as a purchase
// refund is. Past the day, or once a platform has seen the bot, deleting it refunds nothing.
import { wallet } from "../money/ledger.service";
import { refundableUntil } from "./bot-package";
import type { TDeleteRefund } from "./bots.schema";
import * as repo from "./bots.repository";
type TEntry = { ledgerAccountId: string; amountMicro: bigint };

/** What the owner's wallets paid in these entries (their debits). */
export function paidByOwner(entries: TEntry[], ownerId: string): number {
  const own = new Set([wallet("spendable", ownerId), wallet("gift", ownerId)]);
  return entries.filter((e) => own.has(e.ledgerAccountId)).reduce((sum, e) => sum - Number(e.amountMicro), 0);
}

/** For each bot a deletion now would refund: until when, and how much its owner paid. */
export async function findDeleteRefunds(
  bots: { id: string; ownerAccountId: string; createdAt: Date; lastSeenAt: Date | null }[],
  now = new Date(),
): Promise<Map<string, TDeleteRefund>> {
  const open = bots.map((b) => ({ bot: b, until: refundableUntil(b, now) })).filter((x) => x.until);
  const out = new Map<string, TDeleteRefund>();
  if (!open.length) return out;
  const postings = await repo.listPackagePostings(open.map((x) => x.bot.id));
  for (const { bot, until } of open) {
    const entries = postings.filter((p) => p.idempotencyKey.startsWith(`bot_package:${bot.id}:`)).flatMap((p) => p.entries);
    const amount = paidByOwner(entries, bot.ownerAccountId);
    if (amount > 0) out.set(bot.id, { until: until!.toISOString(), amount_micro: amount });
  }
  return out;
}
