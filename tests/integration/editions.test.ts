// Editions and membership, the experience bonus, paid registration and referral, on the
// real database: every amount checked to the micro-Z, every refusal checked to write nothing.
import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { AppError } from "../../server/errors/app-error";
import { getWallet, platform, post, wallet } from "../../server/money/ledger.service";
import { buyEditionFromWallet, createEditionOrder, getMembership } from "../../server/money/editions/editions.service";
import { ZBuyEditionInput } from "../../server/money/editions/editions.schema";
import { grantExperienceBonus } from "../../server/money/editions/experience-bonus";
import { DAY_MS, termFeeMicro } from "../../server/money/editions/edition-pricing";
import { applyPaidOrder } from "../../server/money/payments/payment-apply.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { Browser, startApiServer } from "../helpers/api-client";
import { paySandbox } from "../helpers/sandbox-pay";

const M = 1_000_000;
let api: Awaited<ReturnType<typeof startApiServer>>;
const run = crypto.randomBytes(3).toString("hex");
let n = 0;
const name = (p = "ed") => `${p}${run}${++n}`.slice(0, 18);
const ip = () => `10.${crypto.randomInt(0, 255)}.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}`;
const uuid = () => crypto.randomUUID();
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => (e instanceof AppError ? e.code : e instanceof Error ? e.name : String(e)),
  );

function setEnv(env: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}

/** A registered account (through the API, so with its experience bonus) and its browser. */
async function registered(query = "") {
  const b = new Browser(api.base, ip());
  const account = name();
  const res = await b.call(`/api/v1/auth/register${query}`, { body: { account, password: "secret123", confirm: "secret123", agreed: true } });
  expect(res.body.status).toBe(200);
  return { b, id: res.body.data.account.id as string, account };
}

async function fundCoins(accountId: string, micro: number) {
  await post({
    key: `test-fund:${accountId}:${++n}:${run}`,
    kind: "topup",
    accountId,
    legs: [
      { account: platform("payment_clearing"), amount: -micro },
      { account: wallet("spendable", accountId), amount: micro },
    ],
  });
}

const membershipOf = (id: string) =>
  getDb().account.findUniqueOrThrow({ where: { id }, select: { edition: true, editionExpiresAt: true, referredById: true } });
const setMembership = (id: string, edition: "basic" | "professional" | "flagship" | "enterprise", expiresAt: Date | null) =>
  getDb().account.update({ where: { id }, data: { edition, editionExpiresAt: expiresAt } });
const revenueOf = async (txId: string) =>
  Number(
    (await getDb().ledgerEntry.aggregate({ where: { transactionId: txId, ledgerAccountId: "platform_revenue" }, _sum: { amountMicro: true } }))._sum
      .amountMicro ?? 0n,
  );
const txByKey = (key: string) => getDb().ledgerTransaction.findUnique({ where: { idempotencyKey: key }, select: { id: true, memo: true } });
const txCount = () => getDb().ledgerTransaction.count();

beforeAll(async () => {
  api = await startApiServer();
});
afterAll(() => api.close());
afterEach(() => setEnv({ REGISTRATION_MODE: undefined, REGISTRATION_FEE_YUAN: undefined }));

describe("experience bonus", () => {
  it("gives every registered account 100 Z of gift credit, exactly once", async () => {
    const { id } = await registered();
    expect(await getWallet(id)).toEqual({ spendable: 0, gift: 100 * M, frozen: 0, available: 100 * M });
    const again = await grantExperienceBonus(id);
    expect(again.replayed).toBe(true);
    expect(await getWallet(id)).toMatchObject({ gift: 100 * M });
    expect(await getDb().ledgerTransaction.count({ where: { idempotencyKey: `bonus:${id}` } })).toBe(1);
  });
});

