// The sensitive-word screen and the development SMS outbox in a real browser: a platform
// administrator finds a default word, adds and imports words, switches a default word off and on;
// the outbox is a not-found page for everyone else, and the login page no longer points at it.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clickWhenSettled, launchBrowser, newContext, screenshotsTo, toast } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";
import { makeE2eAccount, signedInContext } from "../helpers/e2e-accounts";

let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");

async function makeSignedIn(account: string, roles: string[]): Promise<BrowserContext> {
  const { token } = await makeE2eAccount({ account, roles });
  return signedInContext(browser, token);
}

/** React has taken over the element (a click made before that would be lost). */
async function hydrated(page: Page, selector: string) {
  await page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps")));
  }, selector);
}

const shot = screenshotsTo("SENSITIVE_WORDS_SHOTS");
const row = (page: Page, word: string) => page.locator(`[data-testid=word-row][data-word="${word}"]`);

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("sensitive words", () => {
  it("a platform administrator finds, adds, imports, switches off and restores words", async () => {
    const context = await makeSignedIn(`words_${run}`, ["platform_admin"]);
    const page = await context.newPage();
    await page.goto("/setting");
    // The menu navigates in the browser: a click before React has taken over the page is lost.
    await page.waitForSelector("html[data-hydrated]");
    await page.locator(".ant-menu-item", { hasText: "Sensitive words" }).first().click();
    await page.waitForURL(/\/admin\/sensitive_words/);
    await hydrated(page, "[data-testid=words-add-submit]");

    // The default list is there on a fresh install, in its categories.
    await page.locator("[data-testid=words-search] input").fill("冰毒");
    await page.locator("[data-testid=words-search] input").press("Enter");
    await row(page, "冰毒").waitFor();
    expect(await row(page, "冰毒").innerText()).toContain("Drugs");

    // Typed words: one new, one already in force under another spelling.
    await page.locator("[data-testid=words-add-input]").fill(`网页词${run}\n冰 毒`);
    await page.locator("[data-testid=words-add-submit]").click();
    await page.locator("[data-testid=words-result]", { hasText: "Added 1, skipped 1" }).waitFor();

    // A .txt file, one word a line.
    await page
      .locator("[data-testid=words-import-input]")
      .setInputFiles({ name: "words.txt", mimeType: "text/plain", buffer: Buffer.from(`# ours\n导入${run}甲\n导入${run}乙\n赌博\n`) });
    await page.locator("[data-testid=words-result]", { hasText: "Added 2, skipped 1" }).waitFor();
    await page.goto(`/admin/sensitive_words?status=custom&q=${run}`);
    await row(page, `导入${run}甲`).waitFor();
    expect(await page.locator("[data-testid=word-row]").count()).toBe(3);
    await shot(page, "admin-sensitive-words");

    // A default word is switched off, found under "switched off", and restored.
    await page.goto("/admin/sensitive_words?q=海洛因");
    await hydrated(page, "[data-testid=word-action]");
    await row(page, "海洛因").locator("[data-testid=word-action]").click();
    await clickWhenSettled(page, "[data-testid=word-action-ok]");
    await toast(page, "Switched off");
    await page.goto("/admin/sensitive_words?status=disabled&q=海洛因");
    await row(page, "海洛因").getByText("Switched off").waitFor();
    await hydrated(page, "[data-testid=word-action]");
    await row(page, "海洛因").locator("[data-testid=word-action]").click();
    await page.locator(`[data-testid=word-row][data-word="海洛因"]`).waitFor({ state: "detached" });
    expect((await sql("SELECT value FROM system_setting WHERE key = 'sensitive_words_disabled'"))[0].value).toEqual([]);
    await context.close();
  });

  it("is not open to other accounts", async () => {
    const context = await makeSignedIn(`wordsuser_${run}`, ["individual_developer"]);
    const page = await context.newPage();
    await page.goto("/admin/sensitive_words");
    await page.waitForURL(/\/no_page_perm/);
    await context.close();
  });
});

describe("the development SMS outbox", () => {
  it("is a not-found page for visitors and ordinary accounts, and open to administrators", async () => {
    const visitor = await newContext(browser, { baseURL, lang: "en" });
    const page = await visitor.newPage();
    expect((await page.goto("/dev/sms"))?.status()).toBe(404);
    expect(await page.locator("[data-testid=dev-sms]").count()).toBe(0);
    await page.goto("/login");
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.locator("a[href*='/dev/sms']").count()).toBe(0);
    await page.getByText("The code is in the server log").waitFor();
    await visitor.close();

    const user = await makeSignedIn(`smsuser_${run}`, ["individual_developer"]);
    expect((await (await user.newPage()).goto("/dev/sms"))?.status()).toBe(404);
    await user.close();

    const admin = await makeSignedIn(`smsadm_${run}`, ["platform_admin"]);
    const adminPage = await admin.newPage();
    expect((await adminPage.goto("/dev/sms"))?.status()).toBe(200);
    await adminPage.locator("[data-testid=dev-sms]").waitFor();
    await admin.close();
  });
});
