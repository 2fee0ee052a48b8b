// Figures in a real browser, with the real worker: a creator reads the filming advice on
// /Createdigital, uploads a generated green-screen clip (a face before the green), watches its check
// pass, keys it on /CreateCharacter (moving the similarity slider changes the live preview's pixels),
// saves, and finds it ready on /digital; the same pages on a 375 px phone do not scroll sideways.
// FIGURES_SHOTS=<dir> also saves screenshots.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshotsTo, toast } from "../helpers/browser";
import { makeE2eAccount, signedInContext } from "../helpers/e2e-accounts";
import { sql } from "../helpers/e2e-db";

let browser: Browser;
const run = crypto.randomBytes(3).toString("hex");
const shot = screenshotsTo("FIGURES_SHOTS");
const clipsDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-e2e-figures-"));
const FFMPEG = fs.existsSync("/usr/bin/ffmpeg") ? "/usr/bin/ffmpeg" : "ffmpeg";
const FACE = path.resolve(import.meta.dirname, "../fixtures/faces/astronaut.jpg");
let clip: string;

/** 12 seconds of 1280x720 green screen with a person's photograph in the middle, and a tone. */
function makeGreenClip() {
  const file = path.join(clipsDir, "anna-green.mp4");
  execFileSync(FFMPEG, [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x00ff00:s=1280x720:r=25:d=12", "-loop", "1", "-i", FACE],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=12"],
    ...["-filter_complex", "[1:v]scale=360:360[p];[0:v][p]overlay=(W-w)/2:(H-h)/2:shortest=1[v]", "-map", "[v]", "-map", "2:a"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-t", "12", file],
  ]);
  return file;
}

async function makeSignedIn(opts: { phone?: boolean } = {}): Promise<BrowserContext> {
  const { token } = await makeE2eAccount({ account: `figures_${run}_${opts.phone ? "p" : "d"}` });
  return signedInContext(browser, token, { screen: opts.phone ? "phone-375" : "desktop" });
}

async function hydrated(page: Page, selector: string) {
  await page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps")));
  }, selector);
}

const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

/** A digest of the preview canvas's pixels (alpha included), and the share it keyed out. */
const canvasDigest = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>("[data-testid=key-preview-canvas]")!;
    const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
    let sum = 0;
    let transparent = 0;
    for (let i = 0; i < data.length; i += 4) {
      sum = (sum * 31 + data[i] + data[i + 1] * 3 + data[i + 2] * 7 + data[i + 3] * 11) % 1_000_000_007;
      if (data[i + 3] === 0) transparent++;
    }
    return { width: canvas.width, height: canvas.height, sum, transparent };
  });

/** Uploads the clip on /Createdigital and waits for its check to pass: answers the figure's id. */
async function filmFigure(page: Page, name: string) {
  await page.goto("/Createdigital");
  await hydrated(page, "[data-testid=figure-upload-submit]");
  const advice = page.getByTestId("filming-advice");
  await advice.getByText("Keep still and silent for 5 seconds at the start and at the end.").waitFor();
  await advice.getByText("Talk to the camera for 3-4 minutes in between.").waitFor();
  await advice.getByText("Keep gestures small and hold none for longer than 3 seconds.").waitFor();
  await advice.getByText("Stand at least 1 m in front of an evenly lit green screen.").waitFor();
  await page.getByTestId("figure-figure-input").setInputFiles(clip);
  await page.getByTestId("figure-name-input").fill(name);
  await page.getByTestId("figure-upload-submit").click();
  // Measured (a face included), then prepared, by the worker.
  await page.getByTestId("figure-check-passed").waitFor({ timeout: 90_000 });
  return new URL(page.url()).searchParams.get("id")!;
}

beforeAll(async () => {
  browser = await launchBrowser();
  clip = makeGreenClip();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  fs.rmSync(clipsDir, { recursive: true, force: true });
});

