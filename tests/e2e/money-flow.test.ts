// The money flow in one story, in Chromium: a buyer tops up 2000 through the loopback
// WeChat Pay, follows a sharer's link to an H5 app on a phone and buys its 2000 Z plan; the sharer
// sees the 1000 Z dividend (the app shares 50%) on /income, the buyer sees the purchase on
// /consumption, and the sharer withdraws the 1000: 40 tax withheld ((1000 - 800) x 20%), 960
// received, shown before confirming. Afterwards the ledger reconciles.
// MONEY_SHOTS=<dir> keeps screenshots.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clickWhenSettled, launchBrowser, newContext, PHONE, screenshotsTo } from "../helpers/browser";
import { sql, ledgerBalance } from "../helpers/e2e-db";

let browser: Browser;
const baseURL = inject("webUrl");
const wechatPayUrl = inject("wechatPayUrl");
const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const Z = 1_000_000;
const run = crypto.randomBytes(3).toString("hex");

type TApps = typeof import("../helpers/apps");
type TLedger = typeof import("../../server/money/ledger.service");
type TReconcile = typeof import("../../server/money/reconciliation.service");
let apps: TApps;
let ledger: TLedger;
let reconcile: TReconcile;

async function makeAccount(name: string, edition: "basic" | "professional") {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(
    `INSERT INTO account (id, account, nickname, roles, edition, edition_expires_at, language, updated_at) VALUES ($1, $2, $2, '{individual_developer}', $3, now() + interval '30 days', 'en', now())`,
    [id, `${name}${run}`, edition],
  );
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  return { id, token };
}

async function desktop(token: string): Promise<BrowserContext> {
  const context = await newContext(browser, { baseURL, lang: "en" });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return context;
}

async function phone(token: string): Promise<BrowserContext> {
  const context = await browser.newContext({ ...PHONE, userAgent: IPHONE_UA, baseURL });
  await context.addCookies([
    { name: "lang", value: "en", url: baseURL },
    { name: "zl_session", value: token, url: baseURL },
  ]);
  return context;
}

/** React has taken over the element (a click made before that would be lost). */
async function open(page: Page, url: string, selector: string) {
  await page.goto(url);
  await page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps")));
  }, selector);
}

const shot = screenshotsTo("MONEY_SHOTS");
const balance = ledgerBalance;

