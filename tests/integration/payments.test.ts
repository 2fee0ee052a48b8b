// Top-up and payments: WeChat Pay v3 Native and Alipay page pay against loopback servers
// speaking their protocols with keys made here, and the sandbox, whose cashier page notifies our
// notify route with a signed body. A payment credits once however often it is reported; forged,
// mis-encrypted, stale or wrong-amount notifications change nothing; failed, cancelled and closed
// payments credit nothing.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { getWallet } from "../../server/money/ledger.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { resetPaymentSettings } from "../../server/money/payments/payment-settings";
import { closeStaleOrders } from "../../server/money/payments/close-stale-orders";
import { buildSandboxNotification } from "../../server/money/payments/providers/sandbox.provider";
import { decideTrade } from "../../server/money/payments/providers/sandbox-trades";
import { payInSandbox } from "../../server/money/payments/sandbox-cashier.service";
import { Browser, startApiServer } from "../helpers/api-client";
import { makeWechatMerchant, startFakeWechatPay, type TFakeWechatPay } from "../fakes/fake-wechatpay";
import { makeAlipayMerchant, startFakeAlipay, type TFakeAlipay } from "../fakes/fake-alipay";
import { cancelSandbox, paySandbox } from "../helpers/sandbox-pay";

const run = crypto.randomBytes(3).toString("hex");
const MICRO = 1_000_000;
let n = 0;
let api: Awaited<ReturnType<typeof startApiServer>>;
let wechat: TFakeWechatPay;
let alipay: TFakeAlipay;
const savedEnv = { ...process.env };

async function makeUser(roles: "platform_admin"[] = []) {
  const row = await getDb().account.create({ data: { account: `pay${run}${++n}`, nickname: "Payer", roles }, select: { id: true } });
  const browser = new Browser(api.base, `10.7.0.${n}`);
  browser.cookies.set("zl_session", (await startSession(row.id)).token);
  return { id: row.id, browser };
}

async function topup(user: { browser: Browser }, amount: unknown, provider: string) {
  return user.browser.call("/api/v1/pay/topup", { body: { amount, provider } });
}

const spendable = async (accountId: string) => (await getWallet(accountId)).spendable;
const order = (id: string) => getDb().paymentOrder.findUniqueOrThrow({ where: { id } });
const notes = (orderId: string) => getDb().paymentNotification.findMany({ where: { orderId }, orderBy: { createdAt: "asc" }, select: { outcome: true } });
const paidTx = (orderId: string) => getDb().ledgerTransaction.findMany({ where: { idempotencyKey: `pay:${orderId}` }, include: { entries: true } });

beforeAll(async () => {
  api = await startApiServer();
  wechat = await startFakeWechatPay(makeWechatMerchant());
  alipay = await startFakeAlipay(makeAlipayMerchant());
  Object.assign(process.env, wechat.env(), alipay.env(), { PAYMENT_NOTIFY_BASE: api.base, PAYMENT_SANDBOX: "on" });
  resetPaymentSettings();
});

afterAll(async () => {
  for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
  resetPaymentSettings();
  await Promise.all([api?.close(), wechat?.close(), alipay?.close()]);
});

