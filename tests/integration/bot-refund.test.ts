// Deleting a bot and its package refund: a bot that never came online, deleted within 24 hours of
// its purchase, gives its owner back exactly what the package cost (gift credit to gift, coins to
// coins, renewals included), once, even when two deletions race; once a platform has seen it, or a
// day after buying it, deleting refunds nothing; another account's bot cannot be deleted at all.
// The bot's page says beforehand which applies.
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { BOT_PACKAGE_YEAR_MICRO, REFUND_WINDOW_MS } from "../../server/bots/bot-package";
import { deleteBot } from "../../server/bots/bot-delete.service";
import { getBot, renewBotPackage } from "../../server/bots/bots.service";
import { getWallet } from "../../server/money/ledger.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { makeBotOwner, makeTestBot } from "../helpers/bots";
import { fundAccount } from "../helpers/money";

const code = async (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { code?: string; name?: string }) => e.code ?? e.name,
  );
const refunds = (botId: string) => getDb().ledgerTransaction.count({ where: { idempotencyKey: `bot_refund:${botId}` } });
const HOUR = 3_600_000;

describe("deleting a bot that never came online, within 24 hours of buying it", () => {
  it("says so beforehand, then refunds the package exactly once when two deletions race, into the wallets that paid", async () => {
    // 60 Z of gift credit and 100 Z of coins: the package took the gift first, then 39 Z of coins.
    const owner = await makeBotOwner({ funds: 60_000_000 });
    await fundAccount(owner.id, 100_000_000, "spendable");
    const before = await getWallet(owner.id);
    const { botId, appId } = await makeTestBot(owner, { channel: "wechat" });
    expect(await getWallet(owner.id)).toMatchObject({ gift: 0, spendable: before.spendable - (BOT_PACKAGE_YEAR_MICRO - before.gift) });

    const view = await getBot(owner, botId);
    expect(view.refund_on_delete).toEqual({ until: expect.any(String), amount_micro: BOT_PACKAGE_YEAR_MICRO });
    const until = new Date(view.refund_on_delete!.until).getTime();
    expect(until - new Date(view.created_at).getTime()).toBe(REFUND_WINDOW_MS);

    const answers = await Promise.all([deleteBot(owner, botId).catch((e) => e.code), deleteBot(owner, botId).catch((e) => e.code)]);
    // Each copy answers the one refund (or, arriving after it, finds the bot gone).
    for (const a of answers) expect([{ refunded_micro: BOT_PACKAGE_YEAR_MICRO }, "not_found"]).toContainEqual(a);
    expect(answers).toContainEqual({ refunded_micro: BOT_PACKAGE_YEAR_MICRO });
    expect(await refunds(botId)).toBe(1);
    expect(await getWallet(owner.id)).toMatchObject({ gift: before.gift, spendable: before.spendable });
    expect(await code(deleteBot(owner, botId))).toBe("not_found");
    expect(await getWallet(owner.id)).toMatchObject({ gift: before.gift, spendable: before.spendable });
    expect((await getDb().bot.findUniqueOrThrow({ where: { id: botId } })).deletedAt).not.toBeNull();
    expect((await getDb().app.findUniqueOrThrow({ where: { id: appId } })).deletedAt).not.toBeNull();
  });

  it("refunds a renewal paid in that day too", async () => {
    const owner = await makeBotOwner();
    const before = await getWallet(owner.id);
    const { botId } = await makeTestBot(owner, { channel: "wechat" });
    expect((await renewBotPackage(owner, botId)).charged).toBe(true);
    expect((await getBot(owner, botId)).refund_on_delete?.amount_micro).toBe(2 * BOT_PACKAGE_YEAR_MICRO);
    expect(await deleteBot(owner, botId)).toEqual({ refunded_micro: 2 * BOT_PACKAGE_YEAR_MICRO });
    expect(await getWallet(owner.id)).toEqual(before);
  });
});

describe("deleting a bot without a refund", () => {
  it("refunds nothing once the bot has come online, even within the day", async () => {
    const owner = await makeBotOwner();
    const { botId } = await makeTestBot(owner, { channel: "wechat" });
    await getDb().bot.update({ where: { id: botId }, data: { state: "online", lastSeenAt: new Date() } });
    // Offline again afterwards: it still came online once.
    await getDb().bot.update({ where: { id: botId }, data: { state: "offline" } });
    expect((await getBot(owner, botId)).refund_on_delete).toBeNull();
    const paid = await getWallet(owner.id);
    expect(await deleteBot(owner, botId)).toEqual({ refunded_micro: 0 });
    expect(await getWallet(owner.id)).toEqual(paid);
    expect(await refunds(botId)).toBe(0);
  });

  it("refunds nothing 24 hours after the purchase, though it never came online", async () => {
    const owner = await makeBotOwner();
    const { botId } = await makeTestBot(owner, { channel: "wechat" });
    await getDb().bot.update({ where: { id: botId }, data: { createdAt: new Date(Date.now() - 24 * HOUR - 60_000) } });
    expect((await getBot(owner, botId)).refund_on_delete).toBeNull();
    const paid = await getWallet(owner.id);
    expect(await deleteBot(owner, botId)).toEqual({ refunded_micro: 0 });
    expect(await getWallet(owner.id)).toEqual(paid);
    expect(await refunds(botId)).toBe(0);
  });

  it("refuses another account's bot: not found, the bot kept, no coins moved", async () => {
    const owner = await makeBotOwner();
    const stranger = await makeBotOwner();
    const { botId } = await makeTestBot(owner, { channel: "wechat" });
    const [ownerPaid, strangerHas] = [await getWallet(owner.id), await getWallet(stranger.id)];
    expect(await code(deleteBot(stranger, botId))).toBe("not_found");
    expect(await code(getBot(stranger, botId))).toBe("not_found");
    expect((await getDb().bot.findUniqueOrThrow({ where: { id: botId } })).deletedAt).toBeNull();
    expect(await getWallet(owner.id)).toEqual(ownerPaid);
    expect(await getWallet(stranger.id)).toEqual(strangerHas);
    expect(await refunds(botId)).toBe(0);
    // The owner may still have it refunded.
    expect(await deleteBot(owner, botId)).toEqual({ refunded_micro: BOT_PACKAGE_YEAR_MICRO });
  });

  it("leaves the ledger balanced", async () => {
    const r = await reconcileLedger();
    expect(r.mismatches).toEqual([]);
    expect(r.negative).toEqual([]);
    expect(r.unbalanced).toEqual([]);
  });
});
