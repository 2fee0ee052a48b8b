// Generation in a real browser, against the platform's worker and the loopback Kling: a
// professional account draws a picture on /drawing and makes a first-and-tail-frame video on
// /video_generation, watches each job's progress to the end, finds both in the gallery and in the
// multimedia library, and is charged exactly the two prices. GENERATION_SHOTS=<dir> saves the pages
// at desktop and phone width.
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";
import { makePng } from "../helpers/png";
import { makeE2eAccount, signedInContext } from "../helpers/e2e-accounts";

let browser: Browser;
const SHOTS = process.env.GENERATION_SHOTS;
const FUNDS = 5_000_000;
// What the e2e setup priced the models at: 0.2 Z a picture, 0.1 Z a second of video.
const PICTURE_PRICE = 200_000;
const VIDEO_PRICE = 5 * 100_000;

async function makeMaker(): Promise<{ id: string; context: BrowserContext; phone: BrowserContext }> {
  const { id, token } = await makeE2eAccount({ edition: "professional", fundsMicro: FUNDS });
  return { id, context: await signedInContext(browser, token), phone: await signedInContext(browser, token, { screen: "phone" }) };
}

async function hydrated(page: Page, selector: string) {
  await page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps")));
  }, selector);
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function noSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, "the page scrolls sideways").toBeLessThanOrEqual(client);
}

/**
 * Picks the setup's Kling model by searching for its name: other tests add models of their own to the
 * same platform, and the select's list renders only the options in view. A dropdown that closed
 * under a re-render is opened again; a model that never shows is reported with what did.
 */
async function chooseModel(page: Page, name: string) {
  const select = page.getByTestId("generation-model");
  const option = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: name }).first();
  for (let attempt = 0; attempt < 4; attempt++) {
    await select.click();
    await select.locator("input").fill(name);
    const shown = await option.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (shown) {
      await option.click();
      await expect.poll(() => select.innerText()).toContain(name);
      return;
    }
    await page.keyboard.press("Escape");
  }
  const seen = await page.locator(".ant-select-item-option").allInnerTexts();
  throw new Error(`no model option "${name}"; the list showed ${JSON.stringify(seen)}`);
}

const png = (name: string, shade: number) => ({ name, mimeType: "image/png", buffer: makePng(640, 480, shade) });

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("drawing and video generation", () => {
  it("draws a picture and makes a first-and-tail-frame video, and both reach the gallery and the library", async () => {
    const maker = await makeMaker();
    const page = await maker.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    // The drawing screen: the price shows before anything is asked; the job runs to done live.
    await page.goto("/drawing");
    await hydrated(page, "[data-testid=drawing-form]");
    await chooseModel(page, "E2E画图");
    await page.getByTestId("generation-prompt").fill("a red kite over the sea");
    await expect.poll(() => page.getByTestId("generation-price").getAttribute("data-micro")).toBe(String(PICTURE_PRICE));
    await shot(page, "drawing-desktop");
    await page.getByTestId("generation-submit").click();
    const drawn = page.locator("[data-testid=generation-job][data-state=done]").first();
    await drawn.waitFor({ timeout: 60_000 });
    await drawn.locator("img").first().waitFor();
    await shot(page, "drawing-done-desktop");

    // The video screen: first and tail frames uploaded into the library from the form.
    await page.goto("/video_generation");
    await hydrated(page, "[data-testid=video-form]");
    await chooseModel(page, "E2E视频");
    await page.getByTestId("generation-first-frame").locator("input[type=file]").setInputFiles(png("first.png", 60));
    await page.getByTestId("generation-first-frame-chosen").waitFor();
    await page.getByTestId("generation-tail-frame").locator("input[type=file]").setInputFiles(png("tail.png", 200));
    await page.getByTestId("generation-tail-frame-chosen").waitFor();
    await page.getByTestId("generation-prompt").fill("the kite lands on the sand");
    await expect.poll(() => page.getByTestId("generation-price").getAttribute("data-micro")).toBe(String(VIDEO_PRICE));
    await page.getByTestId("generation-submit").click();
    const filmed = page.locator("[data-testid=generation-job][data-state=done]").first();
    await filmed.waitFor({ timeout: 60_000 });
    await filmed.locator("video").first().waitFor();
    await shot(page, "video-done-desktop");

    // The gallery lists both, done, with downloads.
    await page.goto("/generations");
    await hydrated(page, "[data-testid=generations-page]");
    const cards = page.locator("[data-testid=generations-list] [data-testid=generation-job]");
    await expect.poll(() => cards.count()).toBe(2);
    expect(await page.locator("[data-testid=generations-list] [data-testid=generation-job][data-state=done]").count()).toBe(2);
    expect(await page.getByTestId("generation-download").count()).toBeGreaterThanOrEqual(2);
    await shot(page, "generations-desktop");

    // The library holds the two frames and the two results.
    await page.goto("/multimedia");
    await page.locator("[data-testid=media-card]").first().waitFor();
    await expect.poll(() => page.locator("[data-testid=media-card]").count()).toBe(4);

    // What was charged: the two prices, each held once and charged once.
    const rows = (await sql(
      `SELECT t.kind, count(*)::text AS n FROM ledger_transaction t JOIN media_job j ON t.idempotency_key IN ('media-hold:' || j.id, 'media-settle:' || j.id)
       WHERE j.owner_account_id = $1 GROUP BY t.kind ORDER BY t.kind`,
      [maker.id],
    )) as { kind: string; n: string }[];
    expect(rows.map((r) => [r.kind, r.n])).toEqual([
      ["media_charge", "2"],
      ["media_hold", "2"],
    ]);
    const [charged] = (await sql("SELECT sum(charged_micro)::text AS sum FROM media_job WHERE owner_account_id = $1", [maker.id])) as { sum: string }[];
    expect(Number(charged.sum)).toBe(PICTURE_PRICE + VIDEO_PRICE);

    // At phone width the gallery and both forms fit the screen.
    const phone = await maker.phone.newPage();
    for (const at of ["/generations", "/drawing", "/video_generation"]) {
      await phone.goto(at);
      await phone.locator("[data-testid=generations-page], [data-testid=drawing-form], [data-testid=video-form]").first().waitFor();
      await noSidewaysScroll(phone);
      await shot(phone, `${at.slice(1)}-phone`);
    }
    expect(errors).toEqual([]);
    await maker.context.close();
    await maker.phone.close();
  });
});
