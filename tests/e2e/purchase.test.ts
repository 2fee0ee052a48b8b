// Buying a plan in the H5 chat on a phone: a signed-in consumer opens an app's share link
// with touser, uses the free use of the day, is refused "trial count is 0, purchase", opens the plan
// sheet (plans, price in Z, balance), confirms, buys and chats on; the sharer gets the dividend at
// the app's share and the use counts against the purchase. A buyer whose balance is short sees the
// recharge link instead of paying. On /detail (desktop) an agent is bought out with the Buy button.
// PURCHASE_SHOTS=<dir> keeps screenshots.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clickWhenSettled, launchBrowser, newContext, PHONE, screenshotsTo } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";

let browser: Browser;
const baseURL = inject("webUrl");
const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const cuid = () => `e2e${crypto.randomBytes(10).toString("hex")}`;
const Z = 1_000_000;

type THelpers = typeof import("../helpers/apps");
type TLedger = typeof import("../../server/money/ledger.service");
let apps: THelpers;
let ledger: TLedger;

async function makeAccount(edition: "basic" | "professional", coins: number) {
  const id = cuid();
  await sql(
    `INSERT INTO account (id, account, nickname, roles, edition, edition_expires_at, language, updated_at) VALUES ($1, $2, $2, '{}', $3, now() + interval '30 days', 'en', now())`,
    [id, `pu${id.slice(-10)}`, edition],
  );
  if (coins)
    await ledger.post({
      key: `e2e-fund:${id}`,
      kind: "topup",
      accountId: id,
      legs: [
        { account: "payment_clearing", amount: -coins },
        { account: ledger.wallet("spendable", id), amount: coins },
      ],
    });
  return id;
}

async function signedInPhone(accountId: string): Promise<BrowserContext> {
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    accountId,
  ]);
  const context = await browser.newContext({ ...PHONE, userAgent: IPHONE_UA, baseURL });
  await context.addCookies([
    { name: "lang", value: "en", url: baseURL },
    { name: "zl_session", value: token, url: baseURL },
  ]);
  return context;
}

async function lastAnswerStatus(page: Page) {
  const last = page.locator("[data-testid=h5-answer]").last();
  await expect.poll(async () => last.getAttribute("data-status"), { timeout: 30_000 }).not.toBe("streaming");
  return last.getAttribute("data-status");
}

async function ask(page: Page, text: string) {
  await page.locator("[data-testid=h5-text]").fill(text);
  await page.locator("[data-testid=h5-send]").click();
  return lastAnswerStatus(page);
}

const shot = screenshotsTo("PURCHASE_SHOTS", { fullPage: false });

