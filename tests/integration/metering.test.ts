// Metering (docs/decisions/0007-who-pays-the-channel-fee.md) on the real database and the
// fake upstream on loopback: the channel fee once per reply from the right payer and back when no
// reply came; refusals (balance, the app owner's balance, the day's chats, an agent's trial) that
// write nothing; an agent's trial, use price and buyout; the daily storage charge; the metering
// function's prices.
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../server/apps/api-keys.service";
import { createOpenAiRouter } from "../../server/apps/openai-compat/openai.http";
import { getDb } from "../../server/db/client";
import { AppError } from "../../server/errors/app-error";
import { createApiRouter } from "../../server/http/api-router";
import { issueCsrfCookie } from "../../server/http/csrf";
import { getWallet, platform, post, wallet } from "../../server/money/ledger.service";
import { PRICES, storageDayPriceMicro } from "../../server/money/money.constants";
import { chinaDayOf, chinaDayStart, chinaYesterday } from "../../server/money/metering/china-day";
import { chargeMetered, priceMetered } from "../../server/money/metering/metering.service";
import { meteringSettings, resetMeteringSettings } from "../../server/money/metering/metering-settings";
import { chargeStorage } from "../../server/money/metering/storage-charges.service";
import { setKnowledgePaused } from "../../server/knowledge/indexing.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { startFakeOpenai } from "../fakes/fake-openai";
import { Browser } from "../helpers/api-client";
import { createTestApp } from "../helpers/apps";
import { contentOf, dataOf, makeAgent, makeUser, sendSse, waitFor, type TUser } from "../helpers/chat-runtime";
import { fundAccount } from "../helpers/money";

const FEE = PRICES.chatMessageMicro;
const h = {} as { fake: Awaited<ReturnType<typeof startFakeOpenai>>; base: string; server: Server };

