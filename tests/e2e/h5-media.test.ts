// The H5 app's voice and image input and voice output in Chromium at phone size. A
// signed-out visitor records a clip with Chromium's fake microphone and gets its transcription in
// the input, attaches a picture and sends it (the model receives an image content part, the
// conversation shows the picture), has the reply read aloud (the speech model is asked with the
// reply's text and the browser plays the audio), then reloads and reopens the dialogue from the
// history: the picture is still there. An app that auto-plays plays each reply from the audio its
// stream closed with (close.audio), without asking for speech again. Refusals: an app without
// voice input shows no microphone, and a file that is not a picture is refused in the reader's
// language with nothing sent upstream.
//
// The models are on a loopback fake upstream this file starts (it records what it receives): a
// chat model for the agent and a voice model for transcription and speech, added through the
// administration API as an administrator would.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFakeOpenai } from "../fakes/fake-openai";
import { PHONE, launchBrowser } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";
import { readLocale } from "../helpers/locales";
import { makePng } from "../helpers/png";
import { makeWav } from "../helpers/sample-files";

const baseURL = inject("webUrl");
const uid = () => crypto.randomBytes(4).toString("hex");
const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
const TRANSCRIPT = "What is in this picture?";
const REPLY = "A grey picture with light and dark stripes.";
const MEDIA_ARGS = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", "--autoplay-policy=no-user-gesture-required"];

type THelpers = typeof import("../helpers/apps");
let apps: THelpers;
let browser: Browser;
let fake: Awaited<ReturnType<typeof startFakeOpenai>>;
const chat = { model: `e2e-media-chat-${uid()}`, key: `sk-media-chat-${uid()}` };
// "whisper" and "tts" in the key: the voice routes try the best-named model first for each use.
const voice = { model: `e2e-whisper-tts-${uid()}`, key: `sk-media-voice-${uid()}` };

