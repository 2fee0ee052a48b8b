// Duplicated money requests under load: every request that moves money (a plan purchase, an
// edition bought from the balance or through a payment order, a top-up paid on the sandbox's
// cashier or reported by the provider's notification, a withdrawal and its review, a refund) is sent
// twice at once, in rounds, while other buyers keep buying the same app's plan through the same
// sharer's link. No answer may be a 5xx; both copies answer the same result; each request is
// applied once; every wallet ends exact to the micro and the ledger reconciles.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { runTransaction, TRANSACTION_ATTEMPTS } from "../../server/db/transaction";
import { forgetKnownWallets, getWallet, platform, post, wallet } from "../../server/money/ledger.service";
import { splitSale } from "../../server/money/money.constants";
import { termFeeMicro } from "../../server/money/editions/edition-pricing";
import { resetPaymentSettings } from "../../server/money/payments/payment-settings";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { computeLabourTaxMicro } from "../../server/money/withdrawals/labour-tax";
import { Browser, startApiServer } from "../helpers/api-client";
import { createTestApp } from "../helpers/apps";
import { makeWechatMerchant, startFakeWechatPay, type TFakeWechatPay } from "../fakes/fake-wechatpay";

const Z = 1_000_000;
const DAY = 86_400_000;
const PRICE = 1_230_000;
const SHARE_PERCENT = 30;
const SHARER_COINS = 2_000 * Z;
const BUYER_COINS = 500 * Z;
const BUYERS = 4;
const ROUNDS = 3;
const VIA_SHARER = splitSale(PRICE, SHARE_PERCENT);
const DIRECT = splitSale(PRICE, null);

const run = crypto.randomBytes(3).toString("hex");
let n = 0;
let api: Awaited<ReturnType<typeof startApiServer>>;
let wechat: TFakeWechatPay;
const savedEnv = { ...process.env };

beforeAll(async () => {
  api = await startApiServer();
  wechat = await startFakeWechatPay(makeWechatMerchant());
  Object.assign(process.env, wechat.env(), { PAYMENT_NOTIFY_BASE: api.base, PAYMENT_SANDBOX: "on" });
  resetPaymentSettings();
});

afterAll(async () => {
  for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
  resetPaymentSettings();
  await Promise.all([api?.close(), wechat?.close()]);
});

type TUser = { id: string; browser: Browser };
type TAnswer = { http: number; body: { status: number; description: string; data: any } };

async function makeUser(opts: { edition?: "basic" | "professional"; roles?: "platform_admin"[]; coins?: number } = {}): Promise<TUser> {
  const row = await getDb().account.create({
    data: {
      account: `md${run}${++n}`,
      nickname: `Money ${n}`,
      edition: opts.edition ?? "basic",
      editionExpiresAt: opts.edition === "professional" ? new Date(Date.now() + 60 * DAY) : null,
      roles: opts.roles ?? [],
      language: "en",
    },
    select: { id: true },
  });
  if (opts.coins) {
    await post({
      key: `test:${run}:coins:${row.id}`,
      kind: "topup",
      accountId: row.id,
      legs: [
        { account: platform("payment_clearing"), amount: -opts.coins },
        { account: wallet("spendable", row.id), amount: opts.coins },
      ],
    });
  }
  const browser = new Browser(api.base, `10.91.${Math.floor(n / 250)}.${n % 250}`);
  browser.cookies.set("zl_session", (await startSession(row.id)).token);
  return { id: row.id, browser };
}

/** An app selling a count plan at PRICE with a 30% share, a sharer with coins, buyers, an administrator. */
async function makeMarket() {
  const { appId, owner } = await createTestApp({
    input: { free_per_day: 0, share_ratio: SHARE_PERCENT, plans: [{ kind: "count", quantity: 10, price_micro: PRICE, daily_limit: 5 }] } as never,
  });
  const plan = await getDb().appPlan.findFirstOrThrow({ where: { appId }, select: { id: true } });
  const sharer = await makeUser({ edition: "professional", coins: SHARER_COINS });
  const buyers = await Promise.all(Array.from({ length: BUYERS }, () => makeUser({ coins: BUYER_COINS })));
  const admin = await makeUser({ roles: ["platform_admin"] });
  return { appId, planId: plan.id, developerId: owner.id, sharer, buyers, admin };
}
type TMarket = Awaited<ReturnType<typeof makeMarket>>;