beforeAll(async () => {
  h.fake = await startFakeOpenai();
  const app = express();
  app.set("trust proxy", true);
  app.use(issueCsrfCookie);
  app.use("/api", createApiRouter());
  app.use("/v1", createOpenAiRouter());
  h.server = app.listen(0, "127.0.0.1");
  await new Promise((r) => h.server.once("listening", r));
  h.base = `http://127.0.0.1:${(h.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => h.server?.close(() => r()));
  await h.fake?.close();
});

const DEBUG = "/api/v1/ai_message/send_message/sse";
const LIVE = "/api/v2/app/send_message/sse";
const send = (user: TUser, body: Record<string, unknown>, path = DEBUG) => sendSse(h.base, user, body, { path });
const errorOf = (r: Awaited<ReturnType<typeof send>>) => dataOf(r, "error")[0] as { status: number; description: string } | undefined;
const idOf = (r: Awaited<ReturnType<typeof send>>) => dataOf(r, "message")[0]?.id as string;
const tx = (key: string) => getDb().ledgerTransaction.findUnique({ where: { idempotencyKey: key }, include: { entries: true } });
const legsOf = (t: NonNullable<Awaited<ReturnType<typeof tx>>>) => Object.fromEntries(t.entries.map((e) => [e.ledgerAccountId, Number(e.amountMicro)]));
const available = async (id: string) => (await getWallet(id)).available;
const txCountOf = (accountId: string) =>
  getDb().ledgerEntry.count({ where: { ledgerAccountId: { in: [wallet("gift", accountId), wallet("spendable", accountId)] } } });
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => (e instanceof AppError ? e.code : String(e)),
  );

let ip = 0;
function makeVisitor(): TUser {
  const browser = new Browser(h.base, `10.77.${Math.floor(++ip / 250)}.${ip % 250}`);
  browser.cookies.set("zl_visitor", crypto.randomBytes(16).toString("hex"));
  browser.cookies.set("lang", "en");
  return { id: "", browser, actor: { id: "", roles: [], enterpriseId: null } };
}

describe("the channel fee in console chats", () => {
  it("charges the chatting account once per reply, gift credit first, to the platform's revenue", async () => {
    const alice = await makeUser(h.base);
    const { agentId } = await makeAgent({ fake: h.fake }, alice);
    const before = await getWallet(alice.id);
    const r = await send(alice, { agent_id: agentId, content: "hello" });
    expect(contentOf(r)).toBe("word0 word1 word2 ");
    const id = idOf(r);
    const charge = (await tx(`chat:${id}`))!;
    expect(charge).toMatchObject({ kind: "chat_charge", accountId: alice.id });
    expect(charge.memo).toMatchObject({ messageId: id, agentId, dialogueId: dataOf(r, "message")[0].dialogue_id });
    expect(legsOf(charge)).toEqual({ [wallet("gift", alice.id)]: -FEE, platform_revenue: FEE });
    expect(await getWallet(alice.id)).toMatchObject({ gift: before.gift - FEE, spendable: before.spendable });
    expect(await tx(`chat-refund:${id}`)).toBeNull();

    // A second reply (a regeneration included) is a second charge; nothing is charged twice.
    const again = await send(alice, { agent_id: agentId, dialogue_id: dataOf(r, "message")[0].dialogue_id, regenerate_message_id: id });
    expect(contentOf(again)).toBe("word0 word1 word2 ");
    expect(await tx(`chat:${idOf(again)}`)).not.toBeNull();
    expect(await available(alice.id)).toBe(before.available - 2 * FEE);
    expect(await getDb().ledgerTransaction.count({ where: { accountId: alice.id, kind: "chat_charge" } })).toBe(2);
  });

  it("takes coins once the gift credit is spent", async () => {
    const bob = await makeUser(h.base, { funded: false });
    await fundAccount(bob.id, 1_000, "gift");
    await fundAccount(bob.id, 1_000_000, "spendable");
    const { agentId } = await makeAgent({ fake: h.fake }, bob);
    const r = await send(bob, { agent_id: agentId, content: "hello" });
    expect(legsOf((await tx(`chat:${idOf(r)}`))!)).toEqual({
      [wallet("gift", bob.id)]: -1_000,
      [wallet("spendable", bob.id)]: -(FEE - 1_000),
      platform_revenue: FEE,
    });
    expect(await getWallet(bob.id)).toMatchObject({ gift: 0, spendable: 1_000_000 - (FEE - 1_000) });
  });

  it("returns the fee when the upstream fails, when the output is censored and when stopped before any text", async () => {
    const carol = await makeUser(h.base);
    const start = await available(carol.id);
    const failing = await makeAgent({ fake: h.fake }, carol, { behaviour: { fail: "500" } });
    const failed = await send(carol, { agent_id: failing.agentId, content: "hello" });
    expect(errorOf(failed)).toBeDefined();
    const id = idOf(failed);
    expect(legsOf((await tx(`chat:${id}`))!)).toEqual({ [wallet("gift", carol.id)]: -FEE, platform_revenue: FEE });
    expect((await tx(`chat-refund:${id}`))!).toMatchObject({ kind: "chat_refund", accountId: carol.id });
    expect(legsOf((await tx(`chat-refund:${id}`))!)).toEqual({ [wallet("gift", carol.id)]: FEE, platform_revenue: -FEE });
    expect(await available(carol.id)).toBe(start);

    const { setSensitiveWords, getSensitiveWords } = await import("../../server/content/content.service");
    const words = await getSensitiveWords();
    const word = `禁词${crypto.randomBytes(2).toString("hex")}`;
    await setSensitiveWords({ words: [...words, word] });
    try {
      const censoring = await makeAgent({ fake: h.fake }, carol, { behaviour: { stream: { text: `fine then ${word} more`, chunks: 3 } } });
      const censored = await send(carol, { agent_id: censoring.agentId, content: "hello" });
      expect(dataOf(censored, "censor")).toHaveLength(1);
      expect(await tx(`chat-refund:${idOf(censored)}`)).not.toBeNull();
    } finally {
      await setSensitiveWords({ words });
    }

    // The client goes away after the ids, before the first word: no reply given.
    const slow = await makeAgent({ fake: h.fake }, carol, { behaviour: { stream: { chunks: 3, delayMs: 1500 } } });
    const stopped = await sendSse(
      h.base,
      carol,
      { agent_id: slow.agentId, content: "hello" },
      { onEvent: (e) => (e.event === "message" ? "abort" : undefined) },
    );
    const stoppedId = idOf(stopped);
    expect(
      await waitFor(
        () => tx(`chat-refund:${stoppedId}`),
        (t) => t !== null,
      ),
    ).not.toBeNull();
    expect(await available(carol.id)).toBe(start);
  });

  it("refuses an account without balance before anything is written or asked", async () => {
    const dan = await makeUser(h.base, { funded: false });
    const { agentId, key } = await makeAgent({ fake: h.fake }, dan);
    const r = await send(dan, { agent_id: agentId, content: "hello" });
    expect(r.events.map((e) => e.event)).toEqual(["error"]);
    expect(errorOf(r)).toMatchObject({ status: 420001, description: "Balance insufficient, please recharge" });
    expect(await getDb().dialogue.count({ where: { accountId: dan.id } })).toBe(0);
    expect(await txCountOf(dan.id)).toBe(0);
    expect(h.fake.receivedFor(key)).toHaveLength(0);

    // Just enough for one reply, then refused again.
    await fundAccount(dan.id, FEE, "spendable");
    expect(contentOf(await send(dan, { agent_id: agentId, content: "hello" }))).toBe("word0 word1 word2 ");
    expect(await available(dan.id)).toBe(0);
    expect(errorOf(await send(dan, { agent_id: agentId, content: "again" }))).toMatchObject({ status: 420001 });
    expect(await getDb().chatMessage.count({ where: { dialogue: { accountId: dan.id } } })).toBe(2);
  });

  it("never takes a wallet below zero when replies race for the last fee", async () => {
    const erin = await makeUser(h.base, { funded: false });
    await fundAccount(erin.id, 2 * FEE, "spendable");
    const { agentId } = await makeAgent({ fake: h.fake }, erin);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => send(erin, { agent_id: agentId, content: `race ${i}` })));
    const answered = results.filter((r) => contentOf(r) === "word0 word1 word2 " && !errorOf(r));
    expect(answered).toHaveLength(2);
    for (const r of results) if (errorOf(r)) expect(errorOf(r)!.status).toBe(420001);
    expect(await available(erin.id)).toBe(0);
    // A reply whose charge lost the race wrote no rows: only the two answered exchanges are stored.
    expect(await getDb().chatMessage.count({ where: { dialogue: { accountId: erin.id } } })).toBe(4);
    expect((await reconcileLedger()).negative).toEqual([]);
  });

  it("limits console replies per China day by edition: times_exhausted beyond, nothing written", async () => {
    const basic = await makeUser(h.base);
    await getDb().account.update({ where: { id: basic.id }, data: { edition: "basic", editionExpiresAt: null } });
    const { agentId, key } = await makeAgent({ fake: h.fake }, basic, { behaviour: { stream: { chunks: 1 } } });
    // 19 replies of today and one from yesterday (China time) already there; a failed one does not count.
    const today = chinaDayStart(new Date());
    const d = await getDb().dialogue.create({ data: { accountId: basic.id, agentId, title: "earlier", lastMessageAt: new Date() } });
    await getDb().chatMessage.createMany({
      data: [
        ...Array.from({ length: 19 }, (_, i) => ({
          dialogueId: d.id,
          role: "assistant" as const,
          content: "x",
          status: "done" as const,
          createdAt: new Date(today.getTime() + 1000 + i),
        })),
        { dialogueId: d.id, role: "assistant" as const, content: "", status: "failed" as const, createdAt: new Date(today.getTime() + 5000) },
        { dialogueId: d.id, role: "assistant" as const, content: "y", status: "done" as const, createdAt: new Date(today.getTime() - 1000) },
      ],
    });
    expect(contentOf(await send(basic, { agent_id: agentId, content: "twentieth" }))).toBe("word0 ");
    const spent = await available(basic.id);
    const messages = await getDb().chatMessage.count({ where: { dialogue: { accountId: basic.id } } });
    const refused = await send(basic, { agent_id: agentId, content: "twenty-first" });
    expect(errorOf(refused)).toMatchObject({ status: 420003, description: "Times exhausted, please try tomorrow" });
    expect(await getDb().chatMessage.count({ where: { dialogue: { accountId: basic.id } } })).toBe(messages);
    expect(await available(basic.id)).toBe(spent);
    expect(h.fake.receivedFor(key)).toHaveLength(1);

    // A professional account has 100 a day.
    await getDb().account.update({ where: { id: basic.id }, data: { edition: "professional", editionExpiresAt: new Date(Date.now() + 86_400_000) } });
    expect(contentOf(await send(basic, { agent_id: agentId, content: "now allowed" }))).toBe("word0 ");
  });
});

describe("apps: the owner pays their consumers' replies", () => {
  async function fakeApp(type: "h5" | "api", funded = true) {
    const owner = await makeUser(h.base, { funded });
    const agent = await makeAgent({ fake: h.fake }, owner, { publish: true });
    const actor = { id: owner.id, roles: [] as never[], enterpriseId: null };
    const { appId } = await createTestApp({ owner: actor, agentId: agent.agentId, input: { type, free_per_day: 5 } as never });
    return { owner, actor, appId, agent };
  }

  it("an H5 visitor's and a signed-in consumer's replies are charged to the app's owner", async () => {
    const { owner, appId } = await fakeApp("h5");
    const consumer = await makeUser(h.base);
    const ownerBefore = await available(owner.id);
    const consumerBefore = await available(consumer.id);
    const byVisitor = await send(makeVisitor(), { app_id: appId, content: "hello" }, LIVE);
    const byConsumer = await send(consumer, { app_id: appId, content: "hello" }, LIVE);
    for (const r of [byVisitor, byConsumer]) {
      expect(contentOf(r)).toBe("word0 word1 word2 ");
      const charge = (await tx(`chat:${idOf(r)}`))!;
      expect(charge).toMatchObject({ kind: "chat_charge", accountId: owner.id });
      expect(charge.memo).toMatchObject({ appId });
    }
    expect(await available(owner.id)).toBe(ownerBefore - 2 * FEE);
    expect(await available(consumer.id)).toBe(consumerBefore);
  });

  it("an owner who cannot pay: app_owner_balance_insufficient to the consumer, over SSE and in OpenAI's shape", async () => {
    const { actor, appId, agent } = await fakeApp("api", false);
    const visitor = makeVisitor();
    const before = await getDb().appUse.count({ where: { appId } });
    const r = await send(visitor, { app_id: appId, content: "hello" }, LIVE);
    expect(r.events.map((e) => e.event)).toEqual(["error"]);
    expect(errorOf(r)).toMatchObject({ status: 420811 });
    expect(await getDb().dialogue.count({ where: { appId } })).toBe(0);
    expect(await getDb().appUse.count({ where: { appId } })).toBe(before);

    const issued = await createApiKey(actor, { app_id: appId });
    const call = () =>
      fetch(`${h.base}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${issued.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: appId, messages: [{ role: "user", content: "hi" }] }),
      });
    const refused = await call();
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ error: { type: "insufficient_quota", code: "app_owner_balance_insufficient" } });
    expect(h.fake.receivedFor(agent.key)).toHaveLength(0);

    // Once the owner tops up, the API answers and the owner pays.
    await fundAccount(actor.id, 1_000_000, "spendable");
    const ok = await call();
    expect(ok.status).toBe(200);
    expect(await available(actor.id)).toBe(1_000_000 - FEE);
  });

  it("the owner's fee goes back when the app's reply fails", async () => {
    const { owner, appId, agent } = await fakeApp("h5");
    const before = await available(owner.id);
    h.fake.setBehaviour(agent.key, { fail: "500" });
    const r = await send(makeVisitor(), { app_id: appId, content: "hello" }, LIVE);
    expect(errorOf(r)).toBeDefined();
    expect(await tx(`chat-refund:${idOf(r)}`)).toMatchObject({ accountId: owner.id });
    expect(await available(owner.id)).toBe(before);
  });
});

