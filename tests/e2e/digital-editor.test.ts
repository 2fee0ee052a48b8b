// The digital-human editor in a real browser: an account with a ready figure (its keyed still a PNG
// with alpha) and a library picture opens /CreateAppDigital, which makes a video and puts its id in
// the address; it chooses the figure, drags it (the placement saved in the database changes), turns
// the screen horizontal, puts the picture behind, writes a script, and reads a quote that says the
// untrained figure will not move its lips. At 375 px the stage fits and nothing scrolls sideways.
// DIGITAL_EDITOR_SHOTS=<dir> saves the pages at desktop and phone width.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, screenshotsTo } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";
import { makeWav } from "../helpers/sample-files";
import { makeE2eAccount, signedInContext, uploadToLibrary } from "../helpers/e2e-accounts";
import { startFakeOpenai } from "../fakes/fake-openai";
import { startSession } from "../../server/auth/session.service";
import { writePng } from "../../server/lib/png-file";
import { renderFilmingVideo } from "../../workers/media/test-sources";

let browser: Browser;
const baseURL = inject("webUrl");
const shot = screenshotsTo("DIGITAL_EDITOR_SHOTS");

type TMaker = { id: string; token: string; context: BrowserContext };

async function makeMaker(fundsMicro?: number): Promise<TMaker> {
  const { id, token } = await makeE2eAccount({ edition: "flagship", fundsMicro });
  return { id, token, context: await contextFor(token, false) };
}

const contextFor = (token: string, phone: boolean) => signedInContext(browser, token, { screen: phone ? "phone-375" : "desktop" });

/** A PNG with alpha drawn pixel by pixel: `paint` answers each pixel's [r, g, b, a]. */
function rgbaPng(width: number, height: number, paint: (x: number, y: number) => [number, number, number, number]) {
  const rows = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows.set(paint(x, y), y * (width * 4 + 1) + 1 + x * 4);
  return writePng(width, height, 6, rows);
}

/** A keyed still as the worker makes one: a person-ish shape (a head over a body) on a transparent 9:16 frame. */
const posterPng = () =>
  rgbaPng(360, 640, (x, y) => {
    if ((x - 180) ** 2 + (y - 170) ** 2 < 85 ** 2) return [0xf1, 0xc2, 0x7d, 255];
    if (x >= 70 && x < 290 && y >= 280) return [0x3b, 0x5b, 0xdb, 255];
    return [0, 0, 0, 0];
  });
/** A library picture: sky over grass. */
const backgroundPng = () => rgbaPng(640, 360, (_x, y) => (y < 220 ? [0x87, 0xce, 0xeb, 255] : [0x2e, 0x8b, 0x57, 255]));

/** A file put in the store through the library's upload and kept out of the library: its key. */
async function storeFile(page: Page, name: string, mime: string, bytes: Buffer): Promise<string> {
  const { id: itemId } = await uploadToLibrary(page, name, mime, bytes);
  const [{ file_key: key }] = await sql("UPDATE media_item SET deleted_at = now() WHERE id = $1 RETURNING file_key", [itemId]);
  return key as string;
}

/** A figure's loop as the worker keeps one: 2 seconds of a person-sized block on green, 9:16, H.264. */
async function greenLoopMp4() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-dh-"));
  try {
    await renderFilmingVideo(path.join(dir, "loop.mp4"), { width: 360, height: 640, seconds: 2 });
    return fs.readFileSync(path.join(dir, "loop.mp4"));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A ready, untrained figure: its keyed still a PNG with alpha; its loop a real clip when it is to be rendered, else the still. */
async function seedFigure(page: Page, ownerId: string, name: string, opts: { clip?: boolean } = {}) {
  const poster = await storeFile(page, "poster.png", "image/png", await posterPng());
  const loop = opts.clip ? await storeFile(page, "loop.mp4", "video/mp4", await greenLoopMp4()) : poster;
  const id = `fig${crypto.randomBytes(8).toString("hex")}`;
  await sql(
    `INSERT INTO digital_figure (id, owner_account_id, name, state, source_file_key, poster_file_key, loop_file_key, orientation, updated_at)
     VALUES ($1, $2, $3, 'ready'::"DigitalFigureState", $5, $4, $5, 'vertical', now())`,
    [id, ownerId, name, poster, loop],
  );
  return id;
}

/** Chooses an option of one of the editor's selects by its text. */
async function choose(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click();
  await page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: text }).first().click();
}

