// Top-up in a real browser: from a console page, the header's Recharge button opens the
// recharge dialog; a custom amount over 6000 is refused in the browser; 50 through WeChat Pay shows
// the code_url as a QR code; the loopback WeChat Pay plays the payer (POST /__fake/pay), notifies the
// web instance with a signed, encrypted notification, and the dialog and the header show the new balance.
// Through the sandbox: the dialog sends the payer to the sandbox's cashier page ("no real money"),
// Pay there notifies the web instance on the providers' notify route, and the payer lands back on
// the page they left with the dialog showing the new balance; Cancel there leaves it unchanged; the
// cashier is the payer's only, and fits a 375 px phone. TOPUP_SHOTS=<dir> keeps screenshots.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql } from "../helpers/e2e-db";
import { launchBrowser, newContext, screenshotsTo } from "../helpers/browser";

let browser: Browser;
const baseURL = inject("webUrl");
const wechatPayUrl = inject("wechatPayUrl");

const shot = screenshotsTo("TOPUP_SHOTS");

async function makeSignedIn(lang = "en", opts: { phone?: boolean } = {}): Promise<{ id: string; token: string; context: BrowserContext }> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, updated_at) VALUES ($1, $2, $2, now())`, [id, `pay_${crypto.randomBytes(4).toString("hex")}`]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  const context = opts.phone
    ? await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL, locale: lang })
    : await newContext(browser, { baseURL, lang });
  await context.addCookies([
    { name: "zl_session", value: token, url: baseURL },
    { name: "lang", value: lang, url: baseURL },
  ]);
  return { id, token, context };
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("recharge through the loopback WeChat Pay", () => {
  it("tops up 50 from the console header and sees the balance go up", async () => {
    const { id, context } = await makeSignedIn();
    const page = await context.newPage();
    await open(page, "/setting");
    const balance = page.getByTestId("wallet-balance");
    await expect.poll(() => balance.getAttribute("data-available")).toBe("0");

    await page.getByTestId("recharge-open").click();
    const dialog = page.getByTestId("recharge-dialog");
    await dialog.getByTestId("recharge-provider-wechat").waitFor();
    // More than 6000 is refused in the browser by the shared schema, and no order is made.
    await dialog.getByTestId("recharge-amount").fill("6000.01");
    await dialog.getByTestId("recharge-submit").click();
    await dialog.locator(".ant-form-item-explain-error", { hasText: "Top-up amount must be above 0 and at most 6000" }).waitFor();
    expect(await sql("SELECT id FROM payment_order WHERE account_id = $1", [id])).toHaveLength(0);

    await dialog.getByTestId("recharge-preset-50").click();
    await dialog.getByTestId("recharge-provider-wechat").click();
    await dialog.getByTestId("recharge-submit").click();
    const qr = dialog.getByTestId("recharge-qr");
    await qr.waitFor();
    const codeUrl = await qr.getAttribute("data-code-url");
    expect(codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    const [order] = (await sql("SELECT id, state, amount_micro FROM payment_order WHERE account_id = $1", [id])) as Array<{
      id: string;
      state: string;
      amount_micro: string;
    }>;
    expect(order).toMatchObject({ state: "pending" });
    expect(String(order.amount_micro)).toBe("50000000");

    // The payer scans the code and pays: WeChat Pay notifies the web instance.
    const paid = await fetch(`${wechatPayUrl}/__fake/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code_url: codeUrl }),
    });
    expect(((await paid.json()) as { status: number }).status).toBe(204);

    await dialog.getByTestId("recharge-paid").waitFor();
    await expect.poll(() => dialog.getByTestId("recharge-new-balance").textContent()).toContain("50.00");
    await dialog.getByTestId("recharge-close").click();
    await expect.poll(() => balance.getAttribute("data-available")).toBe("50");
    expect(await sql("SELECT state FROM payment_order WHERE id = $1", [order.id])).toEqual([{ state: "paid" }]);
    await context.close();
  });
});

