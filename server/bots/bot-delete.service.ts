// Deleting a bot (and its BOT app), with the package refund its owner is owed when the bot never
// came online and was bought less than a day ago (bot-refund.ts). One transaction holds the bot's
// row: of two deletions at once the second waits, finds the bot gone and answers what the first
// refunded; the ledger key `bot_refund:<botId>` keeps the refund to one even so.
import { runTransaction } from "../db/transaction";
import { post, reverseLegs } from "../money/ledger.service";
import { packageRefundKey, refundableUntil } from "./bot-package";
import { paidByOwner } from "./bot-refund";
import * as repo from "./bots.repository";
import type { TBotDeleted } from "./bots.schema";
import { loadOwnedBot, type TActor } from "./bots.service";

export async function deleteBot(actor: TActor, botId: string, now = new Date()): Promise<TBotDeleted> {
  const bot = await loadOwnedBot(actor, botId);
  return runTransaction(async (tx) => {
    const row = (await repo.lockBotForDelete(bot.id, tx))!;
    if (row.deletedAt) {
      const refund = await repo.findPostingEntries(packageRefundKey(row.id), tx);
      return { refunded_micro: refund ? -paidByOwner(refund, row.ownerAccountId) : 0 };
    }
    await repo.softDeleteBot(row.id, row.appId, now, tx);
    if (!refundableUntil(row, now)) return { refunded_micro: 0 };
    const entries = (await repo.listPackagePostings([row.id], tx)).flatMap((p) => p.entries);
    const refunded = paidByOwner(entries, row.ownerAccountId);
    if (refunded <= 0) return { refunded_micro: 0 };
    await post(
      {
        key: packageRefundKey(row.id),
        kind: "refund",
        accountId: row.ownerAccountId,
        memo: { botId: row.id, name: row.name, reason: "bot_never_online" },
        legs: reverseLegs(entries),
      },
      tx,
    );
    return { refunded_micro: refunded };
  });
}
