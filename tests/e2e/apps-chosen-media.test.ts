// A picture from the generation gallery handed to the app editor (/create_app?media_id&media_url):
// it is set as the background (or the icon when asked), the editor says so and guards leaving
// until saved; a video or another account's file is refused with a sentence and changes nothing.
// With APPS_SHOTS=<dir>, also writes screenshots of the editor with its notice (desktop and phone).
import crypto from "node:crypto";
import path from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql } from "../helpers/e2e-db";
import { launchBrowser, newContext } from "../helpers/browser";

let browser: Browser;
const baseURL = inject("webUrl");
const shotsDir = process.env.APPS_SHOTS;

async function makeDeveloper(opts: { phone?: boolean } = {}): Promise<{ id: string; context: BrowserContext }> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, roles, updated_at) VALUES ($1, $2, $2, $3::"Role"[], now())`, [
    id,
    `media_${crypto.randomBytes(4).toString("hex")}`,
    ["individual_developer"],
  ]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  const context = await newContext(browser, { baseURL, lang: "en", phone: opts.phone });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return { id, context };
}

const editorPath = (query: Record<string, string>) => `/create_app?${new URLSearchParams(query)}`;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("a generated picture used in an app", () => {
  it("is set as the background with a notice, and leaving before saving asks first", async () => {
    const dev = await makeDeveloper();
    const page = await dev.context.newPage();
    const url = `/files/media/${dev.id}/generated/lq3x9abcdefgh.png`;
    await page.goto(editorPath({ media_id: "m1", media_url: url }));
    await expect.poll(() => page.getByTestId("app-chosen-media-notice").innerText()).toContain("set as the background; save to keep it");
    expect(await page.locator('[data-testid="app-background"] img').getAttribute("src")).toBe(url);
    expect(await page.locator('[data-testid="app-icon"] img').count()).toBe(0);
    if (shotsDir) await page.screenshot({ path: path.join(shotsDir, "app-editor-chosen-media-1440.png"), fullPage: false });
    // Nothing is saved yet: leaving asks, and staying keeps the page (once the page can ask).
    await page.waitForFunction(() => Object.keys(document.querySelector('[data-testid="app-background"]') ?? {}).some((k) => k.startsWith("__reactProps")));
    await page.locator(".ant-menu-item", { hasText: "My apps" }).first().click();
    await page.getByTestId("leave-cancel").click();
    expect(new URL(page.url()).pathname).toBe("/create_app");
    expect(Number((await sql("SELECT count(*)::int AS n FROM app WHERE owner_account_id = $1", [dev.id]))[0].n)).toBe(0);
    await dev.context.close();
  });

  it("goes to the icon when asked; phone-sized too", async () => {
    const dev = await makeDeveloper({ phone: true });
    const page = await dev.context.newPage();
    const url = `/files/media/${dev.id}/generated/square.png`;
    await page.goto(editorPath({ media_id: "m1", media_url: url, media_slot: "icon" }));
    await expect.poll(() => page.getByTestId("app-chosen-media-notice").innerText()).toContain("set as the icon");
    expect(await page.locator('[data-testid="app-icon"] img').getAttribute("src")).toBe(url);
    if (shotsDir) {
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(editorPath({ media_id: "m1", media_url: url }));
      await page.getByTestId("app-chosen-media-notice").waitFor();
      await page.screenshot({ path: path.join(shotsDir, "app-editor-chosen-media-375.png"), fullPage: false });
    }
    await dev.context.close();
  });

  it("refuses a video and another account's file, and sets nothing", async () => {
    const dev = await makeDeveloper();
    const page = await dev.context.newPage();
    for (const [mediaUrl, sentence] of [
      [`/files/media/${dev.id}/generated/clip.mp4`, "Apps take pictures only"],
      ["/files/media/someone-else/generated/a.png", "Only a picture from your own library"],
      [`https://evil.example/files/media/${dev.id}/a.png`, "Only a picture from your own library"],
    ]) {
      await page.goto(editorPath({ media_id: "m1", media_url: mediaUrl }));
      await expect.poll(() => page.getByTestId("app-chosen-media-notice").innerText()).toContain(sentence);
      expect(await page.locator('[data-testid="app-background"] img').count()).toBe(0);
      expect(await page.locator('[data-testid="app-icon"] img').count()).toBe(0);
    }
    await dev.context.close();
  });
});