describe("recharge through the sandbox's cashier page", () => {
  const ordersOf = async (id: string) =>
    (await sql("SELECT id, state, provider, provider_trade_no FROM payment_order WHERE account_id = $1 ORDER BY created_at", [id])) as Array<{
      id: string;
      state: string;
      provider: string;
      provider_trade_no: string | null;
    }>;

  /** From the console header: the dialog, an amount, the sandbox, and off to its cashier. */
  async function startSandboxTopup(page: Page, amount: string) {
    await page.getByTestId("recharge-open").click();
    const dialog = page.getByTestId("recharge-dialog");
    await dialog.getByTestId("recharge-provider-sandbox").waitFor();
    expect(await dialog.getByTestId("recharge-sandbox-notice").innerText()).toContain("no real money");
    await dialog.getByTestId("recharge-amount").fill(amount);
    await dialog.getByTestId("recharge-provider-sandbox").click();
    await dialog.getByTestId("recharge-submit").click();
    await page.waitForURL(/\/cashier\?order_id=/);
    await page.waitForSelector("html[data-hydrated]");
    return page.getByTestId("cashier");
  }

  it("pays on the cashier, comes back to the page it left and sees the balance rise; cancelling changes nothing", async () => {
    const { id, context } = await makeSignedIn();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await open(page, "/setting");
    await expect.poll(() => page.getByTestId("wallet-balance").getAttribute("data-available")).toBe("0");

    const cashier = await startSandboxTopup(page, "50");
    const [order] = await ordersOf(id);
    expect(order).toMatchObject({ state: "pending", provider: "sandbox" });
    expect(new URL(page.url()).searchParams.get("return")).toBe("/setting");
    expect(await cashier.getAttribute("data-order-id")).toBe(order.id);
    expect(await page.getByTestId("cashier-banner").innerText()).toContain("Sandbox: no real money moves");
    expect(await page.getByTestId("cashier-amount").innerText()).toBe("¥50.00");
    expect(await page.getByTestId("cashier-item").innerText()).toBe("Z coin top-up: 50.00 Z");
    expect(await page.getByTestId("cashier-order-no").innerText()).toBe(order.id);
    await shot(page, "cashier-desktop");

    await page.getByTestId("cashier-pay").click();
    await page.getByTestId("cashier-paid").waitFor();
    await shot(page, "cashier-paid");
    // Back where the payer was, the dialog open on the result, the header's balance risen.
    await page.waitForURL((u) => u.pathname === "/setting");
    const dialog = page.getByTestId("recharge-dialog");
    await dialog.getByTestId("recharge-paid").waitFor();
    await expect.poll(() => dialog.getByTestId("recharge-new-balance").textContent()).toContain("50.00");
    expect(new URL(page.url()).hash).toBe("");
    await shot(page, "cashier-back");
    await dialog.getByTestId("recharge-close").click();
    await expect.poll(() => page.getByTestId("wallet-balance").getAttribute("data-available")).toBe("50");
    // The money came through the notify route, signed by the sandbox.
    expect((await ordersOf(id))[0]).toMatchObject({ state: "paid", provider_trade_no: expect.stringMatching(/^sbx/) });
    expect(await sql("SELECT outcome FROM payment_notification WHERE order_id = $1", [order.id])).toEqual([{ outcome: "applied" }]);

    // Another top-up, cancelled on the cashier: back with the payment failed, the balance as it was.
    await startSandboxTopup(page, "20");
    await page.getByTestId("cashier-cancel").click();
    await page.getByTestId("cashier-closed").waitFor();
    await page.waitForURL((u) => u.pathname === "/setting");
    await dialog.getByTestId("recharge-failed").waitFor();
    await dialog.getByTestId("recharge-close").click();
    await expect.poll(() => page.getByTestId("wallet-balance").getAttribute("data-available")).toBe("50");
    const orders = await ordersOf(id);
    expect(orders.map((o) => o.state)).toEqual(["paid", "failed"]);
    // A cancelled order cannot be paid afterwards, even by opening its cashier again.
    await open(page, `/cashier?order_id=${orders[1].id}`);
    await page.getByTestId("cashier-closed").waitFor();
    expect(await page.getByTestId("cashier-pay").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("buys an edition on /upgrade through the cashier, and comes back to it upgraded", async () => {
    const { id, context } = await makeSignedIn();
    const page = await context.newPage();
    await open(page, "/upgrade");
    expect(await page.locator("[data-testid=membership-edition]").getAttribute("data-edition")).toBe("basic");
    await page.locator("[data-testid=term-30]").click();
    await page.locator("[data-testid=buy-professional]").click();
    await page.locator("[data-testid=pay-sandbox]").click();
    await page.locator("[data-testid=buy-confirm]").click();
    await page.waitForURL(/\/cashier\?order_id=/);
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.getByTestId("cashier-item").innerText()).toContain("30 days");
    const [order] = await ordersOf(id);
    expect(await sql("SELECT purpose FROM payment_order WHERE id = $1", [order.id])).toEqual([{ purpose: "edition" }]);
    await page.getByTestId("cashier-pay").click();
    await page.waitForURL((u) => u.pathname === "/upgrade");
    await page.locator("[data-testid=membership-edition][data-edition=professional]").waitFor();
    await page.locator(".ant-message", { hasText: "Payment received" }).waitFor();
    expect((await sql("SELECT edition::text AS e FROM account WHERE id = $1", [id]))[0].e).toBe("professional");
    await context.close();
  });

  it("tops up on a phone from /mobi/upgrade, whose cashier fits 375 px and is the payer's only, and offers the way back", async () => {
    const payer = await makeSignedIn("zh_hans", { phone: true });
    const page = await payer.context.newPage();
    // Where the H5 chat's plan sheet sends a buyer short of coins, with the way back to the chat.
    await open(page, `/mobi/upgrade?return=${encodeURIComponent("/mobi/setting")}`);
    await page.getByTestId("wallet-topup").click();
    const dialog = page.getByTestId("recharge-dialog");
    await dialog.getByTestId("recharge-amount").fill("88.80");
    await dialog.getByTestId("recharge-provider-sandbox").click();
    await dialog.getByTestId("recharge-submit").click();
    await page.waitForURL(/\/cashier\?order_id=/);
    await page.waitForSelector("html[data-hydrated]");
    const made = (await ordersOf(payer.id))[0];
    expect(await page.getByTestId("cashier-banner").innerText()).toContain("沙箱：不涉及真实资金");
    expect(await page.getByTestId("cashier-amount").innerText()).toBe("¥88.80");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, "cashier-phone");

    // Another account, and a visitor, get the not-found page (a visitor is asked to log in); nothing is paid.
    const other = await makeSignedIn();
    expect((await fetch(`${baseURL}/cashier?order_id=${made.id}`, { headers: { cookie: `zl_session=${other.token}` } })).status).toBe(404);
    const visitor = await fetch(`${baseURL}/cashier?order_id=${made.id}`, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login\?redirect=/);
    expect(await sql("SELECT state FROM payment_order WHERE id = $1", [made.id])).toEqual([{ state: "pending" }]);

    await page.getByTestId("cashier-pay").click();
    await page.waitForURL((u) => u.pathname === "/mobi/upgrade");
    await dialog.getByTestId("recharge-paid").waitFor();
    await expect.poll(() => dialog.getByTestId("recharge-new-balance").textContent()).toContain("88.80");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, "mobi-upgrade-back");
    await dialog.getByTestId("recharge-close").click();
    await expect.poll(() => page.getByTestId("wallet-coins").innerText()).toContain("88.80");
    expect(await page.getByTestId("wallet-topup-back").getAttribute("href")).toBe("/mobi/setting");
    await Promise.all([payer.context.close(), other.context.close()]);
  });
});
