// Selling apps and agents: buying an app's days and count plans and an agent's buyout,
// the dividend to a sharer through a touser link (exact split, rounding that still sums to the
// price), no dividend without a valid sharer, the entitlement's transitions from free to trial to
// plan to the refusals, daily limits, the concurrent last use of a count plan, refusals
// that write nothing, idempotent double purchases, and an administrator's exact refund.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { claimUse, describeEntitlement, releaseUse, type TConsumer, type TEntitledApp } from "../../server/apps/app-entitlements.service";
import { findAppForTurn } from "../../server/apps/app-uses.repository";
import { getDb } from "../../server/db/client";
import { AppError } from "../../server/errors/app-error";
import { ERROR_CODES } from "../../server/errors/codes";
import { getWallet, platform, post, wallet } from "../../server/money/ledger.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { AGENT_SHARE_PERCENT, buyAgent, buyAppPlan, hasAgentBuyout } from "../../server/money/purchases/purchases.service";
import { refundPurchase } from "../../server/money/purchases/refunds.service";
import { ZBuyAppPlanInput } from "../../server/money/purchases/purchases.schema";
import { createTestApp, makeAppOwner, makeLiveAgent } from "../helpers/apps";
import { contentOf, dataOf, makeUser, names, sendSse, useChatHarness } from "../helpers/chat-runtime";
import { startSession } from "../../server/auth/session.service";
import { Browser } from "../helpers/api-client";

const h = useChatHarness();
const run = crypto.randomBytes(3).toString("hex");
let n = 0;
const DAY = 86_400_000;
const Z = 1_000_000;

type TEdition = "basic" | "professional" | "flagship" | "enterprise" | "education";
async function makeAccount(edition: TEdition = "flagship", coins = 0, gift = 0) {
  const row = await getDb().account.create({
    data: {
      account: `pu${run}${++n}`,
      nickname: `Buyer ${n}`,
      edition,
      editionExpiresAt: edition === "basic" ? null : new Date(Date.now() + 30 * DAY),
      language: "en",
    },
    select: { id: true, roles: true, enterpriseId: true },
  });
  await fund(row.id, coins, gift);
  return row;
}
async function fund(accountId: string, coins: number, gift = 0) {
  if (coins)
    await post({
      key: `test:${run}:c:${accountId}:${++n}`,
      kind: "topup",
      accountId,
      legs: [
        { account: platform("payment_clearing"), amount: -coins },
        { account: wallet("spendable", accountId), amount: coins },
      ],
    });
  if (gift)
    await post({
      key: `test:${run}:g:${accountId}:${++n}`,
      kind: "bonus",
      accountId,
      legs: [
        { account: platform("platform_promotion"), amount: -gift },
        { account: wallet("gift", accountId), amount: gift },
      ],
    });
}
const rid = () => crypto.randomUUID();
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => (e instanceof AppError ? e.code : String(e)),
  );
const consumer = (a: { id: string; roles: string[]; enterpriseId: string | null }): TConsumer => ({
  account: { id: a.id, roles: a.roles, enterpriseId: a.enterpriseId },
  visitorId: null,
});
const entitled = async (appId: string) => (await findAppForTurn(appId)) as TEntitledApp;
const spendable = async (id: string) => (await getWallet(id)).spendable;
const ledgerCount = () => getDb().ledgerTransaction.count();
const purchaseCount = () => getDb().purchase.count();

/** An app selling `plans` (price in micro-Z), by a new developer. */
async function sellingApp(
  plans: { kind: "days" | "count"; quantity: number; price_micro: number; daily_limit: number | null }[],
  extra: Record<string, unknown> = {},
) {
  const { appId, owner } = await createTestApp({ input: { free_per_day: 0, plans, share_ratio: 30, ...extra } as never });
  const app = await getDb().app.findUniqueOrThrow({ where: { id: appId }, select: { plans: { orderBy: { sortOrder: "asc" }, select: { id: true } } } });
  return { appId, developer: owner, planIds: app.plans.map((p) => p.id) };
}

