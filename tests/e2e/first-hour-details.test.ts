// Small things a new user meets in the first hour, in Chromium: a page that does not exist is titled
// "Page not found" in the reader's language (desktop and /mobi paths); the share panel promises a
// dividend only to an edition that earns one and tells a basic user how to get it; /my_app reached
// by a client-side navigation never shows a raw translation key on its share button; the app form
// names the agent's required variables; balances read one way (rounded down to the fen, "Z").
// FIRST_HOUR_SHOTS=<dir> keeps screenshots.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql } from "../helpers/e2e-db";
import { launchBrowser, newContext, screenshotsTo } from "../helpers/browser";

let browser: Browser;
const baseURL = inject("webUrl");
const shot = screenshotsTo("FIRST_HOUR_SHOTS");

type THelpers = typeof import("../helpers/apps");
let apps: THelpers;

/** A signed-in browser for a new account of `edition` (a session row, as logging in makes one). */
async function signIn(accountId: string, opts: { lang?: string; phone?: boolean } = {}): Promise<BrowserContext> {
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    accountId,
  ]);
  const context = await newContext(browser, { baseURL, lang: opts.lang ?? "en", phone: opts.phone });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return context;
}

async function open(page: Page, url: string) {
  const res = await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
  return res;
}

beforeAll(async () => {
  apps = await import("../helpers/apps");
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("the first hour's details", () => {
  it("titles a missing page 'Page not found' in the reader's language, on desktop and /mobi paths", async () => {
    for (const [lang, title] of [
      ["en", "Page not found"],
      ["zh_hans", "页面不存在"],
      ["zh_hant", "頁面不存在"],
      ["pt", "Página não encontrada"],
    ] as const) {
      const context = await newContext(browser, { baseURL, lang });
      const page = await context.newPage();
      const res = await open(page, `/no-such-page-${lang}`);
      expect(res?.status()).toBe(404);
      expect(await page.title()).toBe(title);
      await open(page, "/mobi/no-such-page");
      expect(await page.title()).toBe(title);
      await context.close();
    }
  });

  it("promises a share dividend only to an edition that earns one, and never flashes a raw key on /my_app", async () => {
    const basic = await apps.makeAppOwner({ edition: "basic" });
    const { appId } = await apps.createTestApp({ owner: basic });
    const context = await signIn(basic.id);
    const page = await context.newPage();
    // Every text the share button ever shows, from the first paint on.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __shareTexts: string[] }).__shareTexts = seen;
      new MutationObserver(() => document.querySelectorAll("[data-testid=my-app-share]").forEach((b) => seen.push(b.textContent ?? ""))).observe(document, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await open(page, "/distribution");
    await page.locator(".console__sider .ant-menu-item", { hasText: "My apps" }).click();
    await page.waitForURL(/\/my_app/);
    const row = page.locator(`[data-testid=my-app-row][data-app-id="${appId}"]`);
    await row.waitFor();
    const texts = await page.evaluate(() => (window as unknown as { __shareTexts: string[] }).__shareTexts);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((x) => x.trim() === "Share")).toBe(true);

    await row.locator("[data-testid=my-app-share]").click();
    const none = page.locator("[data-testid=share-credit-none]");
    await none.waitFor();
    expect(await none.innerText()).toContain("Your edition earns no dividend from shared links");
    expect(await none.innerText()).toContain("from the Professional edition up");
    expect(await page.locator("[data-testid=share-credit-earns]").count()).toBe(0);
    await shot(page, "share-panel-basic");
    await context.close();

    const pro = await apps.makeAppOwner({ edition: "professional" });
    const proApp = await apps.createTestApp({ owner: pro });
    const proContext = await signIn(pro.id);
    const proPage = await proContext.newPage();
    await open(proPage, `/application?id=${proApp.appId}`);
    await proPage.locator("[data-testid=appdata-share]").click();
    await proPage.locator("[data-testid=share-credit-earns]").waitFor();
    expect(await proPage.locator("[data-testid=share-credit-none]").count()).toBe(0);
    await shot(proPage, "share-panel-professional");
    await proContext.close();
  });

  it("the app form names the agent's required variables and says visitors are asked for them", async () => {
    const owner = await apps.makeAppOwner();
    const agentId = await apps.makeLiveAgent(owner, {
      variables: [
        { name: "city", type: "fill", required: true },
        { name: "tone", type: "fill", required: false },
      ],
    });
    const agentName = (await sql("SELECT name FROM agent WHERE id = $1", [agentId]))[0].name as string;
    const context = await signIn(owner.id);
    const page = await context.newPage();
    await open(page, "/create_app");
    expect(await page.locator("[data-testid=app-agent-variables]").count()).toBe(0);
    await page.locator("[data-testid=app-agent]").click();
    await page.locator(".ant-select-item-option", { hasText: agentName }).first().click();
    const note = page.locator("[data-testid=app-agent-variables]");
    await note.waitFor();
    expect(await note.innerText()).toContain("has 1 required variable");
    expect(await note.locator("[data-testid=app-agent-variable][data-required=true]").allInnerTexts()).toEqual(["city · required"]);
    expect(await note.locator("[data-testid=app-agent-variable][data-required=false]").allInnerTexts()).toEqual(["tone"]);
    expect(await note.innerText()).toContain("Visitors fill these in on a form before their first message");
    await note.scrollIntoViewIfNeeded();
    await shot(page, "app-form-variables");
    await context.close();
  });

  it("shows a balance rounded down to the fen, with the locale's Z label, in the header and on /upgrade", async () => {
    const owner = await apps.makeAppOwner({ funded: false });
    const { fundAccount } = await import("../helpers/money");
    // 99.979 Z of gift credit: 100 Z less seven 0.003 Z channel fees.
    await fundAccount(owner.id, 99_979_000);
    for (const [lang, label] of [
      ["en", "99.97 Z"],
      ["zh_hans", "99.97 Z币"],
    ] as const) {
      const context = await signIn(owner.id, { lang });
      const page = await context.newPage();
      await open(page, "/upgrade");
      expect(await page.locator("[data-testid=wallet-gift]").innerText()).toBe(label);
      await expect.poll(() => page.locator("[data-testid=wallet-balance]").first().innerText()).toContain(label);
      await context.close();
    }
  });
});