describe("figures", () => {
  it("uploads a green-screen clip, passes its check, keys it live, and finds it ready on /digital", async () => {
    const context = await makeSignedIn();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await page.goto("/digital");
    await page.getByRole("heading", { name: "Digital humans" }).waitFor();
    await page.getByTestId("figures-empty").waitFor();
    await shot(page, "digital-empty-desktop");

    const id = await filmFigure(page, `Anna ${run}`);
    expect(id).toBeTruthy();
    await shot(page, "create-digital-passed-desktop");

    await page.getByTestId("figure-go-key").click();
    await page.waitForURL(/\/CreateCharacter\?/);
    await hydrated(page, "[data-testid=key-save]");
    // The clip plays into the canvas, keyed: the green around the photograph is transparent.
    await page.waitForFunction(() => {
      const canvas = document.querySelector<HTMLCanvasElement>("[data-testid=key-preview-canvas]");
      return Boolean(canvas && canvas.width > 1 && Number(canvas.dataset.keyedShare) > 0.5);
    });
    await page.getByTestId("key-preview-toggle").click();
    const before = await canvasDigest(page);
    expect(before.width).toBe(640);
    expect(before.height).toBe(360);
    await shot(page, "create-character-desktop");

    // More similarity keys more of the photograph out: the preview's pixels change at once.
    await page.getByTestId("key-similarity").fill("75");
    await expect.poll(async () => (await canvasDigest(page)).sum).not.toBe(before.sum);
    const after = await canvasDigest(page);
    expect(after.transparent).toBeGreaterThan(before.transparent);
    expect(await page.getByTestId("key-similarity-value").textContent()).toBe("0.75");

    await page.getByTestId("key-save").click();
    await toast(page, "Key saved");
    await page.waitForURL(/\/digital/);
    const card = page.locator(`[data-testid=figure-card][data-id="${id}"]`);
    await card.waitFor();
    expect(await card.getAttribute("data-state")).toBe("ready");
    await card.getByTestId("figure-poster").waitFor();
    expect(await card.getByTestId("figure-name").textContent()).toBe(`Anna ${run}`);
    await shot(page, "digital-ready-desktop");

    // The key is kept: the editor opens with it.
    await page.goto(`/CreateCharacter?id=${id}`);
    await hydrated(page, "[data-testid=key-save]");
    expect(await page.getByTestId("key-similarity-value").textContent()).toBe("0.75");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("films and keys a figure on a 375 px phone without anything scrolling sideways", async () => {
    const context = await makeSignedIn({ phone: true });
    const page = await context.newPage();
    await page.goto("/digital");
    await page.getByTestId("figures-empty").waitFor();
    expect(await scrollsSideways(page)).toBe(false);

    const id = await filmFigure(page, `Phone ${run}`);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, "create-digital-passed-phone");

    await page.goto(`/CreateCharacter?id=${id}`);
    await hydrated(page, "[data-testid=key-save]");
    await page.waitForFunction(() => Number(document.querySelector<HTMLCanvasElement>("[data-testid=key-preview-canvas]")?.dataset.keyedShare) > 0.5);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, "create-character-phone");

    await page.goto("/digital");
    await page.locator(`[data-testid=figure-card][data-id="${id}"][data-state=ready]`).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, "digital-ready-phone");

    await page.goto(`/figureTrain?id=${id}`);
    await page.locator(`[data-testid=training-item][data-id="${id}"]`).waitFor();
    // A 12-second clip is too short to train from: the row says so and offers no order.
    expect(await page.locator(`[data-testid=training-item][data-id="${id}"] [data-testid=training-status]`).textContent()).toMatch(/at least 2 minutes/);
    expect(await page.getByTestId("training-order").count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, "figure-train-phone");

    // Filmed long enough (as if 3 minutes): the order waits for the person's consent clip, read from the page.
    const [row] = await sql('SELECT "check" FROM digital_figure WHERE id = $1', [id]);
    const check = row.check as { figure: { facts: { durationMs: number } } };
    check.figure.facts.durationMs = 3 * 60_000;
    await sql('UPDATE digital_figure SET "check" = $2 WHERE id = $1', [id, JSON.stringify(check)]);
    await page.reload();
    const consent = page.locator(`[data-testid=training-item][data-id="${id}"] [data-testid=training-consent]`);
    await consent.waitFor();
    expect(await consent.getAttribute("data-done")).toBe("false");
    expect(await consent.textContent()).toContain(`Phone ${run}`);
    expect(await page.getByTestId("training-order").count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, "figure-train-consent-phone");
    await page.getByTestId("training-consent-input").setInputFiles(clip);
    await expect.poll(() => consent.getAttribute("data-done"), { timeout: 20_000 }).toBe("true");
    await page.getByTestId("training-order").waitFor();
    expect((await sql("SELECT consent_file_key FROM digital_figure WHERE id = $1", [id]))[0].consent_file_key).toMatch(/^media\//);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, "figure-train-consent-done-phone");
    await context.close();
  });
});