describe("buying an app's plan", () => {
  it("splits 9.9 Z bought through a share link at 30%: sharer 2.97, platform 0.99, developer 5.94; memo and purchase row", async () => {
    const { appId, developer, planIds } = await sellingApp([{ kind: "days", quantity: 30, price_micro: 9_900_000, daily_limit: null }]);
    const buyer = await makeAccount("basic", 20 * Z);
    const sharer = await makeAccount("professional");
    const revenueBefore = await platformSum("platform_revenue");
    const r = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid(), touser: sharer.id });
    expect(r.replayed).toBe(false);
    expect(await spendable(sharer.id)).toBe(2_970_000);
    expect(await spendable(developer.id)).toBe(5_940_000);
    expect((await platformSum("platform_revenue")) - revenueBefore).toBe(990_000);
    expect(await spendable(buyer.id)).toBe(20 * Z - 9_900_000);
    const p = await getDb().purchase.findUniqueOrThrow({ where: { id: r.purchase.id } });
    expect(p).toMatchObject({
      buyerAccountId: buyer.id,
      targetType: "app_plan",
      appId,
      planId: planIds[0],
      kind: "days",
      priceMicro: 9_900_000n,
      sharerAccountId: sharer.id,
      usesTotal: null,
    });
    expect(p.endsAt!.getTime() - p.startsAt!.getTime()).toBe(30 * DAY);
    const t = await getDb().ledgerTransaction.findUniqueOrThrow({ where: { id: p.ledgerTransactionId } });
    expect(t).toMatchObject({ kind: "purchase", accountId: buyer.id, idempotencyKey: expect.stringMatching(new RegExp(`^purchase:${buyer.id}:`)) });
    expect(t.memo).toMatchObject({
      appId,
      planId: planIds[0],
      days: 30,
      buyerAccountId: buyer.id,
      developerAccountId: developer.id,
      sharerAccountId: sharer.id,
      sharePercent: 30,
    });
  });

  it("rounds odd micro amounts so the parts still sum to the price", async () => {
    const { appId, developer, planIds } = await sellingApp([{ kind: "count", quantity: 10, price_micro: 1_234_567, daily_limit: 5 }], { share_ratio: 33 });
    const buyer = await makeAccount("basic", 5 * Z);
    const sharer = await makeAccount("flagship");
    const r = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid(), touser: sharer.id });
    const txId = (await getDb().purchase.findUniqueOrThrow({ where: { id: r.purchase.id } })).ledgerTransactionId;
    const entries = await getDb().ledgerEntry.findMany({ where: { transactionId: txId } });
    expect(entries.reduce((s, e) => s + e.amountMicro, 0n)).toBe(0n);
    const byAccount = new Map(entries.map((e) => [e.ledgerAccountId, Number(e.amountMicro)]));
    expect(byAccount.get("platform_revenue")).toBe(123_456);
    expect(byAccount.get(wallet("spendable", sharer.id))).toBe(407_407);
    expect(byAccount.get(wallet("spendable", developer.id))).toBe(1_234_567 - 123_456 - 407_407);
    expect(byAccount.get(wallet("spendable", buyer.id))).toBe(-1_234_567);
    expect(r.purchase).toMatchObject({ kind: "count", uses_total: 10, uses_used: 0, daily_limit: 5 });
  });

  it("pays no dividend without touser, when the sharer is the buyer or the developer, a basic-edition account, or no account", async () => {
    const { appId, developer, planIds } = await sellingApp([{ kind: "count", quantity: 5, price_micro: 10 * Z, daily_limit: 5 }]);
    const buyer = await makeAccount("flagship", 100 * Z);
    const basic = await makeAccount("basic");
    const lapsed = await makeAccount("professional");
    await getDb().account.update({ where: { id: lapsed.id }, data: { editionExpiresAt: new Date(Date.now() - DAY) } });
    for (const touser of [undefined, buyer.id, developer.id, basic.id, lapsed.id, "no-such-account"]) {
      const r = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid(), touser });
      expect(r.purchase.sharer_account_id).toBeNull();
    }
    expect(await spendable(developer.id)).toBe(6 * 9 * Z);
    expect(await spendable(basic.id)).toBe(0);
    expect(await spendable(lapsed.id)).toBe(0);
  });

  it("spends gift credit first; a renewed days plan starts when the current one ends", async () => {
    const { appId, planIds } = await sellingApp([{ kind: "days", quantity: 7, price_micro: 3 * Z, daily_limit: null }]);
    const buyer = await makeAccount("basic", 5 * Z, 2 * Z);
    const first = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid() });
    expect(await getWallet(buyer.id)).toMatchObject({ gift: 0, spendable: 4 * Z });
    const second = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid() });
    expect(second.purchase.starts_at).toBe(first.purchase.ends_at);
    expect(new Date(second.purchase.ends_at!).getTime() - new Date(first.purchase.starts_at!).getTime()).toBe(14 * DAY);
    const view = await describeEntitlement(await entitled(appId), consumer(buyer));
    expect(view).toMatchObject({
      basis: "plan",
      refusal: null,
      purchase: { id: first.purchase.id, kind: "days", days_left: 14, ends_at: second.purchase.ends_at },
    });
  });

  it("refuses what is not for sale: another app's plan, an app off the shelf, your own app; nothing written", async () => {
    const a = await sellingApp([{ kind: "days", quantity: 7, price_micro: Z, daily_limit: null }]);
    const b = await sellingApp([{ kind: "days", quantity: 7, price_micro: Z, daily_limit: null }]);
    const off = await createTestApp({ input: { plans: [{ kind: "days", quantity: 7, price_micro: Z, daily_limit: null }] } as never, state: "off_shelf" });
    const offPlan = (await getDb().appPlan.findFirstOrThrow({ where: { appId: off.appId } })).id;
    const buyer = await makeAccount("basic", 10 * Z);
    await fund(a.developer.id, 10 * Z);
    const before = [await ledgerCount(), await purchaseCount()];
    expect(await codeOf(buyAppPlan(buyer, { app_id: a.appId, plan_id: b.planIds[0], request_id: rid() }))).toBe("not_for_sale");
    expect(await codeOf(buyAppPlan(buyer, { app_id: off.appId, plan_id: offPlan, request_id: rid() }))).toBe("not_for_sale");
    expect(await codeOf(buyAppPlan({ id: a.developer.id }, { app_id: a.appId, plan_id: a.planIds[0], request_id: rid() }))).toBe("not_for_sale");
    expect(await codeOf(buyAppPlan(buyer, { app_id: "nope", plan_id: a.planIds[0], request_id: rid() }))).toBe("not_found");
    expect(await codeOf(ZBuyAppPlanInput.parseAsync({ app_id: a.appId, plan_id: a.planIds[0], request_id: "not-a-uuid" }))).not.toBeNull();
    expect([await ledgerCount(), await purchaseCount()]).toEqual(before);
    expect(await spendable(buyer.id)).toBe(10 * Z);
  });

  it("refuses balance_insufficient and writes nothing; gift plus coins together may pay", async () => {
    const { appId, developer, planIds } = await sellingApp([{ kind: "days", quantity: 30, price_micro: 9_900_000, daily_limit: null }]);
    const buyer = await makeAccount("basic", 5 * Z, 4 * Z);
    const before = [await ledgerCount(), await purchaseCount()];
    const err = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid() }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("balance_insufficient");
    expect([await ledgerCount(), await purchaseCount()]).toEqual(before);
    expect(await getWallet(buyer.id)).toMatchObject({ spendable: 5 * Z, gift: 4 * Z });
    expect(await spendable(developer.id)).toBe(0);
    await fund(buyer.id, 900_000);
    await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid() });
    expect(await getWallet(buyer.id)).toMatchObject({ spendable: 0, gift: 0 });
  });

  it("buys once for a double click (same request_id, also concurrently) and refuses the id reused for another plan", async () => {
    const { appId, developer, planIds } = await sellingApp([
      { kind: "count", quantity: 3, price_micro: 2 * Z, daily_limit: 3 },
      { kind: "days", quantity: 7, price_micro: 5 * Z, daily_limit: null },
    ]);
    const buyer = await makeAccount("basic", 50 * Z);
    const id = rid();
    const body = { app_id: appId, plan_id: planIds[0], request_id: id };
    const [a, b] = await Promise.all([buyAppPlan(buyer, body), buyAppPlan(buyer, body)]);
    expect(a.purchase.id).toBe(b.purchase.id);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    const c = await buyAppPlan(buyer, body);
    expect(c).toMatchObject({ replayed: true, purchase: { id: a.purchase.id } });
    expect(await spendable(buyer.id)).toBe(48 * Z);
    expect(await spendable(developer.id)).toBe(1_800_000);
    expect(await codeOf(buyAppPlan(buyer, { ...body, plan_id: planIds[1] }))).toBe("idempotency_conflict");
    expect(await getDb().purchase.count({ where: { buyerAccountId: buyer.id } })).toBe(1);
  });
});