describe("someone else's agent in a live chat", () => {
  async function marketAgent(config: Record<string, unknown>) {
    const dev = await makeUser(h.base);
    const agent = await makeAgent({ fake: h.fake }, dev, { market: true, config });
    return { dev, ...agent };
  }

  it("trial uses first, then the use price per reply (10% to the platform, the rest to the developer), then a refusal without money", async () => {
    const { dev, agentId, key } = await marketAgent({ trial_count: 2, use_price_micro: 100_000, purchase_price_micro: 1_000_000 });
    const user = await makeUser(h.base, { funded: false });
    await fundAccount(user.id, 3 * FEE + 100_000 + FEE, "spendable");
    const devBefore = await getWallet(dev.id);

    for (let i = 0; i < 2; i++) {
      const r = await send(user, { agent_id: agentId, content: `trial ${i}` }, LIVE);
      expect(contentOf(r)).toBe("word0 word1 word2 ");
      expect(await tx(`agent-use:${idOf(r)}`)).toBeNull();
    }
    expect((await getDb().agentUse.findMany({ where: { agentId, accountId: user.id } })).map((u) => u.basis)).toEqual(["trial", "trial"]);

    const paid = await send(user, { agent_id: agentId, content: "paid" }, LIVE);
    expect(contentOf(paid)).toBe("word0 word1 word2 ");
    const id = idOf(paid);
    const held = (await tx(`agent-use:${id}`))!;
    expect(held).toMatchObject({ kind: "use_charge", accountId: user.id });
    expect(held.memo).toMatchObject({ agentId, buyerAccountId: user.id, developerAccountId: dev.id });
    expect(legsOf(held)).toEqual({ [wallet("spendable", user.id)]: -100_000, escrow: 100_000 });
    const settled = (await tx(`agent-use-settle:${id}`))!;
    expect(legsOf(settled)).toEqual({ escrow: -100_000, platform_revenue: 10_000, [wallet("spendable", dev.id)]: 90_000 });
    expect((await getWallet(dev.id)).spendable).toBe(devBefore.spendable + 90_000);
    const uses = await getDb().agentUse.findMany({ where: { agentId, accountId: user.id }, orderBy: { createdAt: "asc" } });
    expect(uses.map((u) => u.basis)).toEqual(["trial", "trial", "use"]);
    expect(uses[2].ledgerTransactionId).toBe(held.id);

    // FEE left: enough for the channel fee, not the use price: refused, nothing written or asked.
    const asked = h.fake.receivedFor(key).length;
    const refused = await send(user, { agent_id: agentId, content: "broke" }, LIVE);
    expect(errorOf(refused)).toMatchObject({ status: 420001 });
    expect(h.fake.receivedFor(key)).toHaveLength(asked);
    expect(await available(user.id)).toBe(FEE);
  });

  it("a failed reply returns the use price from escrow and records no use", async () => {
    const { agentId, key } = await marketAgent({ trial_count: 0, use_price_micro: 200_000 });
    const user = await makeUser(h.base);
    const before = await available(user.id);
    h.fake.setBehaviour(key, { fail: "500" });
    const r = await send(user, { agent_id: agentId, content: "hello" }, LIVE);
    expect(errorOf(r)).toBeDefined();
    const id = idOf(r);
    expect(await tx(`agent-use:${id}`)).not.toBeNull();
    expect(legsOf((await tx(`agent-use-refund:${id}`))!)).toEqual({ escrow: -200_000, [wallet("gift", user.id)]: 200_000 });
    expect(await tx(`agent-use-settle:${id}`)).toBeNull();
    expect(await available(user.id)).toBe(before);
    expect(await getDb().agentUse.count({ where: { agentId, accountId: user.id } })).toBe(0);
  });

  it("trial count 0 and no use price: trial_count_zero; a trial that ran out of time: trial_exhausted; a buyout: free", async () => {
    const { agentId } = await marketAgent({ trial_count: 1, use_price_micro: 0, purchase_price_micro: 1_000_000 });
    const user = await makeUser(h.base);
    expect(contentOf(await send(user, { agent_id: agentId, content: "trial" }, LIVE))).toBe("word0 word1 word2 ");
    const refused = await send(user, { agent_id: agentId, content: "again" }, LIVE);
    expect(errorOf(refused)).toMatchObject({ status: 420702, description: "Trial count is 0, please purchase" });

    const late = await makeUser(h.base);
    const other = await marketAgent({ trial_count: 3, purchase_price_micro: 1_000_000 });
    expect(contentOf(await send(late, { agent_id: other.agentId, content: "first" }, LIVE))).toBe("word0 word1 word2 ");
    await getDb().agentUse.updateMany({
      where: { agentId: other.agentId, accountId: late.id },
      data: { createdAt: new Date(Date.now() - 3 * 86_400_000 - 60_000) },
    });
    const exhausted = await send(late, { agent_id: other.agentId, content: "later" }, LIVE);
    expect(errorOf(exhausted)).toMatchObject({ status: 420002 });
    const messages = await getDb().chatMessage.count({ where: { dialogue: { accountId: late.id } } });

    // The buyout (as a purchase writes it): free use from then on, recorded as such.
    const bought = await post({
      key: `test-buyout:${late.id}`,
      kind: "purchase",
      accountId: late.id,
      legs: [
        { account: wallet("gift", late.id), amount: -1_000_000 },
        { account: platform("platform_revenue"), amount: 1_000_000 },
      ],
    });
    await getDb().purchase.create({
      data: {
        buyerAccountId: late.id,
        targetType: "agent_buyout",
        agentId: other.agentId,
        kind: "buyout",
        priceMicro: 1_000_000n,
        ledgerTransactionId: bought.id,
      },
    });
    const before = await available(late.id);
    const free = await send(late, { agent_id: other.agentId, content: "mine now" }, LIVE);
    expect(contentOf(free)).toBe("word0 word1 word2 ");
    expect(await tx(`agent-use:${idOf(free)}`)).toBeNull();
    expect(await available(late.id)).toBe(before - FEE);
    expect(await getDb().chatMessage.count({ where: { dialogue: { accountId: late.id } } })).toBe(messages + 2);
    const last = await getDb().agentUse.findFirst({ where: { agentId: other.agentId, accountId: late.id }, orderBy: { createdAt: "desc" } });
    expect(last?.basis).toBe("buyout");
  });

  it("a free agent is free to use; the owner's own live chat records no use", async () => {
    const { dev, agentId } = await marketAgent({});
    const user = await makeUser(h.base);
    const r = await send(user, { agent_id: agentId, content: "hi" }, LIVE);
    expect(contentOf(r)).toBe("word0 word1 word2 ");
    expect((await getDb().agentUse.findFirst({ where: { agentId, accountId: user.id } }))?.basis).toBe("free");
    expect(contentOf(await send(dev, { agent_id: agentId, content: "mine" }, LIVE))).toBe("word0 word1 word2 ");
    expect(await getDb().agentUse.count({ where: { agentId, accountId: dev.id } })).toBe(0);
    expect(await tx(`chat:${idOf(r)}`)).toMatchObject({ accountId: user.id });
  });
});