describe("top-up through WeChat Pay (API v3, Native)", () => {
  it("offers the configured providers to a signed-in payer only", async () => {
    const u = await makeUser();
    const res = await u.browser.call("/api/v1/pay/options");
    expect(res.body.data).toEqual({ providers: ["wechat", "alipay", "sandbox"], presets: expect.any(Array), max: 6000 });
    const anon = await new Browser(api.base).call("/api/v1/pay/options");
    expect(anon.body.status).toBe(110003);
  });

  it("signs the order request, shows the code_url, and credits once when the payer pays", async () => {
    const u = await makeUser();
    const res = await topup(u, "50", "wechat");
    expect(res.body.status).toBe(200);
    const view = res.body.data;
    expect(view).toMatchObject({ provider: "wechat", amount: 50, state: "pending", failure: null });
    expect(view.pay_url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(wechat.requests.at(-1)).toEqual({ method: "POST", path: "/v3/pay/transactions/native", signed: true });
    expect(wechat.trades.get(view.id)).toMatchObject({ total: 5000, notify_url: `${api.base}/api/v1/pay/wechat/notify` });

    const answer = await wechat.pay(view.id);
    expect(answer.status).toBe(204);
    const polled = await u.browser.call(`/api/v1/pay/orders/${view.id}`);
    expect(polled.body.data).toMatchObject({ state: "paid", pay_url: null });
    expect(await spendable(u.id)).toBe(50 * MICRO);
    expect((await u.browser.call("/api/v1/pay/wallet")).body.data).toMatchObject({ spendable: 50, available: 50 });

    const [tx] = await paidTx(view.id);
    expect(tx.kind).toBe("topup");
    expect(tx.entries.reduce((s, e) => s + e.amountMicro, 0n)).toBe(0n);
    expect(tx.entries.find((e) => e.ledgerAccountId === "payment_clearing")?.amountMicro).toBe(BigInt(-50 * MICRO));
    expect((await order(view.id)).providerTradeNo).toBe(wechat.trades.get(view.id)!.transaction_id);
  });

  it("credits once when the same notification arrives again, or many times at once", async () => {
    const u = await makeUser();
    const { body } = await topup(u, "12.34", "wechat");
    const id = body.data.id;
    wechat.trades.get(id)!.trade_state = "SUCCESS";
    wechat.trades.get(id)!.transaction_id = `4200${run}77`;
    const note = wechat.buildNotification(id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => wechat.deliver(note)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(204));
    expect((await wechat.deliver(note)).status).toBe(204);
    expect(await spendable(u.id)).toBe(12_340_000);
    expect(await paidTx(id)).toHaveLength(1);
    const outcomes = (await notes(id)).map((x) => x.outcome);
    expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(6);
  });

  it("refuses a tampered, mis-encrypted or stale notification and changes nothing", async () => {
    const u = await makeUser();
    const id = (await topup(u, "20", "wechat")).body.data.id;
    wechat.trades.get(id)!.trade_state = "SUCCESS";
    const good = wechat.buildNotification(id);

    const tampered = { ...good, body: good.body.replace('"summary":"支付成功"', '"summary":"paid!!"') };
    expect((await wechat.deliver(tampered)).status).toBe(400);
    const otherSignature = wechat.buildNotification(id, { out_trade_no: id });
    expect((await wechat.deliver({ ...good, headers: { ...good.headers, "Wechatpay-Signature": otherSignature.headers["Wechatpay-Signature"] } })).status).toBe(
      400,
    );
    expect((await wechat.deliver({ ...good, headers: { ...good.headers, "Wechatpay-Serial": "PUB_KEY_ID_SOMEONE_ELSE" } })).status).toBe(400);
    // Signed by the platform but encrypted with another APIv3 key: not readable, not ours.
    expect((await wechat.deliver(wechat.buildNotification(id, {}, { apiV3Key: crypto.randomBytes(16).toString("hex") }))).status).toBe(400);
    // A genuine notification captured and replayed a day later.
    expect((await wechat.deliver(wechat.buildNotification(id, {}, { timestamp: Math.floor(Date.now() / 1000) - 86_400 }))).status).toBe(400);
    // Another merchant's transaction.
    expect((await wechat.deliver(wechat.buildNotification(id, { mchid: "1900000999" }))).status).toBe(400);

    expect((await order(id)).state).toBe("pending");
    expect(await spendable(u.id)).toBe(0);
    expect(await paidTx(id)).toHaveLength(0);
    // The genuine one still goes through afterwards.
    expect((await wechat.deliver(good)).status).toBe(204);
    expect(await spendable(u.id)).toBe(20 * MICRO);
  });

  it("refuses a notification whose amount is not the order's", async () => {
    const u = await makeUser();
    const id = (await topup(u, "100", "wechat")).body.data.id;
    const answer = await wechat.pay(id, { total: 1 });
    expect(answer.status).toBe(400);
    expect((await order(id)).state).toBe("pending");
    expect(await spendable(u.id)).toBe(0);
    expect((await notes(id)).map((x) => x.outcome)).toEqual(["rejected"]);
  });

  it("credits nothing for a closed payment and tells the payer it failed or was cancelled", async () => {
    const u = await makeUser();
    const id = (await topup(u, "30", "wechat")).body.data.id;
    expect((await wechat.pay(id, { trade_state: "CLOSED" })).status).toBe(204);
    const polled = await u.browser.call(`/api/v1/pay/orders/${id}`);
    expect(polled.body.data).toMatchObject({ state: "failed", failure: "payment_failed", pay_url: null });
    expect(await spendable(u.id)).toBe(0);
    expect(await paidTx(id)).toHaveLength(0);
  });
});

describe("top-up through Alipay (page pay)", () => {
  it("signs the cashier URL, and credits once on the RSA2-signed notification", async () => {
    const u = await makeUser();
    const res = await topup(u, "88.88", "alipay");
    expect(res.body.data).toMatchObject({ provider: "alipay", amount: 88.88, state: "pending" });
    const payUrl = new URL(res.body.data.pay_url);
    expect(`${payUrl.origin}${payUrl.pathname}`).toBe(alipay.gateway);
    expect(payUrl.searchParams.get("method")).toBe("alipay.trade.page.pay");

    // The payer's browser opens the cashier: the fake checks our signature.
    const cashier = await fetch(payUrl);
    expect(cashier.status).toBe(200);
    expect(await cashier.text()).toContain("88.88");
    // The same URL with the amount changed is refused by Alipay.
    const forged = new URL(payUrl);
    forged.searchParams.set("biz_content", forged.searchParams.get("biz_content")!.replace("88.88", "0.01"));
    expect((await fetch(forged)).status).toBe(400);

    const id = res.body.data.id;
    expect(await alipay.pay(id)).toEqual({ status: 200, body: "success" });
    expect((await u.browser.call(`/api/v1/pay/orders/${id}`)).body.data.state).toBe("paid");
    expect(await spendable(u.id)).toBe(88_880_000);

    // Alipay notifies again (TRADE_FINISHED later, or a retry): still one credit.
    expect(await alipay.deliver(alipay.buildNotification(id, { trade_status: "TRADE_FINISHED" }))).toEqual({ status: 200, body: "success" });
    expect(await alipay.deliver(alipay.buildNotification(id))).toEqual({ status: 200, body: "success" });
    expect(await spendable(u.id)).toBe(88_880_000);
    expect(await paidTx(id)).toHaveLength(1);
    expect((await notes(id)).map((x) => x.outcome)).toEqual(["applied", "duplicate", "duplicate"]);
  });

  it("refuses a tampered or wrong-amount notification, and credits nothing for TRADE_CLOSED", async () => {
    const u = await makeUser();
    const id = (await topup(u, "10", "alipay")).body.data.id;
    await fetch((await order(id)).payUrl!);
    alipay.trades.get(id)!.trade_status = "TRADE_SUCCESS";
    expect(await alipay.deliver(alipay.buildNotification(id, {}, { tamper: { total_amount: "6000.00" } }))).toEqual({ status: 200, body: "fail" });
    expect(await alipay.deliver(alipay.buildNotification(id, {}, { tamper: { sign_type: "RSA" } }))).toEqual({ status: 200, body: "fail" });
    expect(await alipay.deliver(alipay.buildNotification(id, { app_id: "2021000000009999" }))).toEqual({ status: 200, body: "fail" });
    expect(await alipay.deliver(alipay.buildNotification(id, { total_amount: "1.00" }))).toEqual({ status: 200, body: "fail" });
    expect((await order(id)).state).toBe("pending");
    expect(await spendable(u.id)).toBe(0);

    expect(await alipay.pay(id, { trade_status: "TRADE_CLOSED" })).toEqual({ status: 200, body: "success" });
    expect((await u.browser.call(`/api/v1/pay/orders/${id}`)).body.data).toMatchObject({ state: "failed", failure: "payment_failed" });
    expect(await spendable(u.id)).toBe(0);
  });
});

describe("top-up amounts", () => {
  it("refuses 0, negatives, more than 6000, fractions of a fen and non-numbers, and accepts 0.01 and 6000", async () => {
    const u = await makeUser();
    const before = await getDb().paymentOrder.count({ where: { accountId: u.id } });
    for (const amount of ["0", 0, "-5", "6000.01", 6000.01, "1.001", "abc", "", null, "1e3"]) {
      const res = await topup(u, amount, "sandbox");
      expect(res.body.status, String(amount)).toBe(420802);
    }
    const zh = await u.browser.call("/api/v1/pay/topup", { body: { amount: "0", provider: "sandbox" }, lang: "en" });
    expect(zh.body.description).toBe("Top-up amount must be above 0 and at most 6000");
    expect(await getDb().paymentOrder.count({ where: { accountId: u.id } })).toBe(before);
    expect((await topup(u, "0.01", "sandbox")).body.data).toMatchObject({
      amount: 0.01,
      state: "pending",
      pay_url: expect.stringMatching(/^\/cashier\?order_id=/),
    });
    expect((await topup(u, 6000, "sandbox")).body.data).toMatchObject({ amount: 6000, state: "pending" });
    expect((await topup(u, "10", "paypal")).body.status).toBe(420804);
  });
});

describe("the sandbox (cashier page, signed notification)", () => {
  const notify = (note: { body: string; headers: Record<string, string> }) =>
    fetch(`${api.base}/api/v1/pay/sandbox/notify`, { method: "POST", headers: note.headers, body: note.body }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));
  const result = (status: "SUCCESS" | "CLOSED" = "SUCCESS") => ({ status, trade_no: `sbx${run}${++n}`, decided_at: new Date().toISOString() });

  it("credits once when the payer pays on the cashier, through the notify route, however often they press Pay", async () => {
    const u = await makeUser();
    const view = (await topup(u, "50", "sandbox")).body.data;
    expect(view).toMatchObject({ provider: "sandbox", state: "pending", pay_url: `/cashier?order_id=${view.id}` });
    const answers = await Promise.all(Array.from({ length: 4 }, () => paySandbox(u.browser, view.id)));
    for (const a of answers) expect(a.body.data).toMatchObject({ id: view.id, state: "paid", amount: 50 });
    expect((await paySandbox(u.browser, view.id)).body.data.state).toBe("paid");
    expect(await spendable(u.id)).toBe(50 * MICRO);
    expect(await paidTx(view.id)).toHaveLength(1);
    // The money came by the notify route: one applied notification, the repeats recorded as duplicates.
    const outcomes = (await notes(view.id)).map((x) => x.outcome);
    expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
    expect(outcomes.every((o) => o === "applied" || o === "duplicate")).toBe(true);
    expect((await order(view.id)).providerTradeNo).toMatch(/^sbx/);
    expect((await u.browser.call(`/api/v1/pay/orders/${view.id}`)).body.data).toMatchObject({ state: "paid", pay_url: null });
  });

  it("verifies the signature: a forged, tampered, unsigned or stale notification changes nothing, and a replay credits nothing more", async () => {
    const u = await makeUser();
    const id = (await topup(u, "20", "sandbox")).body.data.id;
    const good = buildSandboxNotification(id, 2000, result());

    const secret = process.env.APP_SECRET;
    process.env.APP_SECRET = "another-install-secret-0123456789abcdefgh";
    const otherKey = buildSandboxNotification(id, 2000, result());
    process.env.APP_SECRET = secret;
    expect(await notify(otherKey)).toEqual({ status: 400, body: "fail" });
    expect(await notify({ ...good, body: good.body.replace('"amount_fen":2000', '"amount_fen":600000') })).toEqual({ status: 400, body: "fail" });
    expect(await notify({ body: good.body, headers: { "content-type": "application/json" } })).toEqual({ status: 400, body: "fail" });
    // A genuine notification captured and replayed a day later.
    expect(await notify(buildSandboxNotification(id, 2000, result(), { timestamp: Math.floor(Date.now() / 1000) - 86_400 }))).toEqual({
      status: 400,
      body: "fail",
    });
    // Signed, but not the order's amount.
    expect(await notify(buildSandboxNotification(id, 1, result()))).toEqual({ status: 400, body: "fail" });
    expect((await order(id)).state).toBe("pending");
    expect(await spendable(u.id)).toBe(0);
    expect(await paidTx(id)).toHaveLength(0);

    expect(await notify(good)).toEqual({ status: 200, body: "success" });
    expect(await notify(good)).toEqual({ status: 200, body: "success" });
    expect(await spendable(u.id)).toBe(20 * MICRO);
    expect(await paidTx(id)).toHaveLength(1);
    expect((await notes(id)).map((x) => x.outcome)).toEqual(["rejected", "applied", "duplicate"]);
  });

  it("cancels: nothing credited, and the cancelled order cannot be paid afterwards", async () => {
    const u = await makeUser();
    const id = (await topup(u, "30", "sandbox")).body.data.id;
    expect((await cancelSandbox(u.browser, id)).body.data).toMatchObject({ id, state: "failed" });
    expect((await cancelSandbox(u.browser, id)).body.data).toMatchObject({ id, state: "failed" });
    expect((await paySandbox(u.browser, id)).body).toMatchObject({ status: 420803 });
    expect((await u.browser.call(`/api/v1/pay/orders/${id}`)).body.data).toMatchObject({ state: "failed", failure: "payment_failed" });
    expect(await spendable(u.id)).toBe(0);
    expect(await paidTx(id)).toHaveLength(0);
    // A paid order cannot be cancelled either.
    const paid = (await topup(u, "3", "sandbox")).body.data.id;
    await paySandbox(u.browser, paid);
    expect((await cancelSandbox(u.browser, paid)).body).toMatchObject({ status: 420803 });
    expect(await spendable(u.id)).toBe(3 * MICRO);
  });

  it("lets only the order's payer pay or cancel: another account and a visitor get not found, and nothing changes", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const id = (await topup(a, "9", "sandbox")).body.data.id;
    const wx = (await topup(a, "9", "wechat")).body.data.id;
    for (const who of [b.browser, new Browser(api.base)]) {
      expect((await paySandbox(who, id)).body.status).toBe(404001);
      expect((await cancelSandbox(who, id)).body.status).toBe(404001);
    }
    // Nor is the cashier a way to settle another provider's order, or an order that does not exist.
    expect((await paySandbox(a.browser, wx)).body.status).toBe(404001);
    expect((await paySandbox(a.browser, "nope")).body.status).toBe(404001);
    expect((await order(id)).state).toBe("pending");
    expect((await order(wx)).state).toBe("pending");
    expect(await spendable(a.id)).toBe(0);
    expect(await spendable(b.id)).toBe(0);
    expect((await paySandbox(a.browser, id)).body.data.state).toBe("paid");
    expect(await spendable(a.id)).toBe(9 * MICRO);
  });

  it("lists every order for a platform administrator, with its state and notifications; nobody else", async () => {
    const u = await makeUser();
    const admin = await makeUser(["platform_admin"]);
    const paid = (await topup(u, "66", "sandbox")).body.data.id;
    const open = (await topup(u, "5", "sandbox")).body.data.id;
    await paySandbox(u.browser, paid);
    expect((await u.browser.call("/api/v1/admin/payments")).body.status).toBe(403001);
    const listed = await admin.browser.call(`/api/v1/admin/payments?provider=sandbox&q=${encodeURIComponent(`pay${run}`)}`);
    const byId = new Map(listed.body.data.items.map((o: { id: string }) => [o.id, o]));
    expect(byId.get(paid)).toMatchObject({
      provider: "sandbox",
      state: "paid",
      account_id: u.id,
      notifications: 1,
      provider_trade_no: expect.stringMatching(/^sbx/),
    });
    expect(byId.get(open)).toMatchObject({ provider: "sandbox", state: "pending", notifications: 0 });
    const pending = await admin.browser.call(`/api/v1/admin/payments?state=pending&provider=sandbox&q=${encodeURIComponent(`pay${run}`)}`);
    expect(pending.body.data.items.every((o: { state: string; provider: string }) => o.state === "pending" && o.provider === "sandbox")).toBe(true);
  });

  it("settles a payment whose notification was lost by asking the sandbox, as polling does", async () => {
    const u = await makeUser();
    const id = (await topup(u, "12.34", "sandbox")).body.data.id;
    const lost = async () => undefined;
    expect(await payInSandbox({ accountId: u.id, claim: null }, id, lost)).toMatchObject({ id, state: "paid" });
    expect(await spendable(u.id)).toBe(12_340_000);
    expect((await notes(id)).map((x) => x.outcome)).toEqual(["applied"]);
  });

  it("is off on a production configuration, and asking for it there (without ALLOW_PAYMENT_SANDBOX=1) stops the web process", async () => {
    const u = await makeUser();
    const id = (await topup(u, "7", "sandbox")).body.data.id;
    const saved = { NODE_ENV: process.env.NODE_ENV, ZELIN_EMBEDDED_DB: process.env.ZELIN_EMBEDDED_DB, PAYMENT_SANDBOX: process.env.PAYMENT_SANDBOX };
    try {
      Object.assign(process.env, { NODE_ENV: "production", ZELIN_EMBEDDED_DB: "" });
      delete process.env.PAYMENT_SANDBOX;
      resetPaymentSettings();
      expect((await u.browser.call("/api/v1/pay/options")).body.data.providers).toEqual(["wechat", "alipay"]);
      expect((await topup(u, "7", "sandbox")).body.status).toBe(420804);
      expect((await paySandbox(u.browser, id)).body.status).toBe(420804);
      expect(await notify(buildSandboxNotification(id, 700, result()))).toEqual({ status: 404, body: "fail" });
      expect(await spendable(u.id)).toBe(0);
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      resetPaymentSettings();
    }
    // Asked for by name there, it stops the web process at start with a sentence.
    const env = {
      ...process.env,
      NODE_ENV: "production" as const,
      ZELIN_EMBEDDED_DB: "",
      PAYMENT_SANDBOX: "on",
      ALLOW_PAYMENT_SANDBOX: "",
      PORT: "0",
      WEB_CONCURRENCY: "1",
    };
    const web = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(web.status).not.toBe(0);
    expect(web.stderr).toContain("PAYMENT_SANDBOX: is on, on a production configuration");
    expect(web.stderr).toContain("or set ALLOW_PAYMENT_SANDBOX=1 to keep the sandbox on purpose");
  });
});