describe("buying an edition from the balance", () => {
  it("buys professional for a year: gift credit first, the fee to platform revenue, the prepaid kept in coins", async () => {
    const { b, id } = await registered();
    await fundCoins(id, 200 * M);
    const requestId = uuid();
    const before = Date.now();
    const res = await b.call("/api/v1/editions/buy", { body: { edition: "professional", days: 365, request_id: requestId } });
    expect(res.body).toMatchObject({ status: 200, data: { edition: "professional", days: 365, change: "new", charged: 199 * M, replayed: false } });
    // 199 paid: 100 gift, 99 coins; 101 coins left, at least the 100 prepaid.
    expect(await getWallet(id)).toMatchObject({ gift: 0, spendable: 101 * M });
    const m = await membershipOf(id);
    expect(m.edition).toBe("professional");
    expect(m.editionExpiresAt!.getTime()).toBeGreaterThanOrEqual(before + 365 * DAY_MS);
    expect(m.editionExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 365 * DAY_MS);
    const t = (await txByKey(`edition:${id}:${requestId}`))!;
    expect(await revenueOf(t.id)).toBe(199 * M);
    expect(t.memo).toMatchObject({ edition: "professional", days: 365, fee: 199 * M, credit: 0, prepaid: 100 * M });
    const view = (await b.call("/api/v1/editions/membership")).body.data;
    expect(view).toMatchObject({ edition: "professional", lapsed: null, wallet: { spendable: 101 * M, gift: 0 } });
    expect(view.days_left).toBeGreaterThan(364.99);
  });

  it("renews the same edition from the current expiry, a 30-day term at fee * 30 / 365 rounded up to the fen", async () => {
    const { id } = await registered();
    await fundCoins(id, 300 * M);
    const expires = new Date(Date.now() + 40 * DAY_MS);
    await setMembership(id, "professional", expires);
    const r = await buyEditionFromWallet(id, { edition: "professional", days: 30, request_id: uuid() });
    expect(termFeeMicro("professional", 30)).toBe(16_360_000);
    expect(r).toMatchObject({ change: "renew", charged: 16_360_000 });
    expect((await membershipOf(id)).editionExpiresAt!.getTime()).toBe(expires.getTime() + 30 * DAY_MS);
    // 16.36 from the gift credit: coins untouched.
    expect(await getWallet(id)).toMatchObject({ gift: 100 * M - 16_360_000, spendable: 300 * M });
  });

  it("pro-rates an upgrade: the whole unused days of the current edition credited at its yearly fee, rounded down", async () => {
    const { id } = await registered();
    await fundCoins(id, 1000 * M);
    const now = new Date();
    // 100 whole days and 5 hours left: the day under way is not credited.
    await setMembership(id, "professional", new Date(now.getTime() + 100 * DAY_MS + 5 * 3_600_000));
    const credit = Math.floor((199 * M * 100) / 365);
    expect(credit).toBe(54_520_547);
    const requestId = uuid();
    const r = await buyEditionFromWallet(id, { edition: "flagship", days: 365, request_id: requestId }, now);
    expect(r).toMatchObject({ change: "upgrade", charged: 299 * M - credit });
    expect(await membershipOf(id)).toMatchObject({ edition: "flagship", editionExpiresAt: new Date(now.getTime() + 365 * DAY_MS) });
    const t = (await txByKey(`edition:${id}:${requestId}`))!;
    expect(await revenueOf(t.id)).toBe(299 * M - credit);
    expect(t.memo).toMatchObject({ change: "upgrade", fee: 299 * M, credit });
    expect(await getWallet(id)).toMatchObject({ gift: 0, spendable: 1000 * M - (299 * M - credit - 100 * M) });
  });

  it("refuses an upgrade whose credit would reach the new term's fee, and a downgrade while the higher edition is active, writing nothing", async () => {
    const { id } = await registered();
    await fundCoins(id, 1000 * M);
    await setMembership(id, "flagship", new Date(Date.now() + 300 * DAY_MS));
    const before = await txCount();
    const e1 = await buyEditionFromWallet(id, { edition: "enterprise", days: 30, request_id: uuid() }).catch((e) => e);
    expect(e1).toMatchObject({ code: "edition_change_refused", data: { reason: "credit_exceeds_fee" } });
    const e2 = await buyEditionFromWallet(id, { edition: "professional", days: 365, request_id: uuid() }).catch((e) => e);
    expect(e2).toMatchObject({ code: "edition_change_refused", data: { reason: "downgrade_while_active" } });
    expect(await txCount()).toBe(before);
    expect((await membershipOf(id)).edition).toBe("flagship");
    // The page's quotes say the same.
    const view = await getMembership(id);
    expect(view.quotes.find((q) => q.edition === "professional" && q.days === 365)).toMatchObject({ refused: "downgrade_while_active", kind: null });
    expect(view.quotes.find((q) => q.edition === "enterprise" && q.days === 365)).toMatchObject({ kind: "upgrade", refused: null });
  });

  it("refuses an insufficient balance with nothing written: the fee, or the prepaid top-up the coins must still hold", async () => {
    const { b, id } = await registered();
    const before = await txCount();
    // 100 gift only: 199 + 100 is far off.
    const res = await b.call("/api/v1/editions/buy", { body: { edition: "professional", days: 365, request_id: uuid() }, lang: "en" });
    expect(res.body).toMatchObject({ status: 420001, description: "Balance insufficient, please recharge" });
    // 150 coins + 100 gift pay the 199 fee, but only 51 coins would remain for the 100 prepaid.
    await fundCoins(id, 150 * M);
    const mid = await txCount();
    const requestId = uuid();
    expect(await codeOf(buyEditionFromWallet(id, { edition: "professional", days: 365, request_id: requestId }))).toBe("balance_insufficient");
    expect(await txCount()).toBe(mid);
    expect(mid).toBe(before + 1);
    expect(await txByKey(`edition:${id}:${requestId}`)).toBeNull();
    expect(await getWallet(id)).toMatchObject({ gift: 100 * M, spendable: 150 * M });
    expect((await membershipOf(id)).edition).toBe("basic");
  });

  it("refuses basic, a term other than 30 or 365 days, and a missing request id (the route's input schema)", async () => {
    expect(await codeOf(ZBuyEditionInput.parseAsync({ edition: "basic", days: 30, request_id: uuid() }))).toBe("ZodError");
    expect(await codeOf(ZBuyEditionInput.parseAsync({ edition: "professional", days: 31, request_id: uuid() }))).toBe("ZodError");
    expect(await codeOf(ZBuyEditionInput.parseAsync({ edition: "professional", days: 30 }))).toBe("ZodError");
  });

  it("falls back to basic at expiry: the page names the lapsed edition and a new purchase has no credit", async () => {
    const { id } = await registered();
    await fundCoins(id, 500 * M);
    await setMembership(id, "flagship", new Date(Date.now() - 1000));
    const view = await getMembership(id);
    expect(view).toMatchObject({ edition: "basic", lapsed: "flagship", expires_at: null, days_left: 0 });
    expect(view.quotes.find((q) => q.edition === "professional" && q.days === 30)).toMatchObject({
      kind: "new",
      credit: 0,
      charge: 16_360_000,
      total: 116_360_000,
    });
    const r = await buyEditionFromWallet(id, { edition: "professional", days: 30, request_id: uuid() });
    expect(r.change).toBe("new");
  });

  it("buys once for the same request id, even twice at the same moment", async () => {
    const { id } = await registered();
    await fundCoins(id, 1000 * M);
    const requestId = uuid();
    const body = { edition: "flagship", days: 30, request_id: requestId };
    const [a, b] = await Promise.all([buyEditionFromWallet(id, body), buyEditionFromWallet(id, body)]);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    expect(a.expires_at).toBe(b.expires_at);
    const again = await buyEditionFromWallet(id, body);
    expect(again).toMatchObject({ replayed: true, charged: termFeeMicro("flagship", 30) });
    expect(await getWallet(id)).toMatchObject({ gift: 100 * M - termFeeMicro("flagship", 30), spendable: 1000 * M });
    expect((await membershipOf(id)).editionExpiresAt!.toISOString()).toBe(a.expires_at);
    // The same request id for another edition is another request.
    expect(await codeOf(buyEditionFromWallet(id, { ...body, edition: "enterprise" }))).toBe("idempotency_conflict");
  });
});

