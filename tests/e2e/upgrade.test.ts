// Buying an edition in a real browser: a person registers on /registered (open mode) and
// gets the 100 Z experience bonus as gift credit; with 300 Z of coins posted through the ledger they
// open /upgrade, see basic and their balance, buy professional for 365 days from the balance (the
// breakdown: fee 199, prepaid 100, total 299), and the page then shows professional with a year left.
// The gift credit paid the fee first (docs/decisions/0006-edition-pricing.md): 100 gift + 99 coins, 201 coins left.
// UPGRADE_SHOTS=<dir> keeps screenshots.
import crypto from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, screenshotsTo } from "../helpers/browser";
import { sql, ledgerBalance } from "../helpers/e2e-db";

type TLedger = typeof import("../../server/money/ledger.service");
let ledger: TLedger;
let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");
const Z = 1_000_000;

const shot = screenshotsTo("UPGRADE_SHOTS");
const balance = ledgerBalance;

beforeAll(async () => {
  ledger = await import("../../server/money/ledger.service");
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("/upgrade", () => {
  it("a new account buys professional from its balance, gift credit first", async () => {
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/registered");
    await page.waitForSelector("html[data-hydrated]");
    const account = `up_${run}`;
    await page.locator("[data-testid=register] [data-testid=account]").fill(account);
    await page.locator("[data-testid=register] [data-testid=password]").fill("secret123");
    await page.locator("[data-testid=register] [data-testid=confirm]").fill("secret123");
    await page.locator("[data-testid=register] [data-testid=agreement]").check();
    await page.locator("[data-testid=register] [data-testid=submit]").click();
    await page.waitForURL(/\/workspace$/);
    const id = (await sql("SELECT id FROM account WHERE account = $1", [account]))[0].id as string;
    expect(await balance(`gift:${id}`)).toBe(100 * Z);
    await ledger.post({
      key: `e2e-fund:${id}`,
      kind: "topup",
      accountId: id,
      legs: [
        { account: "payment_clearing", amount: -300 * Z },
        { account: ledger.wallet("spendable", id), amount: 300 * Z },
      ],
    });

    await page.goto("/upgrade");
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.locator("[data-testid=membership-edition]").getAttribute("data-edition")).toBe("basic");
    expect(await page.locator("[data-testid=wallet-gift]").innerText()).toBe("100.00 Z");
    expect(await page.locator("[data-testid=wallet-coins]").innerText()).toBe("300.00 Z");
    // A 30-day term shows its share of the yearly fee.
    await page.locator("[data-testid=term-30]").click();
    expect(await page.locator("[data-testid=buy-professional]").innerText()).toContain("116.36");
    await page.locator("[data-testid=term-365]").click();
    await shot(page, "upgrade-basic");
    await page.locator("[data-testid=buy-professional]").click();
    const breakdown = page.locator("[data-testid=buy-breakdown]");
    await breakdown.waitFor();
    expect(await breakdown.innerText()).toContain("¥199.00");
    expect(await breakdown.innerText()).toContain("¥100.00");
    expect(await page.locator("[data-testid=buy-total]").innerText()).toBe("¥299.00");
    await shot(page, "upgrade-dialog");
    await page.locator("[data-testid=buy-confirm]").click();
    await page.locator("[data-testid=membership-edition][data-edition=professional]").waitFor();
    expect(await page.locator("[data-testid=membership-left]").innerText()).toMatch(/^1 year left/);
    expect(await page.locator("[data-testid=wallet-gift]").innerText()).toBe("0.00 Z");
    expect(await page.locator("[data-testid=wallet-coins]").innerText()).toBe("201.00 Z");
    // Now the renewal and the upgrade are offered, the upgrade with its credit.
    expect(await page.locator("[data-testid=buy-professional]").getAttribute("data-kind")).toBe("renew");
    expect(await page.locator("[data-testid=buy-flagship]").getAttribute("data-kind")).toBe("upgrade");
    await shot(page, "upgrade-professional");
    expect(await balance(`spendable:${id}`)).toBe(201 * Z);
    const row = (await sql("SELECT edition::text AS e, edition_expires_at AS x FROM account WHERE id = $1", [id]))[0];
    expect(row.e).toBe("professional");
    expect(new Date(row.x).getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("/mobi/upgrade shows the membership on a phone", async () => {
    const context = await newContext(browser, { baseURL, lang: "en", phone: true });
    const page = await context.newPage();
    await page.goto("/mobi/upgrade");
    await page.locator("[data-testid=mobi-upgrade-sign-in]").waitFor();
    await context.close();
  });
});