beforeAll(async () => {
  apps = await import("../helpers/apps");
  ledger = await import("../../server/money/ledger.service");
  reconcile = await import("../../server/money/reconciliation.service");
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("the money flow", () => {
  it("tops up through WeChat Pay, buys a plan through a share link, pays the sharer's dividend, and withdraws it with the tax shown", async () => {
    const { appId, owner } = await apps.createTestApp({
      input: {
        name: `Paid app ${run}`,
        free_per_day: 0,
        share_ratio: 50,
        plans: [{ kind: "days", quantity: 365, price_micro: 2000 * Z, daily_limit: null }],
      } as never,
    });
    // The developer pays each reply's channel fee.
    await ledger.post({
      key: `e2e-fund:${owner.id}`,
      kind: "topup",
      accountId: owner.id,
      legs: [
        { account: "payment_clearing", amount: -Z },
        { account: ledger.wallet("spendable", owner.id), amount: Z },
      ],
    });
    const sharer = await makeAccount("sharer", "professional");
    const buyer = await makeAccount("buyer", "basic");

    // 1. The buyer tops up 2000 through WeChat Pay Native: the QR's code_url is paid at the loopback provider.
    const buyerDesk = await desktop(buyer.token);
    const page = await buyerDesk.newPage();
    await open(page, "/setting", "[data-testid=recharge-open]");
    await page.getByTestId("recharge-open").click();
    const dialog = page.getByTestId("recharge-dialog");
    await dialog.getByTestId("recharge-amount").fill("2000");
    await dialog.getByTestId("recharge-provider-wechat").click();
    await dialog.getByTestId("recharge-submit").click();
    const codeUrl = await dialog.getByTestId("recharge-qr").getAttribute("data-code-url");
    const paid = await fetch(`${wechatPayUrl}/__fake/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code_url: codeUrl }),
    });
    expect(((await paid.json()) as { status: number }).status).toBe(204);
    await dialog.getByTestId("recharge-paid").waitFor();
    await expect.poll(() => dialog.getByTestId("recharge-new-balance").textContent()).toMatch(/2,?000\.00/);
    await shot(page, "1-topup-paid");
    expect(await balance(`spendable:${buyer.id}`)).toBe(2000 * Z);

    // 2. On a phone, through the sharer's link, the buyer buys the plan and chats on it.
    const buyerPhone = await phone(buyer.token);
    const h5 = await buyerPhone.newPage();
    await h5.goto(`/share?app=${appId}&touser=${sharer.id}`);
    await h5.waitForURL(/\/mobi\/dialogue\?/);
    await h5.waitForSelector("html[data-hydrated]");
    await h5.locator("[data-testid=h5-plans-open]").click();
    const sheet = h5.locator("[data-testid=h5-plan-sheet]");
    await expect.poll(() => sheet.locator("[data-testid=h5-plan]").first().textContent()).toMatch(/365 days.*2,?000\.00 Z/);
    await sheet.locator("[data-testid=h5-plan-buy]").click();
    await sheet.locator("[data-testid=h5-plan-pay]").click();
    await expect.poll(() => h5.locator("[data-testid=h5-toast]").textContent()).toMatch(/purchased/i);
    await shot(h5, "2-h5-bought");
    await h5.locator("[data-testid=h5-text]").fill("Hello after buying");
    await h5.locator("[data-testid=h5-send]").click();
    await expect.poll(() => h5.locator("[data-testid=h5-answer]").last().getAttribute("data-status"), { timeout: 30_000 }).toBe("done");
    // Split: platform 10% (200), sharer 50% (1000), developer the rest (800).
    expect(await balance(`spendable:${buyer.id}`)).toBe(0);
    expect(await balance(`spendable:${sharer.id}`)).toBe(1000 * Z);

    // 3. The buyer's consumption lists the purchase.
    await open(page, "/consumption", "[data-testid=statement-export]");
    const purchase = page.locator("[data-testid=statement-line][data-type=purchase]");
    await purchase.first().waitFor();
    expect(await purchase.first().locator("[data-testid=statement-amount]").textContent()).toBe("-2,000.00");
    await shot(page, "3-buyer-consumption");

    // 4. The sharer's income lists the dividend.
    const sharerDesk = await desktop(sharer.token);
    const sp = await sharerDesk.newPage();
    await open(sp, "/income", "[data-testid=statement-export]");
    const dividend = sp.locator("[data-testid=statement-line][data-type=dividend]");
    await dividend.first().waitFor();
    expect(await dividend.first().locator("[data-testid=statement-amount]").textContent()).toMatch(/^\+?1,000\.00$/);
    await shot(sp, "4-sharer-income");

    // 5. The sharer withdraws the dividend: the tax and the received amount before confirming.
    await open(sp, "/withdrawal", "[data-testid=withdrawal-review]");
    await sp.locator("[data-testid=withdrawal-real-name]").fill("Han Meimei");
    await sp.locator("[data-testid=withdrawal-id-number]").fill("11010519491231002X");
    await sp.locator("[data-testid=withdrawal-phone]").fill("13800138000");
    await sp.locator("input[data-testid=withdrawal-amount], [data-testid=withdrawal-amount] input").fill("1000");
    await sp.locator("[data-testid=withdrawal-live-tax]").getByText("40.00").waitFor();
    expect(await sp.locator("[data-testid=withdrawal-live-received]").textContent()).toBe("960.00");
    await sp.locator("[data-testid=withdrawal-review]").click();
    const confirm = sp.locator("[data-testid=withdrawal-confirm-body]");
    await confirm.waitFor();
    expect(await confirm.locator("[data-testid=withdrawal-confirm-tax]").textContent()).toBe("40.00");
    expect(await confirm.locator("[data-testid=withdrawal-confirm-received]").textContent()).toBe("960.00");
    await shot(sp, "5-withdrawal-confirm");
    await clickWhenSettled(sp, "[data-testid=withdrawal-confirm-ok]");
    await sp.waitForURL(/\/my_withdrawal/);
    const item = sp.locator("[data-testid=withdrawal-item]");
    await item.first().waitFor();
    expect(await item.locator("[data-testid=withdrawal-item-received]").textContent()).toBe("960.00");
    expect(await balance(`frozen:${sharer.id}`)).toBe(1000 * Z);
    expect(await balance(`spendable:${sharer.id}`)).toBe(0);

    // Not a fen lost, doubled or made up.
    const r = await reconcile.reconcileLedger();
    expect({ total: r.totalMicro, mismatches: r.mismatches, negative: r.negative, unbalanced: r.unbalanced }).toEqual({
      total: 0,
      mismatches: [],
      negative: [],
      unbalanced: [],
    });
    await Promise.all([buyerDesk.close(), buyerPhone.close(), sharerDesk.close()]);
  });
});