describe("the daily storage charge", () => {
  async function holder(chars: number, funds: number) {
    const row = await getDb().account.create({ data: { account: `st${crypto.randomBytes(4).toString("hex")}`, nickname: "Storer" }, select: { id: true } });
    await getDb().trainingSet.create({ data: { ownerAccountId: row.id, name: "big", type: "standard", charCount: chars } });
    if (funds) await fundAccount(row.id, funds, "spendable");
    return row.id;
  }

  it("charges each account over the free million once per day; a rerun charges nothing twice", async () => {
    const a = await holder(1_250_050, 100_000_000);
    const within = await holder(900_000, 0);
    const price = storageDayPriceMicro(1_250_050);
    expect(price).toBe(2501 * 10_000);
    const day = 20260105;
    const run = await chargeStorage({ day }, setKnowledgePaused, new Date(), [a, within]);
    expect(run).toMatchObject({ day, charged: 1, paused: [], resumed: [] });
    const charge = (await tx(`storage:${a}:${day}`))!;
    expect(charge).toMatchObject({ kind: "storage_charge", accountId: a });
    expect(charge.memo).toMatchObject({ chars: 1_250_050, day });
    expect(legsOf(charge)).toEqual({ [wallet("spendable", a)]: -price, platform_revenue: price });
    expect(await txCountOf(within)).toBe(0);

    // Again, and again with more characters: the day was charged.
    expect(await chargeStorage({ day }, setKnowledgePaused, new Date(), [a])).toMatchObject({ charged: 0, alreadyCharged: 1 });
    await getDb().trainingSet.updateMany({ where: { ownerAccountId: a }, data: { charCount: 1_300_000 } });
    expect(await chargeStorage({ day }, setKnowledgePaused, new Date(), [a])).toMatchObject({ charged: 0, alreadyCharged: 1 });
    expect(await available(a)).toBe(100_000_000 - price);
    // The next day is a day of its own; the default day is yesterday, China time.
    expect(await chargeStorage({ day: 20260106 }, setKnowledgePaused, new Date(), [a])).toMatchObject({ charged: 1 });
    const now = new Date();
    expect((await chargeStorage({}, setKnowledgePaused, now, [a])).day).toBe(chinaYesterday(now));
  });

  it("pauses the knowledge service of an account that cannot pay, and resumes it once a run charges it", async () => {
    const poor = await holder(1_100_000, 5_000_000);
    const price = storageDayPriceMicro(1_100_000);
    expect(price).toBe(10_000_000);
    const run = await chargeStorage({ day: 20260201 }, setKnowledgePaused, new Date(), [poor]);
    expect(run).toMatchObject({ charged: 0, paused: [poor] });
    expect((await getDb().account.findUniqueOrThrow({ where: { id: poor } })).knowledgePausedAt).not.toBeNull();
    expect(await tx(`storage:${poor}:20260201`)).toBeNull();
    expect(await available(poor)).toBe(5_000_000);
    // Still unpaid: stays paused, paused only once.
    expect(await chargeStorage({ day: 20260201 }, setKnowledgePaused, new Date(), [poor])).toMatchObject({ paused: [], resumed: [] });

    await fundAccount(poor, 10_000_000, "spendable");
    expect(await chargeStorage({ day: 20260202 }, setKnowledgePaused, new Date(), [poor])).toMatchObject({ charged: 1, resumed: [poor] });
    expect((await getDb().account.findUniqueOrThrow({ where: { id: poor } })).knowledgePausedAt).toBeNull();
    expect(await available(poor)).toBe(5_000_000);
  });
});

