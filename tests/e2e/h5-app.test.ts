// The H5 app as a consumer uses it, on a phone-sized page in Chromium: a visitor who is
// not signed in opens a published app's share link and lands in /mobi/dialogue with touser kept,
// sees the welcome message, taps a recommended question and gets the offline channel's answer,
// likes it, uses up the free count (2 a day) and is refused with the platform's message. A private app
// opens by its link; a removed app shows /mobi/error with the reason.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PHONE, launchBrowser } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";

let browser: Browser;
const baseURL = inject("webUrl");
const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

// Apps are made through the apps service (tests/helpers/apps.ts) against the run's database.
type THelpers = typeof import("../helpers/apps");
let apps: THelpers;

async function phoneContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ ...PHONE, userAgent: IPHONE_UA, baseURL });
  await context.addCookies([{ name: "lang", value: "en", url: baseURL }]);
  return context;
}

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-hydrated]");
}

/** Waits for the newest answer to finish and returns its status. */
async function lastAnswerStatus(page: Page) {
  const last = page.locator("[data-testid=h5-answer]").last();
  await expect.poll(async () => last.getAttribute("data-status"), { timeout: 30_000 }).not.toBe("streaming");
  return last.getAttribute("data-status");
}

beforeAll(async () => {
  apps = await import("../helpers/apps");
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("the H5 app on a phone", () => {
  it("opens the share link, chats, likes an answer and runs out of free uses", async () => {
    const { appId } = await apps.createTestApp({
      input: {
        free_per_day: 2,
        welcome_messages: ["Welcome to the travel helper"],
        recommended_questions: ["What can you do?"],
        menu_items: [{ title: "Guide", reply_type: "text", content: "Type a question to begin." }],
      },
    });
    const touser = `sharer${crypto.randomBytes(3).toString("hex")}`;
    const context = await phoneContext();
    const page = await context.newPage();

    // The share link sends a phone straight to the chat, keeping app and touser.
    await page.goto(`/share?app=${appId}&touser=${touser}`);
    await page.waitForURL(/\/mobi\/dialogue\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("app")).toBe(appId);
    expect(url.searchParams.get("touser")).toBe(touser);
    await hydrated(page);
    await expect.poll(() => page.locator("[data-testid=h5-welcome]").first().textContent()).toBe("Welcome to the travel helper");
    await expect.poll(() => page.locator("[data-testid=h5-remaining]").textContent()).toContain("2");
    // A visitor cookie was set for the anonymous consumer.
    expect((await context.cookies()).some((c) => c.name === "zl_visitor" && c.httpOnly)).toBe(true);

    // The menu's text item shows as a message.
    await page.locator("[data-testid=h5-menu] button", { hasText: "Guide" }).click();
    await expect.poll(() => page.locator("[data-testid=h5-menu-text]").textContent()).toBe("Type a question to begin.");

    // A recommended question, tapped, is asked and answered on the offline channel.
    await page.locator("[data-testid=h5-chip]", { hasText: "What can you do?" }).click();
    expect(await lastAnswerStatus(page)).toBe("done");
    await expect.poll(() => page.locator("[data-testid=h5-question]").first().textContent()).toBe("What can you do?");
    expect((await page.locator("[data-testid=h5-answer]").last().textContent())?.length).toBeGreaterThan(0);

    // Like: the button turns on and the message is stored as liked.
    await page.locator("[data-testid=h5-like]").last().click();
    await expect.poll(() => page.locator("[data-testid=h5-like]").last().getAttribute("aria-pressed")).toBe("true");
    await expect
      .poll(async () =>
        (await sql("SELECT m.feedback FROM chat_message m JOIN dialogue d ON d.id = m.dialogue_id WHERE d.app_id = $1 AND m.role = 'assistant'", [appId])).map(
          (r) => r.feedback,
        ),
      )
      .toEqual(["liked"]);

    // The second (last free) use, then the third is refused with the platform's message.
    await page.locator("[data-testid=h5-text]").fill("Tell me more");
    await page.locator("[data-testid=h5-send]").click();
    expect(await lastAnswerStatus(page)).toBe("done");
    await expect.poll(() => page.locator("[data-testid=h5-remaining]").textContent()).toContain("0");
    await page.locator("[data-testid=h5-text]").fill("One more question");
    await page.locator("[data-testid=h5-send]").click();
    expect(await lastAnswerStatus(page)).toBe("failed");
    await expect.poll(() => page.locator("[data-testid=h5-refusal]").textContent()).toMatch(/times exhausted, please try tomorrow/i);
    // The refused question changed nothing: two uses, two answers.
    const [uses] = await sql("SELECT count(*)::int AS n FROM app_use WHERE app_id = $1", [appId]);
    expect(uses.n).toBe(2);
    const [answers] = await sql(
      "SELECT count(*)::int AS n FROM chat_message m JOIN dialogue d ON d.id = m.dialogue_id WHERE d.app_id = $1 AND m.role = 'assistant' AND m.status = 'done'",
      [appId],
    );
    expect(answers.n).toBe(2);

    if (process.env.H5_SHOTS) await page.screenshot({ path: `${process.env.H5_SHOTS}/h5-dialogue-refused.png` });
    await context.close();
  });

  it("opens a private app by its link, and shows a removed app's error page", async () => {
    const owner = await apps.makeAppOwner();
    const agentId = await apps.makeLiveAgent(owner);
    const { appId: privateId } = await apps.createTestApp({ owner, agentId, input: { is_public: false, name: "Private helper" } });
    const { appId: removedId } = await apps.createTestApp({ owner, agentId, state: "removed" });
    const context = await phoneContext();
    const page = await context.newPage();

    await page.goto(`/mobi/dialogue?app=${privateId}`);
    await hydrated(page);
    await expect.poll(() => page.locator("[data-testid=h5-chat] .h5-chat__title").textContent()).toContain("Private helper");
    await page.locator("[data-testid=h5-text]").fill("Hello");
    await page.locator("[data-testid=h5-send]").click();
    expect(await lastAnswerStatus(page)).toBe("done");

    await page.goto(`/mobi/dialogue?app=${removedId}`);
    await page.waitForURL(/\/mobi\/error\?/);
    await hydrated(page);
    expect(await page.locator("[data-testid=mobi-error]").getAttribute("data-reason")).toBe("removed");
    expect(await page.locator("[data-testid=mobi-error-title]").textContent()).toBe("This app has been removed");
    expect(await page.locator("[data-testid=mobi-error-detail]").textContent()).toContain("test removal");

    // An id that names no app.
    await page.goto("/mobi/dialogue?app=doesnotexist123");
    await page.waitForURL(/\/mobi\/error\?/);
    expect(await page.locator("[data-testid=mobi-error]").getAttribute("data-reason")).toBe("missing");
    await context.close();
  });

  it("shows a desktop the app's card, a QR code of the phone link and an open button", async () => {
    const { appId } = await apps.createTestApp({ input: { name: "Desk helper" } });
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL });
    await context.addCookies([{ name: "lang", value: "en", url: baseURL }]);
    const page = await context.newPage();
    await page.goto(`/share?app=${appId}&touser=abc`);
    await hydrated(page);
    expect(await page.locator("[data-testid=h5-app-card] h1").textContent()).toBe("Desk helper");
    expect(await page.locator("[data-testid=h5-share-qr] svg").count()).toBe(1);
    expect(await page.locator(".h5-share__link").textContent()).toContain(`/mobi/dialogue?app=${appId}&touser=abc`);
    await page.locator("[data-testid=h5-share-open]").click();
    await page.waitForURL(/\/mobi\/dialogue\?app=/);
    // The address changes as the navigation starts; the chat replaces the card once its data is in.
    await page.locator("[data-testid=h5-chat]").waitFor();
    expect(await page.locator("[data-testid=h5-app-card]").count()).toBe(0);
    await context.close();
  });
});