async function platformSum(id: string) {
  const r = await getDb().ledgerEntry.aggregate({ where: { ledgerAccountId: id }, _sum: { amountMicro: true } });
  return Number(r._sum.amountMicro ?? 0n);
}

const claim = (app: TEntitledApp, c: TConsumer, at: Date) => claimUse(app, c, { source: "h5" }, at);
const basisAt = async (app: TEntitledApp, c: TConsumer, at: Date) => (await claim(app, c, at)).basis;

describe("the entitlement with plans", () => {
  it("moves free → trial → trial_count_zero → count plan → used up → days plan → days_exhausted", async () => {
    const { appId, planIds } = await sellingApp(
      [
        { kind: "count", quantity: 2, price_micro: Z, daily_limit: 10 },
        { kind: "days", quantity: 1, price_micro: 2 * Z, daily_limit: null },
      ],
      { free_per_day: 1, trial_days: 1 },
    );
    const app = await entitled(appId);
    const buyer = await makeAccount("basic", 10 * Z);
    const c = consumer(buyer);
    const t0 = new Date();
    expect(await basisAt(app, c, t0)).toBe("free");
    expect(await basisAt(app, c, t0)).toBe("trial");
    const t1 = new Date(t0.getTime() + 1.5 * DAY);
    expect(await basisAt(app, c, t1)).toBe("free");
    expect(await codeOf(claim(app, c, t1))).toBe("trial_count_zero");
    expect(await describeEntitlement(app, c, t1)).toMatchObject({ basis: null, refusal: "trial_count_zero", purchase: null });

    const count = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid() }, t1);
    expect(await describeEntitlement(app, c, t1)).toMatchObject({
      basis: "plan",
      refusal: null,
      purchase: { id: count.purchase.id, kind: "count", uses_left: 2, daily_limit: 10, used_today: 0 },
    });
    const u1 = await claim(app, c, t1);
    expect(u1).toMatchObject({ basis: "plan", purchaseId: count.purchase.id });
    expect(await getDb().appUse.findUniqueOrThrow({ where: { id: u1.id } })).toMatchObject({ basis: "plan", purchaseId: count.purchase.id });
    expect(await basisAt(app, c, t1)).toBe("plan");
    expect((await getDb().purchase.findUniqueOrThrow({ where: { id: count.purchase.id } })).usesUsed).toBe(2);
    expect(await codeOf(claim(app, c, t1))).toBe("trial_count_zero");
    expect(await describeEntitlement(app, c, t1)).toMatchObject({ refusal: "trial_count_zero", purchase: { uses_left: 0 } });

    const days = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[1], request_id: rid() }, t1);
    expect(await claim(app, c, t1)).toMatchObject({ basis: "plan", purchaseId: days.purchase.id });
    expect(await describeEntitlement(app, c, t1)).toMatchObject({ basis: "plan", purchase: { kind: "days", days_left: 1 } });
    const t2 = new Date(t1.getTime() + 2 * DAY);
    expect(await basisAt(app, c, t2)).toBe("free");
    expect(await codeOf(claim(app, c, t2))).toBe("days_exhausted");
    expect(await describeEntitlement(app, c, t2)).toMatchObject({ refusal: "days_exhausted", purchase: { kind: "days", days_left: 0 } });
    // Another account's purchase grants this one nothing.
    const other = await makeAccount("basic");
    expect(await basisAt(app, consumer(other), t2)).toBe("free");
    expect(await basisAt(app, consumer(other), t2)).toBe("trial");
    const t3 = new Date(t2.getTime() + 1.5 * DAY);
    expect(await basisAt(app, consumer(other), t3)).toBe("free");
    expect(await codeOf(claim(app, consumer(other), t3))).toBe("trial_count_zero");
  });

  it("keeps a plan's daily limit per China day: beyond it times_exhausted, the next day again", async () => {
    const { appId, planIds } = await sellingApp([{ kind: "days", quantity: 30, price_micro: Z, daily_limit: 2 }]);
    const app = await entitled(appId);
    const buyer = await makeAccount("basic", 10 * Z);
    const c = consumer(buyer);
    const now = new Date();
    await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid() }, now);
    expect(await basisAt(app, c, now)).toBe("plan");
    expect(await basisAt(app, c, now)).toBe("plan");
    expect(await codeOf(claim(app, c, now))).toBe("times_exhausted");
    expect(await describeEntitlement(app, c, now)).toMatchObject({ refusal: "times_exhausted", purchase: { daily_limit: 2, used_today: 2 } });
    expect(await basisAt(app, c, new Date(now.getTime() + DAY))).toBe("plan");
  });

  it("lets one of two simultaneous requests take a count plan's last use; a released use is given back", async () => {
    const { appId, planIds } = await sellingApp([{ kind: "count", quantity: 1, price_micro: Z, daily_limit: 5 }]);
    const app = await entitled(appId);
    const buyer = await makeAccount("basic", 10 * Z);
    const c = consumer(buyer);
    const bought = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid() });
    const results = await Promise.allSettled([claim(app, c, new Date()), claim(app, c, new Date()), claim(app, c, new Date())]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.flatMap((r) => (r.status === "rejected" ? [(r.reason as AppError).code] : []))).toEqual(["trial_count_zero", "trial_count_zero"]);
    expect((await getDb().purchase.findUniqueOrThrow({ where: { id: bought.purchase.id } })).usesUsed).toBe(1);
    const won = (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<Awaited<ReturnType<typeof claimUse>>>).value;
    await releaseUse(won);
    expect((await getDb().purchase.findUniqueOrThrow({ where: { id: bought.purchase.id } })).usesUsed).toBe(0);
    expect(await basisAt(app, c, new Date())).toBe("plan");
  });

  it("a signed-in buyer chats after buying (the H5 stream), the use naming the purchase; a visitor is refused", async () => {
    const { appId, planIds } = await sellingApp([{ kind: "count", quantity: 3, price_micro: Z, daily_limit: 3 }]);
    const user = await makeUser(h.api.base);
    await fund(user.id, 5 * Z);
    const send = (body: Record<string, unknown>) => sendSse(h.api.base, user, body, { path: "/api/v2/app/send_message/sse" });
    const refused = dataOf(await send({ app_id: appId, content: "hello" }), "error")[0];
    expect(refused).toMatchObject({ status: ERROR_CODES.trial_count_zero.status, description: "Trial count is 0, please purchase" });

    const offer = await user.browser.call(`/api/v2/purchase/offer?app_id=${appId}`);
    expect(offer.body.data).toMatchObject({
      kind: "app",
      signed_in: true,
      own: false,
      balance_micro: (await getWallet(user.id)).available,
      plans: [{ id: planIds[0], kind: "count", quantity: 3, price_micro: Z }],
    });
    const bought = await user.browser.call(`/api/v2/purchase/app_plan`, { body: { app_id: appId, plan_id: planIds[0], request_id: rid() } });
    expect(bought.body.status).toBe(200);
    const r = await send({ app_id: appId, content: "hello again" });
    expect(names(r)).toContain("close");
    expect(contentOf(r).length).toBeGreaterThan(0);
    const use = await getDb().appUse.findFirstOrThrow({ where: { appId, accountId: user.id } });
    expect(use).toMatchObject({ basis: "plan", purchaseId: bought.body.data.purchase.id });
    const ent = await user.browser.call(`/api/v2/app/entitlement?app_id=${appId}`);
    expect(ent.body.data).toMatchObject({ basis: "plan", purchase: { uses_left: 2 } });

    // A visitor cannot buy: sign in first.
    const visitor = new Browser(h.api.base, "10.77.0.1");
    expect((await visitor.call(`/api/v2/purchase/offer?app_id=${appId}`)).body.data).toMatchObject({ signed_in: false, balance_micro: null });
    expect((await visitor.call(`/api/v2/purchase/app_plan`, { body: { app_id: appId, plan_id: planIds[0], request_id: rid() } })).body.status).toBe(
      ERROR_CODES.not_logged_in.status,
    );
    // touser rides in the query as the page's api-client appends it.
    const sharer = await makeAccount("professional");
    const viaQuery = await user.browser.call(`/api/v2/purchase/app_plan?touser=${sharer.id}`, {
      body: { app_id: appId, plan_id: planIds[0], request_id: rid() },
    });
    expect(viaQuery.body.data.purchase.sharer_account_id).toBe(sharer.id);
    expect(await spendable(sharer.id)).toBe(300_000);
  });
});

