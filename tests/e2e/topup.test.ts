// Top-up in a real browser (issue 7): from a console page, the header's Recharge button opens the
// recharge dialog; a custom amount over 6000 is refused in the browser; 50 through WeChat Pay shows
// the code_url as a QR code; the loopback WeChat Pay plays the payer (POST /__fake/pay), notifies the
// web instance with a signed, encrypted notification, and the dialog and the header show the new balance.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql } from "../helpers/e2e-db";
import { launchBrowser, newContext } from "../helpers/browser";

let browser: Browser;
const baseURL = inject("webUrl");
const wechatPayUrl = inject("wechatPayUrl");

async function makeSignedIn(lang = "en"): Promise<{ id: string; context: BrowserContext }> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, updated_at) VALUES ($1, $2, $2, now())`, [id, `pay_${crypto.randomBytes(4).toString("hex")}`]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [crypto.createHash("sha256").update(token).digest("hex"), id]);
  const context = await newContext(browser, { baseURL, lang });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return { id, context };
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
    const [order] = (await sql("SELECT id, state, amount_micro FROM payment_order WHERE account_id = $1", [id])) as Array<{ id: string; state: string; amount_micro: string }>;
    expect(order).toMatchObject({ state: "pending" });
    expect(String(order.amount_micro)).toBe("50000000");

    // The payer scans the code and pays: WeChat Pay notifies the web instance.
    const paid = await fetch(`${wechatPayUrl}/__fake/pay`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code_url: codeUrl }) });
    expect(((await paid.json()) as { status: number }).status).toBe(204);

    await dialog.getByTestId("recharge-paid").waitFor();
    await expect.poll(() => dialog.getByTestId("recharge-new-balance").textContent()).toContain("50.00");
    await dialog.getByTestId("recharge-close").click();
    await expect.poll(() => balance.getAttribute("data-available")).toBe("50");
    expect(await sql("SELECT state FROM payment_order WHERE id = $1", [order.id])).toEqual([{ state: "paid" }]);
    await context.close();
  });
});
