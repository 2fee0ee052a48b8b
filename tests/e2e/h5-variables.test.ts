// The H5 chat of an app whose agent has variables, in Chromium at 375 px: the form is there before
// the first message with the default filled in and the choices listed; "Start chatting" with the
// required one empty shows the error naming it and sends nothing; a message typed before filling it
// is kept in the input; filled in, the form folds into a bar, the chat answers, and the bar opens the
// form again to change a value. Nothing scrolls sideways. H5_SHOTS=<dir> keeps screenshots (phone
// and desktop).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DESKTOP, launchBrowser, screenshotsTo } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";

let browser: Browser;
const baseURL = inject("webUrl");
const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const PHONE_375 = { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, userAgent: IPHONE_UA };
const shot = screenshotsTo("H5_SHOTS", { fullPage: false });

type THelpers = typeof import("../helpers/apps");
let apps: THelpers;

async function open(context: BrowserContext, appId: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`/mobi/dialogue?app=${appId}`);
  await page.waitForSelector("html[data-hydrated]");
  return page;
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** An on-shelf app whose agent (offline model) asks for a city (required) and a tone (a choice with a default). */
async function variablesApp() {
  const owner = await apps.makeAppOwner();
  const agentId = await apps.makeLiveAgent(owner, {
    prompt: "Guide visitors around {{city}} in a {{tone}} tone.",
    variables: [
      { name: "city", prompt: "Which city are you visiting?", type: "fill", required: true },
      { name: "tone", prompt: "", type: "select", required: true, options: ["formal", "casual"], default: "casual" },
    ],
  });
  return (await apps.createTestApp({ owner, agentId, input: { welcome_messages: ["Welcome, traveller"], recommended_questions: [] } })).appId;
}

beforeAll(async () => {
  apps = await import("../helpers/apps");
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("an H5 app that asks for its agent's variables", () => {
  it("asks before the first message on a 375 px phone, refuses an empty required one, then chats with the values", async () => {
    const appId = await variablesApp();
    const context = await browser.newContext({ ...PHONE_375, baseURL });
    await context.addCookies([{ name: "lang", value: "en", url: baseURL }]);
    const page = await open(context, appId);

    const form = page.locator("[data-testid=h5-variables]");
    await expect.poll(() => form.isVisible()).toBe(true);
    expect(await page.locator("[data-testid=h5-variable-city]").inputValue()).toBe("");
    expect(await page.locator("[data-testid=h5-variable-city]").getAttribute("placeholder")).toBe("Which city are you visiting?");
    expect(await page.locator("[data-testid=h5-variable-tone]").inputValue()).toBe("casual");
    expect(await page.locator("[data-testid=h5-variable-tone] option").allTextContents()).toEqual(["Choose one", "formal", "casual"]);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await shot(page, "h5-variables-phone-form");

    // Submitting with the required one empty: the error names it, the field is marked, nothing is sent.
    await page.locator("[data-testid=h5-variables-submit]").click();
    await expect.poll(() => page.locator("[data-testid=h5-variable-error]").textContent()).toBe("Fill in “city” first: it is required");
    expect(await page.locator("[data-testid=h5-variable-city]").getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("h5-variable-city");
    await shot(page, "h5-variables-phone-error");

    // A message sent before filling it in is not sent either, and stays in the input.
    await page.locator("[data-testid=h5-text]").fill("Where should I eat?");
    await page.locator("[data-testid=h5-send]").click();
    await expect.poll(() => page.locator("[data-testid=h5-toast]").textContent()).toBe("Fill in “city” first: it is required");
    expect(await page.locator("[data-testid=h5-text]").inputValue()).toBe("Where should I eat?");
    expect(await page.locator("[data-testid=h5-question]").count()).toBe(0);
    expect(await sql("SELECT count(*)::int AS n FROM dialogue WHERE app_id = $1", [appId])).toEqual([{ n: 0 }]);

    // Filled in: the form folds into a bar with the values, and the chat answers.
    await page.locator("[data-testid=h5-variable-city]").fill("Lisbon");
    await expect.poll(() => page.locator("[data-testid=h5-variable-error]").count()).toBe(0);
    await page.locator("[data-testid=h5-variables-submit]").click();
    await expect.poll(() => page.locator("[data-testid=h5-variables-summary]").textContent()).toBe("Lisbon · casual");
    await page.locator("[data-testid=h5-send]").click();
    const answer = page.locator("[data-testid=h5-answer]").last();
    await expect.poll(() => answer.getAttribute("data-status"), { timeout: 30_000 }).toBe("done");
    expect(await answer.textContent()).toContain("I only answer questions about Zelin.");
    await expect
      .poll(async () => (await sql("SELECT variables FROM dialogue WHERE app_id = $1", [appId])).map((r) => r.variables))
      .toEqual([{ city: "Lisbon", tone: "casual" }]);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await shot(page, "h5-variables-phone-chat");

    // The bar opens the form again with the values in use; a change goes with the next message.
    await page.locator("[data-testid=h5-variables-edit]").click();
    expect(await page.locator("[data-testid=h5-variable-city]").inputValue()).toBe("Lisbon");
    await page.locator("[data-testid=h5-variable-tone]").selectOption("formal");
    await page.locator("[data-testid=h5-variables-submit]").click();
    await expect.poll(() => page.locator("[data-testid=h5-variables-summary]").textContent()).toBe("Lisbon · formal");
    await page.locator("[data-testid=h5-text]").fill("Anything else?");
    await page.locator("[data-testid=h5-send]").click();
    await expect.poll(() => page.locator("[data-testid=h5-answer]").last().getAttribute("data-status"), { timeout: 30_000 }).toBe("done");
    await expect
      .poll(async () => (await sql("SELECT variables FROM dialogue WHERE app_id = $1", [appId])).map((r) => r.variables))
      .toEqual([{ city: "Lisbon", tone: "formal" }]);
    // Away and back in the same tab (as signing up or paying at the cashier does): not asked again.
    await page.reload();
    await expect.poll(() => page.locator("[data-testid=h5-variables-summary]").textContent()).toBe("Lisbon · formal");
    expect(await page.locator("[data-testid=h5-variable-city]").count()).toBe(0);
    await context.close();
  });

  it("shows the same form on a desktop", async () => {
    const appId = await variablesApp();
    const context = await browser.newContext({ ...DESKTOP, baseURL });
    await context.addCookies([{ name: "lang", value: "zh_hans", url: baseURL }]);
    const page = await open(context, appId);
    await expect.poll(() => page.locator("[data-testid=h5-variables]").isVisible()).toBe(true);
    await page.locator("[data-testid=h5-variables-submit]").click();
    await expect.poll(() => page.locator("[data-testid=h5-variable-error]").textContent()).toBe("请先填写“city”，这是必填项");
    await shot(page, "h5-variables-desktop-error");
    await page.locator("[data-testid=h5-variable-city]").fill("澳门");
    await page.locator("[data-testid=h5-variables-submit]").click();
    await page.locator("[data-testid=h5-text]").fill("你好");
    await page.locator("[data-testid=h5-send]").click();
    await expect.poll(() => page.locator("[data-testid=h5-answer]").last().getAttribute("data-status"), { timeout: 30_000 }).toBe("done");
    await shot(page, "h5-variables-desktop-chat");
    await context.close();
  });
});