type TSale = { buyerId: string; purchaseId: string };
type TLoad = { sales: TSale[]; withdrawals: string[]; withdrawnMicro: number };

const withdrawalForm = (amount: string) => ({
  real_name: "张三",
  id_number: "11010519491231002X",
  phone: "13800138000",
  amount,
  request_id: crypto.randomUUID(),
});

/**
 * Runs `work` while every buyer keeps buying the plan through the sharer's link and the sharer
 * keeps withdrawing what it earns, one request after another each, until `work` is done (and at
 * least twice each). Every one of those answers must be a success. The administrator then pays
 * the background withdrawals out, so none is left waiting in the review queue.
 */
async function underSales<T>(m: TMarket, work: () => Promise<T>): Promise<TLoad & { result: T }> {
  let done = false;
  const load: TLoad = { sales: [], withdrawals: [], withdrawnMicro: 0 };
  const answers: TAnswer[] = [];
  const buyLoop = async (buyer: TUser) => {
    for (let i = 0; !done || i < 2; i++) {
      const a = await buyer.browser.call("/api/v2/purchase/app_plan", {
        body: { app_id: m.appId, plan_id: m.planId, request_id: crypto.randomUUID(), touser: m.sharer.id },
      });
      answers.push(a);
      if (a.body?.status === 200) load.sales.push({ buyerId: buyer.id, purchaseId: a.body.data.purchase.id });
    }
  };
  const withdrawLoop = async () => {
    for (let i = 0; !done || i < 2; i++) {
      const a = await m.sharer.browser.call("/api/v1/withdrawal", { body: withdrawalForm(`10.${String(i % 100).padStart(2, "0")}`) });
      answers.push(a);
      if (a.body?.status !== 200) continue;
      load.withdrawals.push(a.body.data.id);
      load.withdrawnMicro += 10 * Z + (i % 100) * 10_000;
    }
  };
  // As in a web worker that has not posted to these wallets yet (they were funded elsewhere).
  forgetKnownWallets();
  const loops = Promise.all([...m.buyers.map(buyLoop), withdrawLoop()]);
  let result: T;
  try {
    result = await work();
  } finally {
    done = true;
    await loops;
  }
  const paid = await Promise.all(load.withdrawals.map((id) => m.admin.browser.call(`/api/v1/admin/withdrawals/${id}/arrive`, { method: "POST" })));
  expect(answers.filter((a) => a.http >= 500).map((a) => a.body)).toEqual([]);
  expect([...answers, ...paid].filter((a) => a.body?.status !== 200).map((a) => a.body)).toEqual([]);
  return { ...load, result };
}