describe("the metering function", () => {
  it("prices each metered service from the constants, speech at the configured exchange rate", () => {
    resetMeteringSettings();
    expect(meteringSettings().usdToCny).toBe(Number(process.env.USD_CNY_RATE ?? 7.2));
    expect(priceMetered("ppt", 1)).toBe(500_000);
    expect(priceMetered("ppt", 3)).toBe(1_500_000);
    expect(priceMetered("lip_sync", 5)).toBe(500_000);
    expect(priceMetered("lip_sync", 6)).toBe(1_000_000);
    expect(priceMetered("workshop_run", 2)).toBe(200_000);
    // 0.024 USD per 1000 characters at 7.2: 0.1728 yuan.
    expect(priceMetered("speech", 1000, 7.2)).toBe(172_800);
    expect(priceMetered("speech", 1, 7.2)).toBe(173);
    expect(meteringSettings({ USD_CNY_RATE: "7" }).usdToCny).toBe(7);
    expect(() => meteringSettings({ USD_CNY_RATE: "-1" })).toThrow(/USD_CNY_RATE/);
    expect(() => priceMetered("ppt", 0)).toThrow(/quantity/);
    expect(() => priceMetered("ppt", 1.5)).toThrow(/quantity/);
  });

  it("charges once per service and ref, to the platform; a retry replays; not enough money writes nothing", async () => {
    const u = await makeUser(h.base, { funded: false });
    await fundAccount(u.id, 1_000_000, "spendable");
    const ref = `deck-${u.id}`;
    const first = await chargeMetered({ accountId: u.id, what: "ppt", ref, quantity: 1 });
    expect(first).toMatchObject({ replayed: false, amountMicro: 500_000 });
    const t = (await tx(`meter:ppt:${ref}`))!;
    expect(t).toMatchObject({ kind: "metered_charge", accountId: u.id });
    expect(t.memo).toMatchObject({ what: "ppt", quantity: 1 });
    expect(legsOf(t)).toEqual({ [wallet("spendable", u.id)]: -500_000, platform_revenue: 500_000 });
    expect(await chargeMetered({ accountId: u.id, what: "ppt", ref, quantity: 1 })).toMatchObject({ id: first.id, replayed: true });
    expect(await codeOf(chargeMetered({ accountId: u.id, what: "ppt", ref, quantity: 2 }))).toBe("idempotency_conflict");
    expect(await available(u.id)).toBe(500_000);
    expect(await codeOf(chargeMetered({ accountId: u.id, what: "lip_sync", ref: `v-${u.id}`, quantity: 30 }))).toBe("balance_insufficient");
    expect(await tx(`meter:lip_sync:v-${u.id}`)).toBeNull();
    expect(await available(u.id)).toBe(500_000);
  });
});

describe("China days", () => {
  it("start at midnight UTC+8", () => {
    expect(chinaDayOf(new Date("2026-03-01T15:59:59Z"))).toBe(20260301);
    expect(chinaDayOf(new Date("2026-03-01T16:00:00Z"))).toBe(20260302);
    expect(chinaDayStart(new Date("2026-03-01T17:00:00Z")).toISOString()).toBe("2026-03-01T16:00:00.000Z");
    expect(chinaYesterday(new Date("2026-03-01T16:30:00Z"))).toBe(20260301);
  });
});

describe("after all of the above", () => {
  it("the ledger reconciles: no balance off its entries, no transaction off zero, no wallet below zero", async () => {
    const r = await reconcileLedger();
    expect(r.totalMicro).toBe(0);
    expect(r.mismatches).toEqual([]);
    expect(r.unbalanced).toEqual([]);
    expect(r.negative).toEqual([]);
    // The use prices held in escrow were all settled or returned once their replies ended.
    const held = await getDb().ledgerEntry.aggregate({
      where: { ledgerAccountId: "escrow", transaction: { idempotencyKey: { startsWith: "agent-use" } } },
      _sum: { amountMicro: true },
    });
    expect(held._sum.amountMicro ?? 0n).toBe(0n);
  });
});