describe("buying an edition through a payment order", () => {
  it("applies the paid order: fee to revenue, prepaid to the coins, the membership changed", async () => {
    const { b, id } = await registered();
    const res = await b.call("/api/v1/editions/order", { body: { edition: "professional", days: 365, provider: "sandbox" } });
    expect(res.body).toMatchObject({ status: 200, data: { purpose: "edition", amount: 299, state: "pending" } });
    expect((await paySandbox(b, res.body.data.id)).body.data).toMatchObject({ state: "paid" });
    expect((await membershipOf(id)).edition).toBe("professional");
    expect(await getWallet(id)).toMatchObject({ spendable: 100 * M, gift: 100 * M });
    const t = (await txByKey(`pay:${res.body.data.id}`))!;
    expect(await revenueOf(t.id)).toBe(199 * M);
    expect(t.memo).toMatchObject({ edition: "professional", days: 365, orderId: res.body.data.id });
  });

  it("puts the whole amount in the buyer's coins when the membership changed before the money arrived", async () => {
    const { b, id } = await registered();
    await fundCoins(id, 500 * M);
    const order = await createEditionOrder(id, { edition: "flagship", days: 30, provider: "sandbox" });
    await buyEditionFromWallet(id, { edition: "professional", days: 30, request_id: uuid() });
    const expires = (await membershipOf(id)).editionExpiresAt;
    const coins = (await getWallet(id)).spendable;
    expect((await paySandbox(b, order.id)).body.data).toMatchObject({ state: "paid" });
    expect(await membershipOf(id)).toMatchObject({ edition: "professional", editionExpiresAt: expires });
    expect((await getWallet(id)).spendable).toBe(coins + Math.round(order.amount * M));
    expect((await txByKey(`pay:${order.id}`))!.memo).toMatchObject({ notApplied: "membership_changed" });
  });

  it("refuses another account's order and an unknown provider", async () => {
    const { b } = await registered();
    expect((await b.call("/api/v1/editions/order", { body: { edition: "professional", days: 365, provider: "paypal" } })).body.status).not.toBe(200);
    const other = await registered();
    const res = await other.b.call("/api/v1/editions/order", { body: { edition: "professional", days: 30, provider: "sandbox" } });
    expect((await b.call(`/api/v1/pay/orders/${res.body.data.id}`)).body.status).toBe(404001);
    // Nor can they pay it in the sandbox's cashier: not found, and the order stays the other's.
    expect((await paySandbox(b, res.body.data.id)).body.status).toBe(404001);
    expect((await getDb().paymentOrder.findUniqueOrThrow({ where: { id: res.body.data.id } })).state).toBe("pending");
  });
});

