// The multimedia library in a real browser: a professional account uploads a picture on
// /multimedia, sees it in the grid with its preview, renames it, deletes it (and its file goes);
// the table view, the picker's return, phone width, and a basic account's upgrade refusal.
// MEDIA_SHOTS=<dir> also saves desktop and phone screenshots of the four pages.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, toast } from "../helpers/browser";
import { makePng } from "../helpers/png";
import { makeE2eAccount, signedInContext } from "../helpers/e2e-accounts";

let browser: Browser;
const run = crypto.randomBytes(3).toString("hex");
const SHOTS = process.env.MEDIA_SHOTS;

async function makeSignedIn(account: string, opts: { edition?: "basic" | "professional"; phone?: boolean; lang?: string } = {}): Promise<BrowserContext> {
  const { token } = await makeE2eAccount({ account, edition: opts.edition ?? "professional" });
  return signedInContext(browser, token, { screen: opts.phone ? "phone" : "desktop", lang: opts.lang });
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

const png = (name: string, width: number, height: number, shade = 128) => ({ name, mimeType: "image/png", buffer: makePng(width, height, shade) });

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("multimedia library", () => {
  it("uploads a picture, lists it with its preview, renames it and deletes it", async () => {
    const context = await makeSignedIn(`media_${run}`);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/multimedia");
    await page.getByRole("heading", { name: "Multimedia library" }).waitFor();
    await page.getByText("No pictures or videos yet").waitFor();
    await hydrated(page, "[data-testid=media-upload]");
    await shot(page, "multimedia-empty-desktop");

    // A picture too small is refused with the server's message; a good one appears in the grid.
    const input = page.locator("input[type=file]").first();
    await input.setInputFiles(png("tiny.png", 120, 120));
    await page.getByText("The picture must be at least 300 px and at most 5000 px on each side").first().waitFor();
    const longName = "2026春季新品发布会主视觉海报-最终版.png";
    await input.setInputFiles(png(longName, 800, 500, 60));
    const card = page.locator("[data-testid=media-card]").first();
    await card.waitFor();
    expect(await page.locator("[data-testid=media-card]").count()).toBe(1);
    // The long name shows its first 10 characters, an ellipsis and the extension.
    expect(await card.locator("[data-testid=media-name]").textContent()).toBe("2026春季新品发布….png");
    expect(await card.locator("[data-testid=media-name]").getAttribute("title")).toBe(longName);
    // The card shows the original (800 px wide) until the worker has made its thumbnail (400 px).
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("[data-testid=media-card] img");
      return Boolean(img?.complete && [800, 400].includes(img.naturalWidth));
    });
    const shown = await card.locator("img").getAttribute("src");
    expect(shown).toMatch(/^\/files\/media\/[^/]+\/[A-Za-z0-9_-]+(\.thumb\.webp|\.png)$/);
    const src = shown!.replace(/\.thumb\.webp$/, ".png");
    expect(await page.getByTestId("media-quota").textContent()).toMatch(/^Today 1\/100 uploads/);

    // Preview.
    await card.getByTestId("media-preview").click();
    const preview = page.getByTestId("media-preview-image");
    await preview.waitFor();
    expect(await preview.getAttribute("src")).toBe(src);
    if (SHOTS) await page.waitForFunction(() => getComputedStyle(document.querySelector(".media-preview")!.closest(".ant-modal")!).opacity === "1");
    await shot(page, "multimedia-preview-desktop");
    await page.keyboard.press("Escape");
    await preview.waitFor({ state: "detached" });

    // Rename: a blank name is refused in the browser, a new one is kept across a reload.
    await card.getByTestId("media-rename").click();
    const nameInput = page.getByTestId("media-rename-input");
    await nameInput.fill("   ");
    await page.getByText("This field is required").waitFor();
    await nameInput.fill("Spring banner.png");
    await page.getByTestId("media-rename-save").click();
    await toast(page, "Renamed");
    await page.locator("[data-testid=media-name]", { hasText: "Spring banner.png" }).waitFor();
    await page.reload();
    await page.locator("[data-testid=media-name]", { hasText: "Spring banner.png" }).waitFor();
    // The worker has made the thumbnail (sharp, in its own process): the grid shows it, 400 px wide.
    await expect
      .poll(
        async () => {
          await page.reload();
          await card.locator("img").waitFor();
          return card.locator("img").getAttribute("src");
        },
        { timeout: 30_000 },
      )
      .toBe(src.replace(/\.png$/, ".thumb.webp"));
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>("[data-testid=media-card] img")?.naturalWidth === 400);
    await shot(page, "multimedia-desktop");

    // The table view shows the same item.
    await page.goto("/datumList");
    await page.locator("[data-testid=media-row] [data-testid=media-name]", { hasText: "Spring banner.png" }).waitFor();
    await shot(page, "datum-list-desktop");
    await page.goto("/CreatedatumList");
    await page.getByTestId("media-dropzone").waitFor();
    await shot(page, "created-datum-list-desktop");

    // The picker answers the choice on its return path.
    await page.goto("/warehouse?return=%2Fmultimedia%3Ffrom%3Dpicker");
    await hydrated(page, "[data-testid=media-card] button");
    await page.locator("[data-testid=media-card] .media-card__cover").first().click();
    await page.getByTestId("media-picker-selected").filter({ hasText: "Selected: Spring banner.png" }).waitFor();
    await shot(page, "warehouse-desktop");
    await page.getByTestId("media-picker-use").click();
    await page.waitForURL(/\/multimedia\?/);
    const back = new URL(page.url());
    expect(back.searchParams.get("from")).toBe("picker");
    expect(back.searchParams.get("media_url")).toBe(src);
    expect(back.searchParams.get("media_id")).toBeTruthy();

    // Delete: confirmed, gone from the grid, and its file no longer served.
    await hydrated(page, "[data-testid=media-delete]");
    await page.getByTestId("media-delete").first().click();
    await page.getByTestId("media-delete-confirm").click();
    await toast(page, "Deleted");
    await page.getByText("No pictures or videos yet").waitFor();
    expect((await page.request.get(src!)).status()).toBe(404);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("works at phone width under /mobi", async () => {
    const context = await makeSignedIn(`media_p${run}`, { phone: true, lang: "zh_hans" });
    const page = await context.newPage();
    await page.goto("/mobi/multimedia");
    await page.getByRole("heading", { name: "多媒体库" }).waitFor();
    await hydrated(page, "[data-testid=media-upload]");
    await page
      .locator("input[type=file]")
      .first()
      .setInputFiles(png("phone.png", 600, 900, 90));
    await page.locator("[data-testid=media-card]").first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, "multimedia-phone");
    await page.goto("/mobi/datumList");
    await page.locator("[data-testid=media-row]").first().waitFor();
    await shot(page, "datum-list-phone");
    await page.goto("/mobi/CreatedatumList");
    await page.getByTestId("media-dropzone").waitFor();
    await shot(page, "created-datum-list-phone");
    await page.goto("/mobi/warehouse");
    await page.locator("[data-testid=media-card]").first().waitFor();
    await shot(page, "warehouse-phone");
    await context.close();
  });

  it("a basic account sees the upgrade refusal instead of the library", async () => {
    const context = await makeSignedIn(`media_b${run}`, { edition: "basic" });
    const page = await context.newPage();
    await page.goto("/multimedia");
    expect(await page.getByTestId("media-locked").textContent()).toBe("Your edition does not include this: upgrade to Professional");
    expect(await page.getByTestId("media-upload").count()).toBe(0);
    await shot(page, "multimedia-basic-desktop");
    await context.close();
  });
});