const videoRow = async (id: string) =>
  (await sql("SELECT figure_id, placement, orientation, background_item_id, script FROM digital_video WHERE id = $1", [id]))[0] as {
    figure_id: string | null;
    placement: { x: number; y: number; scale: number };
    orientation: string;
    background_item_id: string | null;
    script: string;
  };

async function hydrated(page: Page, selector: string) {
  await page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps")));
  }, selector);
}

const saved = (page: Page) => page.locator("[data-testid=digital-save-state][data-state=saved]").waitFor();

async function noSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, "the page scrolls sideways").toBeLessThanOrEqual(client);
}

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${inject("adminToken")}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { status: number; description: string; data: { id: string } };
  if (json.status !== 200) throw new Error(`${path}: ${json.status} ${json.description}`);
  return json.data;
};

/** Takes a test's voice model away again: a channel in use is disabled before it can be deleted, and a model with a channel is kept. */
async function removeVoiceModel(channelId: string, modelId: string) {
  await admin("POST", `/v1/admin/channels/${channelId}/disable`, {}).catch(() => undefined);
  await admin("DELETE", `/v1/admin/channels/${channelId}`).catch(() => undefined);
  await admin("DELETE", `/v1/admin/models/${modelId}`).catch(() => undefined);
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("the digital-human editor", () => {
  it("makes a video, places the figure on a library picture, saves as it goes, and quotes honestly; a phone sees it whole", async () => {
    const maker = await makeMaker();
    const page = await maker.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/multimedia");
    await hydrated(page, "[data-testid=media-upload]").catch(() => undefined);
    const figureName = "Ada on green";
    await seedFigure(page, maker.id, figureName);
    const { id: pictureId } = await uploadToLibrary(page, "seaside.png", "image/png", await backgroundPng());

    // A new video is made and its id put in the address.
    await page.goto("/CreateAppDigital");
    await page.waitForURL(/[?&]video=/);
    const videoId = new URL(page.url()).searchParams.get("video")!;
    expect((await sql("SELECT owner_account_id FROM digital_video WHERE id = $1", [videoId]))[0]?.owner_account_id).toBe(maker.id);
    await hydrated(page, "[data-testid=digital-editor]");
    await shot(page, "editor-new-desktop");

    // The figure: chosen from my ready figures, it stands on the stage and is saved.
    await choose(page, "digital-figure", figureName);
    const figure = page.getByTestId("digital-stage-figure");
    await figure.locator("img").waitFor();
    await expect
      .poll(async () => (await videoRow(videoId)).figure_id)
      .toBe((await sql("SELECT id FROM digital_figure WHERE owner_account_id = $1", [maker.id]))[0].id);

    // Dragged right and up: the placement saved is where it was dropped.
    const before = (await videoRow(videoId)).placement;
    const stage = (await page.getByTestId("digital-stage").boundingBox())!;
    const box = (await figure.boundingBox())!;
    const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + stage.width * 0.2, from.y - stage.height * 0.1, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await videoRow(videoId)).placement.x, { timeout: 10_000 }).toBeGreaterThan(before.x + 0.15);
    const dropped = (await videoRow(videoId)).placement;
    expect(dropped.y).toBeLessThan(before.y - 0.05);
    expect(dropped.scale).toBe(before.scale);

    // Bigger by the slider.
    await page.getByTestId("digital-scale").evaluate((el: HTMLInputElement) => {
      // A range input is not typed into: its value is set as a slider's drag sets it.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(el, "120");
      el.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await expect.poll(async () => (await videoRow(videoId)).placement.scale).toBe(1.2);

    // Horizontal: the stage turns 16:9.
    await page.getByTestId("digital-orientation").getByText("Horizontal 16:9").click();
    await expect.poll(() => page.getByTestId("digital-stage").getAttribute("data-orientation")).toBe("horizontal");
    const wide = (await page.getByTestId("digital-stage").boundingBox())!;
    expect(wide.width / wide.height).toBeCloseTo(16 / 9, 1);
    await expect.poll(async () => (await videoRow(videoId)).orientation).toBe("horizontal");

    // The background: a picture of my library.
    await page.getByTestId("digital-background-pick").click();
    await page.locator(`[data-testid=media-card][data-id="${pictureId}"] .media-card__cover`).click();
    await page.getByTestId("digital-background-use").click();
    await page.getByTestId("digital-stage-background").waitFor();
    await expect.poll(async () => (await videoRow(videoId)).background_item_id).toBe(pictureId);

    // Leaving with a change not yet saved asks first; staying keeps it, and it is saved.
    const script = "Hello, I am Ada. Welcome to our shop by the sea.";
    await page.getByTestId("digital-script").fill(script);
    await page.getByText("Make another figure").click();
    await page.getByTestId("leave-cancel").click();
    await saved(page);
    expect((await videoRow(videoId)).script).toBe(script);

    // The quote: what speaking it costs, and that this figure's lips will not follow.
    const quote = page.locator("[data-testid=digital-quote][data-path=idle_loop]");
    await quote.waitFor();
    expect(await page.getByTestId("digital-quote-path").innerText()).toContain("its lips will not follow the words");
    await shot(page, "editor-desktop");

    // A reload comes back to the same video as it was left.
    await page.reload();
    await hydrated(page, "[data-testid=digital-editor]");
    expect(await page.getByTestId("digital-script").inputValue()).toBe(script);
    expect(await page.getByTestId("digital-stage").getAttribute("data-orientation")).toBe("horizontal");
    expect(Number(await page.getByTestId("digital-stage-figure").getAttribute("data-x"))).toBeCloseTo(dropped.x, 3);

    // A phone: the stage fits the width, the panels follow below, nothing scrolls sideways.
    const phone = await contextFor(maker.token, true);
    const small = await phone.newPage();
    await small.goto(`/CreateAppDigital?video=${videoId}`);
    await hydrated(small, "[data-testid=digital-editor]");
    await small.getByTestId("digital-stage-figure").locator("img").waitFor();
    await noSidewaysScroll(small);
    const phoneStage = (await small.getByTestId("digital-stage").boundingBox())!;
    expect(phoneStage.width).toBeLessThanOrEqual(375);
    const panels = (await small.getByTestId("digital-figure-field").boundingBox())!;
    expect(panels.y).toBeGreaterThan(phoneStage.y + phoneStage.height);
    await shot(small, "editor-phone");
    // A finger drags the figure left: touch moves it as the mouse does.
    const atPhone = (await videoRow(videoId)).placement;
    const onPhone = (await small.getByTestId("digital-stage-figure").boundingBox())!;
    const finger = { x: Math.round(onPhone.x + onPhone.width / 2), y: Math.round(Math.max(onPhone.y, phoneStage.y) + 20) };
    const cdp = await phone.newCDPSession(small);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [finger] });
    for (let step = 1; step <= 5; step++)
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: finger.x - step * 12, y: finger.y }] });
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await expect.poll(async () => (await videoRow(videoId)).placement.x, { timeout: 10_000 }).toBeLessThan(atPhone.x - 0.1);
    await noSidewaysScroll(small);
    await small.getByTestId("digital-orientation").getByText("Vertical 9:16").click();
    await noSidewaysScroll(small);
    await shot(small, "editor-phone-vertical");
    await phone.close();
    await maker.context.close();
    expect(errors).toEqual([]);
  });
  it("renders: the progress shows while it runs, then the video plays here with its library link and download", async () => {
    // A voice model on a loopback OpenAI whose speech is real audio; taken away again afterwards.
    const fake = await startFakeOpenai();
    fake.setSpeechAudio(makeWav(2));
    const uid = crypto.randomBytes(4).toString("hex");
    const model = await admin("POST", "/v1/admin/models", { key: `e2e-dh-tts-${uid}`, display_name: "E2E配音", kind: "voice" });
    const channel = await admin("POST", "/v1/admin/channels", {
      name: `dh voice ${uid}`,
      type: "openai",
      base_url: fake.base,
      key: `sk-dh-${uid}`,
      models: [`e2e-dh-tts-${uid}`],
      weight: 1,
    });
    try {
      const maker = await makeMaker(5_000_000);
      const page = await maker.context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto("/multimedia");
      await seedFigure(page, maker.id, "Ada filmed", { clip: true });
      await page.goto("/CreateAppDigital");
      await page.waitForURL(/[?&]video=/);
      const videoId = new URL(page.url()).searchParams.get("video")!;
      await hydrated(page, "[data-testid=digital-editor]");
      await choose(page, "digital-figure", "Ada filmed");
      await choose(page, "digital-voice", "Nova");
      await page.getByTestId("digital-script").fill("Welcome. This is a short test.");
      await page.locator("[data-testid=digital-quote][data-path=idle_loop]").waitFor();
      await expect.poll(() => page.getByTestId("digital-quote-problems").count()).toBe(0);
      await page.getByTestId("digital-render-button").click();
      await page.getByTestId("digital-render-progress").waitFor({ timeout: 15_000 });
      await shot(page, "editor-rendering-desktop");
      const done = page.locator("[data-testid=digital-render][data-state=done]");
      await done.waitFor({ timeout: 120_000 });
      await page.getByTestId("digital-render-result").locator("video").waitFor();
      const href = await page.getByTestId("digital-render-download").getAttribute("href");
      expect(href).toMatch(/^\/files\/media\/.+\.mp4$/);
      expect(await page.getByTestId("digital-render-library").getAttribute("href")).toContain("/multimedia");
      const [row] = await sql("SELECT v.output_item_id, i.kind FROM digital_video v JOIN media_item i ON i.id = v.output_item_id WHERE v.id = $1", [videoId]);
      expect(row?.kind).toBe("video");
      await shot(page, "editor-rendered-desktop");
      await maker.context.close();
      expect(errors).toEqual([]);
    } finally {
      await removeVoiceModel(channel.id, model.id);
      await fake.close();
    }
  });
  it("an app's scene: the app form names the figure and opens the editor, whose save keeps the scene in the app's settings", async () => {
    const apps = await import("../helpers/apps");
    const owner = await apps.makeAppOwner();
    const { appId } = await apps.createTestApp({ owner, input: { type: "digital_human", settings: {} }, state: "under_review" });
    const context = await contextFor((await startSession(owner.id)).token, false);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`/create_app?id=${appId}&type=digital_human`);
    await hydrated(page, "[data-testid=app-digital-open-editor]");
    expect(await page.getByTestId("app-digital-figure").innerText()).toBe("Not chosen yet");
    const figureId = await seedFigure(page, owner.id, "Ada for the app");

    await page.getByTestId("app-digital-open-editor").click();
    await page.waitForURL(/\/CreateAppDigital\?app=/);
    await hydrated(page, "[data-testid=digital-editor]");
    await choose(page, "digital-figure", "Ada for the app");
    const box = (await page.getByTestId("digital-stage-figure").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await page.getByTestId("digital-orientation").getByText("Horizontal 16:9").click();
    await page.getByTestId("digital-app-save").click();
    const settingsOf = async () => (await sql("SELECT settings FROM app WHERE id = $1", [appId]))[0].settings as Record<string, any>;
    await expect.poll(async () => (await settingsOf()).figure_id).toBe(figureId);
    const settings = await settingsOf();
    expect(settings.orientation).toBe("horizontal");
    expect(settings.placement.x).toBeLessThan(0.45);
    await shot(page, "app-scene-desktop");

    await page.getByTestId("digital-app-form-link").click();
    await hydrated(page, "[data-testid=app-digital-open-editor]");
    await expect.poll(() => page.getByTestId("app-digital-figure").innerText()).toBe("Ada for the app");
    expect(errors).toEqual([]);
    await context.close();
  });
  it("a digital-human app on a phone: the figure greets, stands keyed over the scene, and speaks its answer over its idle loop", async () => {
    // A voice model on a loopback OpenAI whose speech is real audio; taken away again afterwards.
    const fake = await startFakeOpenai();
    fake.setSpeechAudio(makeWav(2));
    const uid = crypto.randomBytes(4).toString("hex");
    const model = await admin("POST", "/v1/admin/models", { key: `e2e-dh-app-tts-${uid}`, display_name: "E2E数字人配音", kind: "voice" });
    const channel = await admin("POST", "/v1/admin/channels", {
      name: `dh app voice ${uid}`,
      type: "openai",
      base_url: fake.base,
      key: `sk-dh-app-${uid}`,
      models: [`e2e-dh-app-tts-${uid}`],
      weight: 1,
    });
    try {
      const apps = await import("../helpers/apps");
      const owner = await apps.makeAppOwner();
      const setup = await contextFor((await startSession(owner.id)).token, false);
      const setupPage = await setup.newPage();
      await setupPage.goto("/multimedia");
      const figureId = await seedFigure(setupPage, owner.id, "Ada at the desk", { clip: true });
      const greeting = await storeFile(setupPage, "hello.mp4", "video/mp4", await greenLoopMp4());
      await sql("UPDATE digital_figure SET greeting_file_key = $2 WHERE id = $1", [figureId, greeting]);
      await setup.close();
      const { appId } = await apps.createTestApp({
        owner,
        input: {
          type: "digital_human",
          name: `Ada ${uid}`,
          welcome_messages: ["Hi, I am Ada."],
          settings: { figure_id: figureId, voice_id: "nova", orientation: "vertical", placement: { x: 0.5, y: 0.6, scale: 0.9 }, background_color: "#1e3a8a" },
        } as never,
      });

      // A visitor on a phone: the greeting plays (muted until a tap, as phones allow), then the idle loop.
      const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL });
      await phone.addCookies([{ name: "lang", value: "en", url: baseURL }]);
      const page = await phone.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`/mobi/dialogue?app=${appId}`);
      const stage = page.getByTestId("h5-stage");
      await stage.waitFor();
      expect(await stage.getAttribute("data-mode")).toBe("greeting");
      // A browser that allows sound before a tap plays the greeting at once; one that refuses asks for the tap.
      const unmute = page.getByTestId("h5-stage-unmute");
      await expect.poll(async () => (await unmute.count()) > 0 || (await stage.getAttribute("data-mode")) === "idle", { timeout: 20_000 }).toBe(true);
      if (await unmute.count()) await unmute.tap();
      await expect.poll(() => stage.getAttribute("data-mode"), { timeout: 20_000 }).toBe("idle");
      await expect
        .poll(async () => (await sql("SELECT count(*)::int AS n FROM digital_instance WHERE app_id = $1 AND state = 'running'", [appId]))[0].n)
        .toBe(1);

      // The figure is keyed in the page: its green is gone, the person stays, and it stands where the scene says.
      const keyed = async () =>
        page.evaluate(() => {
          const c = document.querySelector<HTMLCanvasElement>("[data-testid=h5-stage] canvas");
          if (!c || !c.width) return null;
          const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
          let clear = 0;
          let solid = 0;
          for (let i = 3; i < data.length; i += 4) {
            if (data[i] === 0) clear++;
            else if (data[i] === 255) solid++;
          }
          return { clear: clear / (data.length / 4), solid: solid / (data.length / 4) };
        });
      await expect.poll(async () => (await keyed())?.clear ?? 0, { timeout: 15_000 }).toBeGreaterThan(0.5);
      expect((await keyed())!.solid).toBeGreaterThan(0.1);
      const shown = (await stage.locator("canvas").boundingBox())!;
      expect(shown.x + shown.width / 2).toBeCloseTo(375 / 2, -1);
      await noSidewaysScroll(page);
      await shot(page, "dh-app-phone-idle");

      // A question: answered in text, and the figure speaks it.
      await page.getByTestId("h5-text").fill("Who are you?");
      await page.getByTestId("h5-send").tap();
      const answer = page.locator("[data-testid=h5-answer]").last();
      await expect.poll(() => answer.getAttribute("data-status"), { timeout: 30_000 }).toBe("done");
      await expect.poll(() => stage.getAttribute("data-speaking"), { timeout: 20_000 }).toBe("true");
      await shot(page, "dh-app-phone-speaking");
      const [spoken] = await sql(
        "SELECT count(*)::int AS n FROM digital_instance_file f JOIN digital_instance i ON i.id = f.instance_id WHERE i.app_id = $1 AND f.kind = 'speech'",
        [appId],
      );
      expect(spoken.n).toBe(1);
      await noSidewaysScroll(page);

      // On a desktop the upright scene stands in the middle, the chat over it.
      const desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL });
      const deskPage = await desk.newPage();
      await deskPage.goto(`/mobi/dialogue?app=${appId}`);
      await deskPage.getByTestId("h5-stage").waitFor();
      await shot(deskPage, "dh-app-desktop");
      await desk.close();
      await phone.close();
      expect(errors).toEqual([]);
    } finally {
      await removeVoiceModel(channel.id, model.id);
      await fake.close();
    }
  }, 120_000);
});