describe("paid registration", () => {
  const form = (account: string) => ({ account, password: "secret123", confirm: "secret123", agreed: true, provider: "sandbox" });

  it("orders, reserves the name, creates the account when paid (fee to revenue, bonus as gift, touser as referrer) and signs in with the claim", async () => {
    const sharer = await registered();
    setEnv({ REGISTRATION_MODE: "paid", REGISTRATION_FEE_YUAN: "10" });
    const b = new Browser(api.base, ip());
    const account = name("pr");
    const terms = (await b.call("/api/v1/auth/register/terms")).body.data;
    expect(terms).toMatchObject({ mode: "paid", fee: 10 * M });
    expect(terms.providers).toContain("sandbox");
    const res = await b.call(`/api/v1/auth/register/order?touser=${sharer.id}`, { body: form(account) });
    expect(res.body).toMatchObject({ status: 200, data: { account, order: { purpose: "registration", amount: 10, state: "pending" } } });
    const { order, claim } = res.body.data;
    // The password is never kept, only its hash; no account yet.
    const row = await getDb().paymentOrder.findUniqueOrThrow({ where: { id: order.id } });
    expect(JSON.stringify(row.details)).not.toContain("secret123");
    expect(row).toMatchObject({ accountId: null, sharerAccountId: sharer.id });
    expect(await getDb().account.count({ where: { account } })).toBe(0);
    // The name is held for this order: another order or an invitation registration is refused.
    expect((await new Browser(api.base, ip()).call("/api/v1/auth/register/order", { body: form(account) })).body.status).toBe(420107);
    // Not paid yet: no sign-in.
    expect((await b.call("/api/v1/auth/register/complete", { body: { order_id: order.id, claim } })).body.status).toBe(await statusOf("payment_order_state"));
    // The cashier lets in the page holding the claim, nobody else.
    expect((await paySandbox(new Browser(api.base, ip()), order.id)).body.status).toBe(404001);
    expect((await paySandbox(new Browser(api.base, ip()), order.id, "not-the-claim")).body.status).toBe(404001);
    expect((await paySandbox(b, order.id, claim)).body.data).toMatchObject({ id: order.id, state: "paid" });
    const created = await getDb().account.findUniqueOrThrow({ where: { account }, select: { id: true, referredById: true, passwordHash: true } });
    expect(created.referredById).toBe(sharer.id);
    expect(await getWallet(created.id)).toMatchObject({ gift: 100 * M, spendable: 0 });
    const t = (await txByKey(`pay:${order.id}`))!;
    expect(await revenueOf(t.id)).toBe(10 * M);
    expect((await getDb().paymentOrder.findUniqueOrThrow({ where: { id: order.id } })).accountId).toBe(created.id);
    // A stranger without the claim learns nothing; the page with it signs in.
    expect((await new Browser(api.base, ip()).call("/api/v1/auth/register/complete", { body: { order_id: order.id, claim: "nope" } })).body.status).toBe(
      404001,
    );
    expect((await b.call(`/api/v1/auth/register/order?id=${order.id}&claim=${claim}`)).body.data).toMatchObject({ state: "paid", registered: true });
    const done = await b.call("/api/v1/auth/register/complete", { body: { order_id: order.id, claim } });
    expect(done.body).toMatchObject({ status: 200, data: { account: { id: created.id, account } } });
    expect((await b.call("/api/v1/editions/membership")).body.data).toMatchObject({ edition: "basic", wallet: { gift: 100 * M } });
    // And signs in by password as any account.
    expect((await new Browser(api.base, ip()).call("/api/v1/auth/login", { body: { account, password: "secret123", agreed: true } })).body.status).toBe(200);
  });

  it("refuses a bad form, a taken name and an unknown provider before any order is made", async () => {
    const taken = await registered();
    setEnv({ REGISTRATION_MODE: "paid" });
    const b = new Browser(api.base, ip());
    const orders = await getDb().paymentOrder.count();
    expect((await b.call("/api/v1/auth/register/order", { body: { ...form(name("pr")), confirm: "other123" } })).body.status).toBe(400001);
    expect((await b.call("/api/v1/auth/register/order", { body: form(taken.account) })).body.status).toBe(420107);
    expect((await b.call("/api/v1/auth/register/order", { body: { ...form(name("pr")), provider: "paypal" } })).body.status).toBe(
      await statusOf("payment_provider_unavailable"),
    );
    expect(await getDb().paymentOrder.count()).toBe(orders);
    // Outside paid mode there is nothing to pay for.
    setEnv({ REGISTRATION_MODE: "open" });
    expect((await b.call("/api/v1/auth/register/order", { body: form(name("pr")) })).body.status).toBe(await statusOf("payment_order_state"));
  });

  it("holds the fee for a refund when the name was taken before the money arrived, and makes no account", async () => {
    setEnv({ REGISTRATION_MODE: "paid" });
    const b = new Browser(api.base, ip());
    const account = name("pr");
    const { order, claim } = (await b.call("/api/v1/auth/register/order", { body: form(account) })).body.data;
    // The order was closed (its reservation ended) and someone registered the name meanwhile.
    await getDb().paymentOrder.update({ where: { id: order.id }, data: { state: "cancelled" } });
    setEnv({ REGISTRATION_MODE: "open" });
    const winner = await new Browser(api.base, ip()).call("/api/v1/auth/register", {
      body: { account, password: "other1234", confirm: "other1234", agreed: true },
    });
    expect(winner.body.status).toBe(200);
    // A genuine payment reported late is still money received (payments apply it from cancelled).
    expect(await applyPaidOrder(order.id, { providerTradeNo: "late-1", provider: "sandbox", body: "{}" })).toBe("applied");
    expect(await getDb().account.count({ where: { account } })).toBe(1);
    const t = (await txByKey(`pay:${order.id}`))!;
    expect(t.memo).toMatchObject({ refundOwed: true, reason: "account_taken" });
    const escrow = await getDb().ledgerEntry.findFirstOrThrow({ where: { transactionId: t.id, ledgerAccountId: "escrow" } });
    expect(Number(escrow.amountMicro)).toBe(10 * M);
    expect((await b.call("/api/v1/auth/register/complete", { body: { order_id: order.id, claim } })).body.status).toBe(420107);
  });
});

describe("referral at registration", () => {
  it("sets referredById from touser only when that account exists", async () => {
    const sharer = await registered();
    const a = await registered(`?touser=${sharer.id}`);
    expect((await membershipOf(a.id)).referredById).toBe(sharer.id);
    const c = await registered(`?touser=cnotanaccount0000000000`);
    expect((await membershipOf(c.id)).referredById).toBeNull();
  });
});

describe("the ledger after all of it", () => {
  it("reconciles", async () => {
    const r = await reconcileLedger();
    expect(r).toMatchObject({ mismatches: [], negative: [], unbalanced: [] });
  });
});

async function statusOf(code: string) {
  const { ERROR_CODES } = await import("../../server/errors/codes");
  return ERROR_CODES[code as keyof typeof ERROR_CODES].status;
}