async function admin(path: string, body: unknown) {
  const res = await fetch(`${baseURL}/api${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${inject("adminToken")}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { status: number; description: string };
  if (json.status !== 200) throw new Error(`${path}: ${json.status} ${json.description}`);
}

async function phonePage(lang: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE, userAgent: IPHONE_UA, baseURL });
  await context.addCookies([{ name: "lang", value: lang, url: baseURL }]);
  // Records what the page's <audio> did: the player is not in the document, so its events are
  // caught where play() is called.
  await context.addInitScript(() => {
    const w = window as unknown as { __zlAudio: string[] };
    w.__zlAudio = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      for (const type of ["playing", "ended", "error"]) this.addEventListener(type, () => w.__zlAudio.push(type), { once: true });
      return play.call(this);
    };
  });
  return { context, page: await context.newPage() };
}

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-hydrated]");
}

async function lastAnswerStatus(page: Page) {
  const last = page.locator("[data-testid=h5-answer]").last();
  await expect.poll(async () => last.getAttribute("data-status"), { timeout: 30_000 }).not.toBe("streaming");
  return last.getAttribute("data-status");
}

/** The pictures of the conversation's questions, as the browser decoded them. */
const questionImages = (page: Page) =>
  page
    .locator("[data-testid=h5-question-image]")
    .evaluateAll((els) => (els as HTMLImageElement[]).map((img) => ({ src: new URL(img.src).pathname, width: img.complete ? img.naturalWidth : 0 })));

/** Pathnames of the page's requests to the app runtime, as they leave the browser. */
function watchRequests(page: Page) {
  const paths: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) paths.push(url.pathname);
  });
  return paths;
}

/** An on-shelf app of a new owner whose agent chats on the fake upstream's model. */
async function makeMediaApp(input: Record<string, unknown>) {
  const owner = await apps.makeAppOwner();
  const agentId = await apps.makeLiveAgent(owner, { model_key: chat.model });
  return apps.createTestApp({
    owner,
    agentId,
    input: { free_per_day: 20, welcome_messages: ["Send me a voice note or a picture."], recommended_questions: [], ...input } as never,
  });
}

beforeAll(async () => {
  apps = await import("../helpers/apps");
  fake = await startFakeOpenai();
  fake.setTranscript(TRANSCRIPT);
  // The fake's default speech bytes are not audio a browser can decode; a short tone is.
  fake.setSpeechAudio(makeWav(2.5));
  fake.setBehaviour(chat.key, { stream: { text: REPLY, chunks: 4, delayMs: 30 } });
  await admin("/v1/admin/models", { key: chat.model, display_name: "E2E图文", kind: "text", context_window: 32000 });
  await admin("/v1/admin/channels", { name: `media chat ${uid()}`, type: "custom", base_url: fake.base, key: chat.key, models: [chat.model], weight: 1 });
  await admin("/v1/admin/models", { key: voice.model, display_name: "E2E语音", kind: "voice" });
  await admin("/v1/admin/channels", { name: `media voice ${uid()}`, type: "openai", base_url: fake.base, key: voice.key, models: [voice.model], weight: 1 });
  browser = await launchBrowser({ extraArgs: MEDIA_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await fake?.close();
});

describe("H5 voice and pictures on a phone", () => {
  it("transcribes a recorded clip, sends a picture to the model, reads the reply aloud, and keeps the picture in history", async () => {
    const en = readLocale("en", "h5");
    const { appId } = await makeMediaApp({
      name: "Media helper",
      input_modes: ["text", "voice", "image"],
      output_modes: ["text", "voice"],
      speaker: "nova",
      auto_play: false,
    });
    const { context, page } = await phonePage("en");
    const requests = watchRequests(page);
    await page.goto(`/mobi/dialogue?app=${appId}`);
    await hydrated(page);
    expect((await context.cookies()).some((c) => c.name === "zl_visitor")).toBe(true);

    // (a) Tap the microphone, speak (Chromium's fake device plays a tone), tap again: the clip is
    // uploaded, the voice model transcribes it, and the text lands in the input.
    const mic = page.locator("[data-testid=h5-voice]");
    expect(await mic.getAttribute("aria-label")).toBe(en.input.voice);
    await mic.click();
    await expect.poll(() => mic.getAttribute("class")).toContain("is-recording");
    expect(await mic.getAttribute("aria-label")).toBe(en.input.voice_stop);
    expect(await page.locator("[data-testid=h5-text]").getAttribute("placeholder")).toBe(en.input.recording);
    await page.waitForTimeout(1500);
    await mic.click();
    await expect.poll(() => page.locator("[data-testid=h5-text]").inputValue(), { timeout: 20_000 }).toBe(TRANSCRIPT);
    const clips = fake.audio.filter((a) => a.kind === "transcription");
    expect(clips).toHaveLength(1);
    expect(clips[0]).toMatchObject({ key: voice.key, model: voice.model, filename: "voice.webm" });
    // A real WebM recording (EBML header), not an empty or made-up body.
    expect(clips[0].file!.subarray(0, 4).equals(EBML)).toBe(true);
    expect(clips[0].file!.length).toBeGreaterThan(1000);
    expect(requests).toContain("/api/v2/app/transcribe");

    // (b) Attach a picture: uploaded at once and shown beside the input; sent with the transcribed text.
    const png = makePng(400, 300, 90);
    await page.locator("[data-testid=h5-input] input[type=file]").setInputFiles({ name: "stripes.png", mimeType: "image/png", buffer: png });
    await expect.poll(() => page.locator(".h5-input__images img").count()).toBe(1);
    const imageUrl = new URL((await page.locator(".h5-input__images img").getAttribute("src"))!, baseURL).pathname;
    expect(imageUrl).toMatch(new RegExp(`^/files/images/app/${appId}/`));
    await page.locator("[data-testid=h5-send]").click();
    expect(await lastAnswerStatus(page)).toBe("done");
    expect(await page.locator("[data-testid=h5-answer]").last().textContent()).toContain(REPLY);
    // The model received the question as content parts: the text, then the picture's bytes.
    const sent = fake.receivedFor(chat.key);
    expect(sent).toHaveLength(1);
    const question = sent[0].body.messages.filter((m: { role: string }) => m.role === "user").at(-1);
    expect(question.content[0]).toEqual({ type: "text", text: expect.stringContaining(TRANSCRIPT) });
    expect(question.content[1]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } });
    // The conversation shows the picture above the question, decoded at its size; the input is cleared.
    await expect.poll(() => questionImages(page)).toEqual([{ src: imageUrl, width: 400 }]);
    expect(await page.locator("[data-testid=h5-question]").first().textContent()).toBe(TRANSCRIPT);
    expect(await page.locator(".h5-input__images img").count()).toBe(0);

    // (c) Read the reply aloud: the speech model is asked with the reply's text in the app's speaker,
    // the button shows the playing state, and the browser plays the audio to its end.
    const speak = page.locator("[data-testid=h5-speak]").last();
    expect(await speak.getAttribute("aria-label")).toBe(en.chat.speak);
    await speak.click();
    await expect.poll(() => speak.getAttribute("aria-pressed")).toBe("true");
    expect(await speak.getAttribute("aria-label")).toBe(en.chat.speak_stop);
    // The button turns on as the request leaves; the upstream sees it a moment later.
    await expect.poll(() => fake.audio.filter((a) => a.kind === "speech").length).toBe(1);
    const spoken = fake.audio.filter((a) => a.kind === "speech");
    expect(spoken[0]).toMatchObject({ key: voice.key, model: voice.model, body: { input: REPLY, voice: "nova", response_format: "mp3" } });
    await expect.poll(() => page.evaluate(() => (window as unknown as { __zlAudio: string[] }).__zlAudio)).toContain("playing");
    if (process.env.H5_SHOTS) await page.screenshot({ path: `${process.env.H5_SHOTS}/h5-media-dialogue.png` });
    await expect.poll(() => page.evaluate(() => (window as unknown as { __zlAudio: string[] }).__zlAudio), { timeout: 15_000 }).toEqual(["playing", "ended"]);
    await expect.poll(() => speak.getAttribute("aria-pressed")).toBe("false");
    expect(await page.locator("[data-testid=h5-toast]").count()).toBe(0);

    // The question is stored with its picture.
    const rows = await sql(
      "SELECT m.role, m.content, m.images, d.id AS dialogue_id FROM chat_message m JOIN dialogue d ON d.id = m.dialogue_id WHERE d.app_id = $1 ORDER BY m.created_at",
      [appId],
    );
    expect(rows.map((r) => [r.role, r.images])).toEqual([
      ["user", [imageUrl]],
      ["assistant", []],
    ]);

    // (d) Reload: a fresh chat. The history reopens the dialogue, picture included.
    await page.reload();
    await hydrated(page);
    expect(await page.locator("[data-testid=h5-question]").count()).toBe(0);
    await page.locator("[data-testid=h5-history-open]").click();
    const item = page.locator("[data-testid=h5-history] .h5-history button").first();
    await expect.poll(() => item.textContent()).toContain(TRANSCRIPT.slice(0, 10));
    await item.click();
    await expect.poll(() => questionImages(page)).toEqual([{ src: imageUrl, width: 400 }]);
    expect(await page.locator("[data-testid=h5-question]").first().textContent()).toBe(TRANSCRIPT);
    expect(await page.locator("[data-testid=h5-answer]").last().textContent()).toContain(REPLY);
    // The history API says the same to the visitor who owns the dialogue.
    const view = await page.evaluate(
      async (id) => (await (await fetch(`/api/v2/app/dialogues/${id}`)).json()) as { data: { messages: { role: string; images: string[] }[] } },
      rows[0].dialogue_id as string,
    );
    expect(view.data.messages.map((m) => [m.role, m.images])).toEqual([
      ["user", [imageUrl]],
      ["assistant", []],
    ]);
    if (process.env.H5_SHOTS) await page.screenshot({ path: `${process.env.H5_SHOTS}/h5-media-history.png` });
    await context.close();
  });

  it("auto-plays a finished reply from the audio its stream closed with, asking for no speech again", async () => {
    const { appId } = await makeMediaApp({ input_modes: ["text"], output_modes: ["text", "voice"], auto_play: true, speaker: "coral" });
    const { context, page } = await phonePage("en");
    const requests = watchRequests(page);
    const files: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith("/files/media/")) files.push(url.pathname);
    });
    const spokenBefore = fake.audio.filter((a) => a.kind === "speech").length;
    await page.goto(`/mobi/dialogue?app=${appId}`);
    await hydrated(page);
    await page.locator("[data-testid=h5-text]").fill("Describe the picture");
    await page.locator("[data-testid=h5-send]").click();
    expect(await lastAnswerStatus(page)).toBe("done");
    // The server spoke the finished reply once, in the app's announcer, before the stream closed.
    const spoken = fake.audio.filter((a) => a.kind === "speech");
    expect(spoken).toHaveLength(spokenBefore + 1);
    expect(spoken.at(-1)).toMatchObject({ key: voice.key, body: { input: REPLY, voice: "coral" } });
    // The page plays that kept file to its end, and never calls the speech endpoint.
    await expect.poll(() => page.evaluate(() => (window as unknown as { __zlAudio: string[] }).__zlAudio), { timeout: 15_000 }).toEqual(["playing", "ended"]);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\/files\/media\/[^/]+\/speech\//);
    expect(requests).not.toContain("/api/v2/app/speech");
    expect(await page.locator("[data-testid=h5-answer]").last().textContent()).toContain(REPLY);
    await context.close();
  });

  it("shows no microphone without voice input, and refuses a file that is not a picture in the reader's language", async () => {
    const zh = readLocale("zh_hans", "h5");
    const zhErrors = readLocale("zh_hans", "errors");
    const textOnly = await makeMediaApp({ input_modes: ["text"] });
    const pictures = await makeMediaApp({ input_modes: ["text", "image"] });
    const { context, page } = await phonePage("zh_hans");
    const requests = watchRequests(page);

    // Text only: neither the microphone nor the picture button.
    await page.goto(`/mobi/dialogue?app=${textOnly.appId}`);
    await hydrated(page);
    await page.locator("[data-testid=h5-text]").waitFor();
    expect(await page.locator("[data-testid=h5-voice]").count()).toBe(0);
    expect(await page.locator("[data-testid=h5-image]").count()).toBe(0);

    // Pictures but no voice: the picture button, still no microphone.
    await page.goto(`/mobi/dialogue?app=${pictures.appId}`);
    await hydrated(page);
    await page.locator("[data-testid=h5-image]").waitFor();
    expect(await page.locator("[data-testid=h5-voice]").count()).toBe(0);
    const chatBefore = fake.requestsFor(chat.key);
    const input = page.locator("[data-testid=h5-input] input[type=file]");
    const toast = page.locator("[data-testid=h5-toast]");

    // A text file: refused in the browser, before any upload.
    await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just some notes") });
    await expect.poll(() => toast.textContent()).toBe(zh.input.image_type);
    expect(requests).not.toContain("/api/v2/app/image");

    // Text dressed as a PNG: the server looks at the bytes and refuses; its message is shown as is.
    await input.setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: Buffer.from("this is not a picture at all") });
    await expect.poll(() => toast.textContent()).toBe(zhErrors.file_type_not_allowed);
    expect(requests).toContain("/api/v2/app/image");
    expect(await page.locator(".h5-input__images img").count()).toBe(0);

    // Nothing reached the model, and the app has no dialogue.
    expect(fake.requestsFor(chat.key)).toBe(chatBefore);
    expect(requests).not.toContain("/api/v2/app/send_message/sse");
    const [dialogues] = await sql("SELECT count(*)::int AS n FROM dialogue WHERE app_id = ANY($1::text[])", [[textOnly.appId, pictures.appId]]);
    expect(dialogues.n).toBe(0);
    await context.close();
  });
});