/** The same request sent twice at the same moment: neither copy may be a 5xx, and both must succeed. */
async function twice(send: () => Promise<TAnswer>): Promise<[TAnswer, TAnswer]> {
  const [a, b] = await Promise.all([send(), send()]);
  expect(
    [a.http, b.http].filter((s) => s >= 500),
    JSON.stringify([a.body, b.body]),
  ).toEqual([]);
  expect([a.body.status, b.body.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
  return [a, b];
}

const keyCount = (key: string) => getDb().ledgerTransaction.count({ where: { idempotencyKey: key } });
const sumOf = (list: number[]) => list.reduce((s, x) => s + x, 0);

/**
 * The sharer's wallet after the load: its coins, plus a dividend per sale (less those refunded),
 * less what it withdrew in the background (paid out), plus `coins` moved by the test itself.
 */
async function expectSharerWallet(m: TMarket, load: TLoad, opts: { coins?: number; refunded?: number } = {}) {
  const dividends = (load.sales.length - (opts.refunded ?? 0)) * VIA_SHARER.sharer;
  expect(await getWallet(m.sharer.id)).toMatchObject({ spendable: SHARER_COINS + dividends - load.withdrawnMicro + (opts.coins ?? 0), gift: 0, frozen: 0 });
  expect(await getDb().withdrawal.count({ where: { accountId: m.sharer.id, state: "submitted" } })).toBe(0);
  for (const id of load.withdrawals) expect([await keyCount(`wd:${id}:submit`), await keyCount(`wd:${id}:arrive`)]).toEqual([1, 1]);
}

async function expectDeveloperWallet(m: TMarket, load: TLoad, opts: { coins?: number; refunded?: number } = {}) {
  expect((await getWallet(m.developerId)).spendable).toBe((load.sales.length - (opts.refunded ?? 0)) * VIA_SHARER.developer + (opts.coins ?? 0));
}

async function expectBuyersPaid(m: TMarket, sales: TSale[], refundedIds: Set<string> = new Set()) {
  for (const b of m.buyers) {
    const mine = sales.filter((s) => s.buyerId === b.id);
    const kept = mine.filter((s) => !refundedIds.has(s.purchaseId)).length;
    expect(await getDb().purchase.count({ where: { buyerAccountId: b.id } })).toBe(mine.length);
    expect((await getWallet(b.id)).spendable).toBe(BUYER_COINS - kept * PRICE);
  }
}

async function expectLedgerReconciled() {
  const rec = await reconcileLedger();
  expect({ mismatches: rec.mismatches, negative: rec.negative, unbalanced: rec.unbalanced, totalMicro: rec.totalMicro }).toEqual({
    mismatches: [],
    negative: [],
    unbalanced: [],
    totalMicro: 0,
  });
}

describe("money requests sent twice at once while sales run through the same sharer", () => {
  it(
    "a plan purchase: both copies answer the one purchase, bought once (by a buyer through the sharer's link, and by the sharer)",
    { timeout: 60_000 },
    async () => {
      const m = await makeMarket();
      const buyer = await makeUser({ coins: 100 * Z });
      const buy = (who: TUser, requestId: string, touser?: string) => () =>
        who.browser.call("/api/v2/purchase/app_plan", { body: { app_id: m.appId, plan_id: m.planId, request_id: requestId, ...(touser ? { touser } : {}) } });
      const { result: bought, ...load } = await underSales(m, async () => {
        const ids: { buyer: string; sharer: string; keys: string[] }[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          const [ridBuyer, ridSharer] = [crypto.randomUUID(), crypto.randomUUID()];
          const [[a, b], [c, d]] = await Promise.all([twice(buy(buyer, ridBuyer, m.sharer.id)), twice(buy(m.sharer, ridSharer))]);
          expect(a.body.data.purchase.id).toBe(b.body.data.purchase.id);
          expect(c.body.data.purchase.id).toBe(d.body.data.purchase.id);
          expect([a.body.data.replayed, b.body.data.replayed].sort()).toEqual([false, true]);
          expect([c.body.data.replayed, d.body.data.replayed].sort()).toEqual([false, true]);
          expect(a.body.data.purchase.sharer_account_id).toBe(m.sharer.id);
          ids.push({
            buyer: a.body.data.purchase.id,
            sharer: c.body.data.purchase.id,
            keys: [`purchase:${buyer.id}:${ridBuyer}`, `purchase:${m.sharer.id}:${ridSharer}`],
          });
        }
        return ids;
      });
      for (const key of bought.flatMap((b) => b.keys)) expect(await keyCount(key)).toBe(1);
      expect(await getDb().purchase.count({ where: { buyerAccountId: buyer.id } })).toBe(ROUNDS);
      expect(await getDb().purchase.count({ where: { buyerAccountId: m.sharer.id } })).toBe(ROUNDS);
      expect((await getWallet(buyer.id)).spendable).toBe(100 * Z - ROUNDS * PRICE);
      await expectSharerWallet(m, load, { coins: ROUNDS * VIA_SHARER.sharer - ROUNDS * PRICE });
      await expectDeveloperWallet(m, load, { coins: ROUNDS * VIA_SHARER.developer + ROUNDS * DIRECT.developer });
      await expectBuyersPaid(m, load.sales);
      await expectLedgerReconciled();
    },
  );

  it("a withdrawal and its review: both copies answer the one withdrawal, frozen once, paid out or returned once", { timeout: 60_000 }, async () => {
    const m = await makeMarket();
    const { result: decided, ...load } = await underSales(m, async () => {
      const out: { id: string; amount: number; arrived: boolean }[] = [];
      for (let r = 0; r < ROUNDS * 2; r++) {
        const body = withdrawalForm(`${11 + r}.${String(r * 7).padStart(2, "0")}`);
        const [a, b] = await twice(() => m.sharer.browser.call("/api/v1/withdrawal", { body }));
        expect(a.body.data.id).toBe(b.body.data.id);
        expect(a.body.data).toMatchObject({ state: "submitted" });
        const id = a.body.data.id as string;
        const arrived = r % 2 === 0;
        const review = () =>
          arrived
            ? m.admin.browser.call(`/api/v1/admin/withdrawals/${id}/arrive`, { method: "POST" })
            : m.admin.browser.call(`/api/v1/admin/withdrawals/${id}/abnormal`, { body: { note: "bank refused" } });
        const [c, d] = await twice(review);
        expect([c.body.data.id, d.body.data.id]).toEqual([id, id]);
        expect([c.body.data.state, d.body.data.state]).toEqual(arrived ? ["arrived", "arrived"] : ["abnormal", "abnormal"]);
        out.push({ id, amount: computeLabourTaxMicro(Math.round(Number(body.amount) * 100) * 10_000).amountMicro, arrived });
      }
      return out;
    });
    expect(await getDb().withdrawal.count({ where: { accountId: m.sharer.id } })).toBe(decided.length + load.withdrawals.length);
    for (const w of decided) {
      expect(await keyCount(`wd:${w.id}:submit`)).toBe(1);
      expect(await keyCount(`wd:${w.id}:arrive`)).toBe(w.arrived ? 1 : 0);
      expect(await keyCount(`wd:${w.id}:return`)).toBe(w.arrived ? 0 : 1);
    }
    const paidOut = sumOf(decided.filter((w) => w.arrived).map((w) => w.amount));
    await expectSharerWallet(m, load, { coins: -paidOut });
    await expectDeveloperWallet(m, load);
    await expectBuyersPaid(m, load.sales);
    await expectLedgerReconciled();
  });

  it("an edition bought from the balance: both copies answer the one purchase, charged once", { timeout: 60_000 }, async () => {
    const m = await makeMarket();
    const before = (await getDb().account.findUniqueOrThrow({ where: { id: m.sharer.id }, select: { editionExpiresAt: true } })).editionExpiresAt!;
    const { result: keys, ...load } = await underSales(m, async () => {
      const out: string[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const body = { edition: "professional", days: 30, request_id: crypto.randomUUID() };
        const [a, b] = await twice(() => m.sharer.browser.call("/api/v1/editions/buy", { body }));
        expect(a.body.data.expires_at).toBe(b.body.data.expires_at);
        expect([a.body.data.charged, b.body.data.charged]).toEqual([termFeeMicro("professional", 30), termFeeMicro("professional", 30)]);
        expect([a.body.data.replayed, b.body.data.replayed].sort()).toEqual([false, true]);
        out.push(`edition:${m.sharer.id}:${body.request_id}`);
      }
      return out;
    });
    for (const key of keys) expect(await keyCount(key)).toBe(1);
    const after = (await getDb().account.findUniqueOrThrow({ where: { id: m.sharer.id }, select: { editionExpiresAt: true } })).editionExpiresAt!;
    expect(after.getTime() - before.getTime()).toBe(ROUNDS * 30 * DAY);
    await expectSharerWallet(m, load, { coins: -ROUNDS * termFeeMicro("professional", 30) });
    await expectBuyersPaid(m, load.sales);
    await expectLedgerReconciled();
  });

  it(
    "a payment made twice (the sandbox cashier's Pay on a top-up and an edition, the provider's notification): both copies answer the paid order, credited once",
    { timeout: 60_000 },
    async () => {
      const m = await makeMarket();
      const before = (await getDb().account.findUniqueOrThrow({ where: { id: m.sharer.id }, select: { editionExpiresAt: true } })).editionExpiresAt!;
      const { result: orders, ...load } = await underSales(m, async () => {
        const out: { id: string; micro: number }[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          const topup = await m.sharer.browser.call("/api/v1/pay/topup", { body: { amount: `${20 + r}.5`, provider: "sandbox" } });
          const edition = await m.sharer.browser.call("/api/v1/editions/order", { body: { edition: "professional", days: 30, provider: "sandbox" } });
          const viaWechat = await m.sharer.browser.call("/api/v1/pay/topup", { body: { amount: `${30 + r}.25`, provider: "wechat" } });
          for (const o of [topup, edition, viaWechat]) expect(o.body.status).toBe(200);
          const trade = wechat.trades.get(viaWechat.body.data.id)!;
          trade.trade_state = "SUCCESS";
          trade.transaction_id = `4200${run}${r}`;
          const note = wechat.buildNotification(viaWechat.body.data.id);
          const confirm = (id: string) => () => m.sharer.browser.call(`/api/v1/pay/sandbox/orders/${id}/pay`, { body: {} });
          const [[a, b], [c, d], notified] = await Promise.all([
            twice(confirm(topup.body.data.id)),
            twice(confirm(edition.body.data.id)),
            Promise.all([wechat.deliver(note), wechat.deliver(note)]),
          ]);
          for (const [x, y, id] of [
            [a, b, topup.body.data.id],
            [c, d, edition.body.data.id],
          ] as const) {
            expect([x.body.data.id, y.body.data.id]).toEqual([id, id]);
            expect([x.body.data.state, y.body.data.state]).toEqual(["paid", "paid"]);
          }
          expect(notified.map((x) => x.status)).toEqual([204, 204]);
          out.push(
            { id: topup.body.data.id, micro: (20 + r) * Z + 500_000 },
            { id: viaWechat.body.data.id, micro: (30 + r) * Z + 250_000 },
            { id: edition.body.data.id, micro: 100 * Z },
          );
        }
        return out;
      });
      for (const o of orders) {
        expect(await keyCount(`pay:${o.id}`)).toBe(1);
        expect((await getDb().paymentOrder.findUniqueOrThrow({ where: { id: o.id } })).state).toBe("paid");
      }
      const after = (await getDb().account.findUniqueOrThrow({ where: { id: m.sharer.id }, select: { editionExpiresAt: true } })).editionExpiresAt!;
      expect(after.getTime() - before.getTime()).toBe(ROUNDS * 30 * DAY);
      // A paid edition order's prepaid part lands in the coins; its fee goes to the platform.
      await expectSharerWallet(m, load, { coins: sumOf(orders.map((o) => o.micro)) });
      await expectBuyersPaid(m, load.sales);
      await expectLedgerReconciled();
    },
  );

  it("a refund: both copies answer the one refund, reversed once", { timeout: 60_000 }, async () => {
    const m = await makeMarket();
    const refunded = new Set<string>();
    const load = await underSales(m, async () => {
      for (let r = 0; r < ROUNDS; r++) {
        const first = await m.buyers[r % BUYERS].browser.call("/api/v2/purchase/app_plan", {
          body: { app_id: m.appId, plan_id: m.planId, request_id: crypto.randomUUID(), touser: m.sharer.id },
        });
        const id = first.body.data.purchase.id as string;
        const [a, b] = await twice(() => m.admin.browser.call(`/api/v1/admin/purchases/${id}/refund`, { method: "POST" }));
        expect(a.body.data.ledger_transaction_id).toBe(b.body.data.ledger_transaction_id);
        expect([a.body.data.purchase.id, b.body.data.purchase.id]).toEqual([id, id]);
        expect(a.body.data.purchase.refunded_at).toBe(b.body.data.purchase.refunded_at);
        refunded.add(id);
      }
    });
    for (const id of refunded) expect(await keyCount(`refund:${id}`)).toBe(1);
    const refundedRows = await getDb().purchase.findMany({
      where: { id: { in: [...refunded] } },
      select: { buyerAccountId: true, id: true, refundedAt: true },
    });
    expect(refundedRows.filter((p) => p.refundedAt)).toHaveLength(ROUNDS);
    const every = { ...load, sales: [...load.sales, ...refundedRows.map((p) => ({ buyerId: p.buyerAccountId, purchaseId: p.id }))] };
    await expectSharerWallet(m, every, { refunded: refunded.size });
    await expectDeveloperWallet(m, every, { refunded: refunded.size });
    await expectBuyersPaid(m, every.sales, refunded);
    await expectLedgerReconciled();
  });
});

describe("a transaction PostgreSQL aborts for a deadlock", () => {
  it("runs again from the start, so both sides of the deadlock finish", { timeout: 30_000 }, async () => {
    const [first, second] = [crypto.randomInt(1, 2 ** 40), crypto.randomInt(1, 2 ** 40)];
    let arrived = 0;
    let release: () => void = () => {};
    const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    // Each takes one lock, waits until the other holds its own, then asks for the other's: a real
    // deadlock, which PostgreSQL breaks by aborting one of them. The embedded database's one session
    // runs transactions one at a time: there the two cannot deadlock, and each runs once.
    const embedded = process.env.ZELIN_EMBEDDED_DB === "1";
    const lockInOrder = (a: number, b: number) =>
      runTransaction(async (tx) => {
        attempts++;
        await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock($1::bigint)", a);
        if (++arrived === 2) release();
        if (!embedded) await bothHoldOne;
        await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock($1::bigint)", b);
        return a;
      });
    expect(await Promise.all([lockInOrder(first, second), lockInOrder(second, first)])).toEqual([first, second]);
    expect(attempts).toBe(embedded ? 2 : 3);
    expect(TRANSACTION_ATTEMPTS).toBeGreaterThan(1);
  });
});
