// Withdrawal in a real browser: a funded account fills the form on /withdrawal (the
// browser refuses an amount under 10 and a bad ID number first), sees the tax and the received
// amount live and again in the confirm dialog, submits, and finds it in /my_withdrawal; a platform
// administrator marks it arrived on /admin/withdrawals and the withdrawer sees it arrived, with the
// coins gone from the wallet to the payout and the tax withheld. WITHDRAWAL_SHOTS=<dir> keeps screenshots.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clickWhenSettled, launchBrowser, newContext, screenshotsTo } from "../helpers/browser";
import { sql, ledgerBalance } from "../helpers/e2e-db";

type TLedger = typeof import("../../server/money/ledger.service");
let ledger: TLedger;
let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");
const Z = 1_000_000;

async function makeSignedIn(account: string, roles: string[]): Promise<{ id: string; context: BrowserContext }> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, roles, updated_at) VALUES ($1, $2, $2, $3::"Role"[], now())`, [id, account, roles]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  const context = await newContext(browser, { baseURL, lang: "en" });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return { id, context };
}

/** React has taken over the element (a click made before that would be lost). */
async function hydrated(page: Page, selector: string) {
  await page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps")));
  }, selector);
}

const shot = screenshotsTo("WITHDRAWAL_SHOTS");
const balance = ledgerBalance;

beforeAll(async () => {
  ledger = await import("../../server/money/ledger.service");
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("withdrawing", () => {
  it("shows tax and received before confirming, lists the withdrawal, and an administrator marks it arrived", async () => {
    const user = await makeSignedIn(`wd_${run}`, ["individual_developer"]);
    await ledger.post({
      key: `e2e-fund:${user.id}`,
      kind: "topup",
      accountId: user.id,
      legs: [
        { account: "payment_clearing", amount: -6000 * Z },
        { account: ledger.wallet("spendable", user.id), amount: 6000 * Z },
      ],
    });
    const page = await user.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/withdrawal");
    await hydrated(page, "[data-testid=withdrawal-review]");
    await page.getByText("6,000.00").first().waitFor();
    expect(await page.locator("[data-testid=withdrawal-tax-link]").getAttribute("href")).toContain("/mobi/withdrawal_tip");

    // The browser refuses what the server would: a bad ID number, an amount under 10.
    await page.locator("[data-testid=withdrawal-real-name]").fill("Li Lei");
    await page.locator("[data-testid=withdrawal-id-number]").fill("110105194912310021");
    await page.locator("[data-testid=withdrawal-phone]").fill("13800138000");
    await page.locator("input[data-testid=withdrawal-amount], [data-testid=withdrawal-amount] input").fill("9.5");
    await page.locator("[data-testid=withdrawal-review]").click();
    await page.locator(".ant-form-item-explain-error", { hasText: "Withdrawals under 10 yuan are not accepted" }).waitFor();
    await page.locator(".ant-form-item-explain-error", { hasText: "This ID number is not valid" }).waitFor();
    expect(await page.locator(".ant-form-item-explain-error").count()).toBe(2);
    expect(await page.locator("[data-testid=withdrawal-confirm-body]").count()).toBe(0);

    // The tax and the received amount as the amount is typed.
    await page.locator("[data-testid=withdrawal-id-number]").fill("11010519491231002x");
    await page.locator("input[data-testid=withdrawal-amount], [data-testid=withdrawal-amount] input").fill("5000");
    await page.locator("[data-testid=withdrawal-live-tax]").getByText("800.00").waitFor();
    expect(await page.locator("[data-testid=withdrawal-live-received]").textContent()).toBe("4,200.00");
    await shot(page, "withdrawal-form");

    // The confirm dialog says it again, from the server, and when it arrives.
    await page.locator("[data-testid=withdrawal-review]").click();
    const dialog = page.locator("[data-testid=withdrawal-confirm-body]");
    await dialog.waitFor();
    expect(await dialog.locator("[data-testid=withdrawal-confirm-amount]").textContent()).toBe("5,000.00");
    expect(await dialog.locator("[data-testid=withdrawal-confirm-tax]").textContent()).toBe("800.00");
    expect(await dialog.locator("[data-testid=withdrawal-confirm-received]").textContent()).toBe("4,200.00");
    expect(await dialog.locator("[data-testid=withdrawal-confirm-arrival]").textContent()).toContain("Arrives in 7 working days");
    await shot(page, "withdrawal-confirm");
    // Coins are not frozen until it is confirmed.
    expect(await balance(`frozen:${user.id}`)).toBe(0);
    await clickWhenSettled(page, "[data-testid=withdrawal-confirm-ok]");

    await page.waitForURL(/\/my_withdrawal/);
    const item = page.locator("[data-testid=withdrawal-item]");
    await item.first().waitFor();
    expect(await item.count()).toBe(1);
    expect(await item.getAttribute("data-state")).toBe("submitted");
    expect(await item.locator("[data-testid=withdrawal-item-received]").textContent()).toBe("4,200.00");
    expect(await item.locator("[data-testid=withdrawal-item-tax]").textContent()).toBe("800.00");
    expect(await item.getByText("1101**********002X").count()).toBe(1);
    await shot(page, "my-withdrawal-submitted");
    expect(await balance(`spendable:${user.id}`)).toBe(1000 * Z);
    expect(await balance(`frozen:${user.id}`)).toBe(5000 * Z);
    const withdrawalId = await item.getAttribute("data-id");

    // A platform administrator pays it out and marks it arrived.
    const admin = await makeSignedIn(`wdadm_${run}`, ["platform_admin"]);
    const adminPage = await admin.context.newPage();
    await adminPage.goto("/admin/withdrawals");
    const queued = adminPage.locator(`[data-testid=withdrawal-item][data-id="${withdrawalId}"]`);
    await queued.waitFor();
    expect(await queued.getByText("11010519491231002X").count()).toBe(1);
    await hydrated(adminPage, `[data-id="${withdrawalId}"] [data-testid=withdrawal-arrive]`);
    await queued.locator("[data-testid=withdrawal-arrive]").click();
    await clickWhenSettled(adminPage, "[data-testid=withdrawal-arrive-ok]");
    await adminPage.getByText("Marked arrived").waitFor();
    await queued.waitFor({ state: "detached" });
    expect(await balance(`frozen:${user.id}`)).toBe(0);
    const [tx] = await sql("SELECT kind FROM ledger_transaction WHERE idempotency_key = $1", [`wd:${withdrawalId}:arrive`]);
    expect(tx.kind).toBe("withdrawal_arrive");

    await page.reload();
    await page.locator("[data-testid=withdrawal-item][data-state=arrived]").waitFor();
    expect(await page.locator("[data-testid=withdrawal-state]").textContent()).toBe("Arrived");
    await shot(page, "my-withdrawal-arrived");

    // The withdrawal is a line of the consumption statement.
    await page.goto("/consumption");
    const line = page.locator("[data-testid=statement-line][data-type=withdrawal]");
    await line.waitFor();
    expect(await line.locator("[data-testid=statement-amount]").textContent()).toBe("-5,000.00");
    expect(errors).toEqual([]);
    await admin.context.close();
    await user.context.close();
  });
});