async function sellingAgent(priceMicro: number | null) {
  const owner = await makeAppOwner();
  const agentId = await makeLiveAgent(owner);
  await getDb().agentVersion.create({
    data: {
      agentId,
      version: "9.0.0",
      state: "on_shelf",
      config: { name: "Seller", model_key: "offline", ...(priceMicro ? { purchase_price_micro: priceMicro, use_price_micro: 100_000 } : {}) },
      publishedAt: new Date(),
    },
  });
  return { agentId, developer: owner };
}

describe("buying an agent out", () => {
  it("charges the buyout price with the agent share to a sharer, once; refuses own, unpriced and repeat buyouts", async () => {
    const { agentId, developer } = await sellingAgent(5 * Z);
    const buyer = await makeAccount("basic", 20 * Z);
    const sharer = await makeAccount("enterprise");
    expect(await hasAgentBuyout(buyer.id, agentId)).toBe(false);
    const r = await buyAgent(buyer, { agent_id: agentId, request_id: rid(), touser: sharer.id });
    expect(r.purchase).toMatchObject({ target_type: "agent_buyout", kind: "buyout", agent_id: agentId, price_micro: 5 * Z, sharer_account_id: sharer.id });
    expect(await spendable(sharer.id)).toBe((5 * Z * AGENT_SHARE_PERCENT) / 100);
    expect(await spendable(developer.id)).toBe(5 * Z - 500_000 - (5 * Z * AGENT_SHARE_PERCENT) / 100);
    expect(await hasAgentBuyout(buyer.id, agentId)).toBe(true);
    const t = await getDb().ledgerTransaction.findUniqueOrThrow({
      where: { id: (await getDb().purchase.findUniqueOrThrow({ where: { id: r.purchase.id } })).ledgerTransactionId },
    });
    expect(t.memo).toMatchObject({
      agentId,
      buyerAccountId: buyer.id,
      developerAccountId: developer.id,
      sharerAccountId: sharer.id,
      sharePercent: AGENT_SHARE_PERCENT,
    });

    const free = await sellingAgent(null);
    const before = [await ledgerCount(), await purchaseCount()];
    expect(await codeOf(buyAgent(buyer, { agent_id: agentId, request_id: rid() }))).toBe("not_for_sale");
    expect(await codeOf(buyAgent({ id: developer.id }, { agent_id: agentId, request_id: rid() }))).toBe("not_for_sale");
    expect(await codeOf(buyAgent(buyer, { agent_id: free.agentId, request_id: rid() }))).toBe("not_for_sale");
    expect(await codeOf(buyAgent(buyer, { agent_id: "missing", request_id: rid() }))).toBe("not_found");
    expect([await ledgerCount(), await purchaseCount()]).toEqual(before);
  });
});