describe("orders belong to their payer", () => {
  it("answers not_found for another account's order and asks a visitor to log in", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const id = (await topup(a, "9", "sandbox")).body.data.id;
    expect((await b.browser.call(`/api/v1/pay/orders/${id}`)).body.status).toBe(404001);
    expect((await b.browser.call("/api/v1/pay/orders/nope")).body.status).toBe(404001);
    expect((await new Browser(api.base).call(`/api/v1/pay/orders/${id}`)).body.status).toBe(110003);
    expect((await new Browser(api.base).call("/api/v1/pay/topup", { body: { amount: "5", provider: "sandbox" } })).body.status).toBe(110003);
    expect((await a.browser.call(`/api/v1/pay/orders/${id}`)).body.data.id).toBe(id);
  });
});

describe("stale orders (money.close-stale-orders)", () => {
  it("credits a paid order whose notification was lost, fails a closed one, and closes the unpaid at the provider", async () => {
    const u = await makeUser();
    const lost = (await topup(u, "15", "wechat")).body.data.id;
    const closed = (await topup(u, "16", "wechat")).body.data.id;
    const unpaid = (await topup(u, "17", "wechat")).body.data.id;
    const unpaidAli = (await topup(u, "18", "alipay")).body.data.id;
    const sandboxOrder = (await topup(u, "19", "sandbox")).body.data.id;
    const sandboxPaid = (await topup(u, "21", "sandbox")).body.data.id;
    // Paid at the sandbox, but its notification never reached us: the job asks, and credits it.
    await decideTrade(sandboxPaid, "SUCCESS");
    Object.assign(wechat.trades.get(lost)!, { trade_state: "SUCCESS", transaction_id: `4200${run}15` });
    wechat.trades.get(closed)!.trade_state = "CLOSED";

    const later = new Date(Date.now() + 2 * 3600_000);
    await closeStaleOrders(later);
    expect((await order(lost)).state).toBe("paid");
    expect((await order(closed)).state).toBe("failed");
    expect((await order(unpaid)).state).toBe("cancelled");
    expect(wechat.trades.get(unpaid)!.trade_state).toBe("CLOSED");
    expect((await order(unpaidAli)).state).toBe("cancelled");
    expect((await order(sandboxOrder)).state).toBe("cancelled");
    expect((await order(sandboxPaid)).state).toBe("paid");
    expect(await spendable(u.id)).toBe(36 * MICRO);
    // Closed at the sandbox too: its cashier can no longer take the money.
    expect((await paySandbox(u.browser, sandboxOrder)).body.status).toBe(420803);
    expect(await spendable(u.id)).toBe(36 * MICRO);
    expect((await u.browser.call(`/api/v1/pay/orders/${unpaid}`)).body.data.failure).toBe("payment_failed");
  });

  it("leaves the ledger balanced", async () => {
    const r = await reconcileLedger();
    expect(r.mismatches).toEqual([]);
    expect(r.negative).toEqual([]);
    expect(r.unbalanced).toEqual([]);
  });
});