beforeAll(async () => {
  apps = await import("../helpers/apps");
  ledger = await import("../../server/money/ledger.service");
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("buying a plan in the H5 chat", () => {
  it("follows a share link, runs out of free uses, buys a count plan with the sharer's dividend, and chats on", async () => {
    const { appId, owner } = await apps.createTestApp({
      input: { free_per_day: 1, share_ratio: 30, plans: [{ kind: "count", quantity: 5, price_micro: 2 * Z, daily_limit: 5 }] } as never,
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
    const sharer = await makeAccount("professional", 0);
    const buyer = await makeAccount("basic", 5 * Z);
    const context = await signedInPhone(buyer);
    const page = await context.newPage();

    await page.goto(`/share?app=${appId}&touser=${sharer}`);
    await page.waitForURL(/\/mobi\/dialogue\?/);
    expect(new URL(page.url()).searchParams.get("touser")).toBe(sharer);
    await page.waitForSelector("html[data-hydrated]");
    expect(await ask(page, "First question")).toBe("done");
    await ask(page, "Second question");
    await expect.poll(() => page.locator("[data-testid=h5-refusal]").last().textContent()).toMatch(/trial count is 0, please purchase/i);
    await shot(page, "h5-refused");

    // The plan sheet: the plan, its price in Z, what it gives, the balance.
    await page.locator("[data-testid=h5-purchase]").last().click();
    const sheet = page.locator("[data-testid=h5-plan-sheet]");
    await expect.poll(() => sheet.locator("[data-testid=h5-plan]").first().textContent()).toMatch(/5 uses.*up to 5 a day.*2\.00 Z/);
    await expect.poll(() => sheet.locator("[data-testid=h5-plan-balance]").textContent()).toContain("5.00 Z");
    await shot(page, "h5-plan-sheet");
    await sheet.locator("[data-testid=h5-plan-buy]").click();
    await shot(page, "h5-plan-confirm");
    await sheet.locator("[data-testid=h5-plan-pay]").click();
    await expect.poll(() => page.locator("[data-testid=h5-toast]").textContent()).toMatch(/purchased/i);
    await expect.poll(() => page.locator("[data-testid=h5-plans-open]").textContent()).toMatch(/5 uses left/);

    // The chat goes on, on the plan.
    expect(await ask(page, "Third question, paid")).toBe("done");
    await expect.poll(() => page.locator("[data-testid=h5-plans-open]").textContent()).toMatch(/4 uses left/);
    await shot(page, "h5-after-purchase");
    const [p] = await sql("SELECT id, sharer_account_id, uses_used, price_micro::text AS price FROM purchase WHERE buyer_account_id = $1", [buyer]);
    expect(p).toMatchObject({ sharer_account_id: sharer, uses_used: 1, price: String(2 * Z) });
    const [use] = await sql("SELECT purchase_id FROM app_use WHERE account_id = $1 AND basis = 'plan'", [buyer]);
    expect(use.purchase_id).toBe(p.id);
    const [sharerWallet] = await sql("SELECT balance_micro::text AS b FROM ledger_account WHERE id = $1", [`spendable:${sharer}`]);
    expect(sharerWallet.b).toBe(String(0.3 * 2 * Z));
    await context.close();
  });

  it("shows a buyer whose balance is short the recharge link instead of paying", async () => {
    const { appId } = await apps.createTestApp({
      input: { free_per_day: 0, plans: [{ kind: "days", quantity: 30, price_micro: 9_900_000, daily_limit: null }] } as never,
    });
    const buyer = await makeAccount("basic", 1 * Z);
    const context = await signedInPhone(buyer);
    const page = await context.newPage();
    await page.goto(`/mobi/dialogue?app=${appId}`);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=h5-plans-open]").click();
    const sheet = page.locator("[data-testid=h5-plan-sheet]");
    await expect.poll(() => sheet.locator("[data-testid=h5-plan]").first().textContent()).toMatch(/30 days.*9\.90 Z/);
    await expect.poll(() => sheet.locator("[data-testid=h5-plan-insufficient]").textContent()).toMatch(/balance insufficient/i);
    expect(await sheet.locator("[data-testid=h5-plan-recharge]").getAttribute("href")).toMatch(/^\/mobi\/upgrade/);
    expect(await sheet.locator("[data-testid=h5-plan-buy]").isDisabled()).toBe(true);
    await shot(page, "h5-plan-short");
    expect(await sql("SELECT id FROM purchase WHERE buyer_account_id = $1", [buyer])).toEqual([]);
    await context.close();
  });

  it("buys an agent out on /detail with the Buy button and its confirm dialog", async () => {
    const owner = await apps.makeAppOwner();
    const agentId = await apps.makeLiveAgent(owner);
    await sql(
      `INSERT INTO agent_version (id, agent_id, version, state, config, update_note, published_at, created_at, updated_at) VALUES ($1, $2, '3.0.0', 'on_shelf', $3, 'For sale', now(), now(), now())`,
      [cuid(), agentId, JSON.stringify({ name: "Seller", model_key: "offline", purchase_price_micro: 12_500_000, use_price_micro: 100_000 })],
    );
    const buyer = await makeAccount("basic", 20 * Z);
    const token = crypto.randomBytes(32).toString("base64url");
    await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
      crypto.createHash("sha256").update(token).digest("hex"),
      buyer,
    ]);
    const context = await newContext(browser, { baseURL, lang: "en" });
    await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
    const page = await context.newPage();
    await page.goto(`/detail?id=${agentId}&type=agent`);
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => page.locator("[data-testid=buy-panel]").textContent()).toMatch(/12\.50 Z/);
    await page.locator("[data-testid=buy-agent]").click();
    await expect.poll(() => page.locator("[data-testid=buy-confirm]").textContent()).toMatch(/Pay 12\.50 Z/);
    await shot(page, "detail-buyout-confirm");
    await clickWhenSettled(page, "[data-testid=buy-confirm-ok]");
    await expect.poll(() => page.locator("[data-testid=bought-out]").count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.locator("[data-testid=buy-balance]").textContent()).toContain("7.50 Z");
    await page.locator("[data-testid=buy-recharge]").click();
    await expect.poll(() => page.locator(".ant-modal").count()).toBeGreaterThan(0);
    await shot(page, "detail-recharge");
    const rows = await sql("SELECT kind, price_micro::text AS price FROM purchase WHERE buyer_account_id = $1", [buyer]);
    expect(rows).toEqual([{ kind: "buyout", price: "12500000" }]);
    await context.close();
  });
});