describe("refunds", () => {
  it("reverses every leg exactly (gift back to gift), stops the plan's use, and refuses a second refund", async () => {
    const { appId, developer, planIds } = await sellingApp([{ kind: "days", quantity: 30, price_micro: 9_900_000, daily_limit: null }]);
    const buyer = await makeAccount("basic", 8 * Z, 3 * Z);
    const sharer = await makeAccount("professional");
    const revenueBefore = await platformSum("platform_revenue");
    const r = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid(), touser: sharer.id });
    const app = await entitled(appId);
    expect(await basisAt(app, consumer(buyer), new Date())).toBe("plan");

    const refunded = await refundPurchase(null, r.purchase.id);
    expect(refunded.purchase.refunded_at).not.toBeNull();
    expect(await getWallet(buyer.id)).toMatchObject({ spendable: 8 * Z, gift: 3 * Z });
    expect(await spendable(sharer.id)).toBe(0);
    expect(await spendable(developer.id)).toBe(0);
    expect(await platformSum("platform_revenue")).toBe(revenueBefore);
    const t = await getDb().ledgerTransaction.findUniqueOrThrow({ where: { idempotencyKey: `refund:${r.purchase.id}` } });
    expect(t).toMatchObject({ kind: "refund", accountId: buyer.id });
    expect(t.memo).toMatchObject({ purchaseId: r.purchase.id, appId, sharerAccountId: sharer.id });
    expect(await codeOf(claim(app, consumer(buyer), new Date()))).toBe("trial_count_zero");
    expect((await describeEntitlement(app, consumer(buyer))).purchase).toBeNull();

    const count = await ledgerCount();
    // Refunding again answers the first refund and moves nothing.
    expect(await refundPurchase(null, r.purchase.id)).toEqual(refunded);
    expect(await codeOf(refundPurchase(null, "missing"))).toBe("not_found");
    expect(await ledgerCount()).toBe(count);
    const rec = await reconcileLedger();
    expect(rec).toMatchObject({ mismatches: [], negative: [], unbalanced: [] });
  });

  it("refuses balance_insufficient when the developer has spent the coins, writing nothing", async () => {
    const { appId, developer, planIds } = await sellingApp([{ kind: "count", quantity: 5, price_micro: 10 * Z, daily_limit: 5 }]);
    const buyer = await makeAccount("basic", 10 * Z);
    const r = await buyAppPlan(buyer, { app_id: appId, plan_id: planIds[0], request_id: rid() });
    await post({
      key: `test:${run}:drain:${developer.id}`,
      kind: "adjustment",
      accountId: developer.id,
      legs: [
        { account: wallet("spendable", developer.id), amount: -8 * Z },
        { account: "payout", amount: 8 * Z },
      ],
    });
    const count = await ledgerCount();
    expect(await codeOf(refundPurchase(null, r.purchase.id))).toBe("balance_insufficient");
    expect(await ledgerCount()).toBe(count);
    expect((await getDb().purchase.findUniqueOrThrow({ where: { id: r.purchase.id } })).refundedAt).toBeNull();
    expect(await spendable(buyer.id)).toBe(0);
  });

  it("is an administrator's alone over HTTP; concurrent refunds of one purchase refund once", async () => {
    const { appId, planIds } = await sellingApp([{ kind: "count", quantity: 5, price_micro: 2 * Z, daily_limit: 5 }]);
    const buyer = await makeUser(h.api.base);
    await fund(buyer.id, 10 * Z);
    const bought = await buyer.browser.call(`/api/v2/purchase/app_plan`, { body: { app_id: appId, plan_id: planIds[0], request_id: rid() } });
    const id = bought.body.data.purchase.id;
    const refusedBuyer = await buyer.browser.call(`/api/v1/admin/purchases/${id}/refund`, { method: "POST" });
    expect(refusedBuyer.body.status).toBe(ERROR_CODES.no_permission.status);
    expect((await buyer.browser.call(`/api/v1/admin/purchases`)).body.status).toBe(ERROR_CODES.no_permission.status);

    const admin = await getDb().account.create({
      data: { account: `adm${run}${++n}`, nickname: "Admin", roles: ["platform_admin"], language: "en" },
      select: { id: true },
    });
    const adminBrowser = new Browser(h.api.base, "10.78.0.1");
    adminBrowser.cookies.set("zl_session", (await startSession(admin.id)).token);
    const list = await adminBrowser.call(`/api/v1/admin/purchases?buyer=${buyer.id}`);
    expect(list.body.data.items).toEqual([expect.objectContaining({ id, buyer: "Chatter", refunded_at: null, price_micro: 2 * Z })]);
    const [a, b] = await Promise.all([
      adminBrowser.call(`/api/v1/admin/purchases/${id}/refund`, { method: "POST" }),
      adminBrowser.call(`/api/v1/admin/purchases/${id}/refund`, { method: "POST" }),
    ]);
    expect([a.body.status, b.body.status]).toEqual([200, 200]);
    expect(a.body.data.ledger_transaction_id).toBe(b.body.data.ledger_transaction_id);
    expect(await spendable(buyer.id)).toBe(10 * Z);
    expect(await getDb().ledgerTransaction.count({ where: { idempotencyKey: `refund:${id}` } })).toBe(1);
  });
});
