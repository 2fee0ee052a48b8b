// Generated pictures and videos in the chats, reopened from history: the stored reply of an agent
// on a picture or video model is markdown (a picture shown, a video linked), and both the debug
// chat and the H5 chat show it as media. The picture fits the bubble and opens full size; the
// video plays in place with its controls; nothing scrolls sideways on a 375 px phone. The files are
// put in the store through the multimedia library's upload, as a generation's results are; the
// dialogue is written as a media turn leaves it. CHAT_MEDIA_SHOTS=<dir> also saves screenshots.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";
import { makePng } from "../helpers/png";
import { openSession, signedInContext, uploadToLibrary, type TScreen } from "../helpers/e2e-accounts";

const SHOTS = process.env.CHAT_MEDIA_SHOTS;
const SAMPLE_MP4 = path.resolve(import.meta.dirname, "../fixtures/media/sample.mp4");

type THelpers = typeof import("../helpers/apps");
let apps: THelpers;
let browser: Browser;
let made: { appId: string; agentId: string; ownerId: string; token: string; picture: string; video: string };

const newId = () => `e2e${crypto.randomBytes(10).toString("hex")}`;

async function open(token: string, screen: TScreen): Promise<{ context: BrowserContext; page: Page }> {
  const context = await signedInContext(browser, token, { screen });
  return { context, page: await context.newPage() };
}

/** A dialogue as a media turn leaves it: the question, and the reply whose text is the results as markdown. */
async function writeDialogue(o: { accountId: string; agentId: string; appId?: string; question: string; reply: string }) {
  const id = newId();
  await sql("INSERT INTO dialogue (id, account_id, agent_id, app_id, source, title, last_message_at) VALUES ($1, $2, $3, $4, $5, $6, now())", [
    id,
    o.accountId,
    o.agentId,
    o.appId ?? null,
    o.appId ? "h5" : null,
    o.question,
  ]);
  await sql("INSERT INTO chat_message (id, dialogue_id, role, content, created_at) VALUES ($1, $2, 'user', $3, now() - interval '1 minute')", [
    newId(),
    id,
    o.question,
  ]);
  await sql("INSERT INTO chat_message (id, dialogue_id, role, content, status, created_at) VALUES ($1, $2, 'assistant', $3, 'done', now())", [
    newId(),
    id,
    o.reply,
  ]);
  return id;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** What the browser made of the reply's media, and whether each fits inside the reply's bubble. */
async function readMedia(reply: Locator, bubbleSelector: string) {
  await reply.locator("video").first().waitFor();
  await expect
    .poll(
      () =>
        reply
          .locator("video")
          .first()
          .evaluate((v: HTMLVideoElement) => v.readyState),
      { timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(1);
  await expect
    .poll(() =>
      reply
        .locator("img")
        .first()
        .evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth),
    )
    .toBeGreaterThan(0);
  return reply.evaluate((root, sel) => {
    const bubble = root.querySelector(sel)!.getBoundingClientRect();
    const video = root.querySelector("video")!;
    const img = root.querySelector("img")!;
    const link = img.closest("a");
    const inside = (r: DOMRect) => r.left >= bubble.left - 0.5 && r.right <= bubble.right + 0.5;
    return {
      video: {
        src: video.getAttribute("src"),
        controls: video.controls,
        playsInline: video.playsInline,
        preload: video.preload,
        width: video.videoWidth,
        inside: inside(video.getBoundingClientRect()),
      },
      picture: { src: img.getAttribute("src"), href: link?.getAttribute("href"), target: link?.target, inside: inside(img.getBoundingClientRect()) },
      // Links the reader sees (a player's fallback link shows only where video cannot play).
      links: [...root.querySelectorAll(".chat-md a")].filter((a) => !a.closest("video")).map((a) => a.getAttribute("href")),
      toolSteps: root.querySelectorAll("[data-testid=tool-step]").length,
      sideways: document.documentElement.scrollWidth > window.innerWidth,
    };
  }, bubbleSelector);
}

beforeAll(async () => {
  apps = await import("../helpers/apps");
  browser = await launchBrowser();
  const { appId, agentId, owner } = await apps.createTestApp({ input: { output_modes: ["text", "image", "video"] } as never });
  const token = await openSession(owner.id);
  const { context, page } = await open(token, "desktop");
  await page.goto("/multimedia");
  await page.waitForSelector("html[data-hydrated]");
  const { url: picture } = await uploadToLibrary(page, "crane.png", "image/png", makePng(1024, 768, 110));
  const { url: video } = await uploadToLibrary(page, "crane.mp4", "video/mp4", fs.readFileSync(SAMPLE_MP4));
  await context.close();
  made = { appId, agentId, ownerId: owner.id, token, picture, video };
});
afterAll(() => browser?.close());

describe("generated pictures and videos in the chats", () => {
  it("the debug chat shows a stored picture reply and video reply as media, at desktop and phone width", async () => {
    const reply = `![1](${made.picture})\n\n[▶ 2](${made.video})`;
    expect(made.video).toMatch(/\.mp4$/);
    const dialogueId = await writeDialogue({ accountId: made.ownerId, agentId: made.agentId, question: "A crane by the lake", reply });
    for (const [name, device] of [
      ["desktop", "desktop"],
      ["phone", "phone-375"],
    ] as const) {
      const { context, page } = await open(made.token, device);
      await page.goto(`/dialogue?agent_id=${made.agentId}&dialogue_id=${dialogueId}`);
      await page.waitForSelector("html[data-hydrated]");
      const answer = page.locator("[data-testid=assistant-message]").last();
      const seen = await readMedia(answer, "[data-testid=answer]");
      expect(seen.video).toEqual({ src: made.video, controls: true, playsInline: true, preload: "metadata", width: 320, inside: true });
      expect(seen.picture).toEqual({ src: made.picture, href: made.picture, target: "_blank", inside: true });
      // The video's link became the player: the only link left is the picture's.
      expect(seen.links).toEqual([made.picture]);
      expect(seen.toolSteps).toBe(0);
      expect(seen.sideways).toBe(false);
      await shot(page, `dialogue-media-${name}`);

      if (name === "desktop") {
        // The picture opens full size in a tab of its own.
        const [tab] = await Promise.all([context.waitForEvent("page"), answer.locator("[data-testid=reply-picture]").click()]);
        await tab.waitForLoadState();
        expect(new URL(tab.url()).pathname).toBe(made.picture);
        await tab.close();
        // The video plays where it is.
        await answer.locator("video").evaluate((v: HTMLVideoElement) => ((v.muted = true), v.play()));
        await expect.poll(() => answer.locator("video").evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);
      }
      await context.close();
    }
  });

  it("the H5 chat shows them the same when the dialogue is reopened from its history on a 375 px phone", async () => {
    const reply = `[▶ 1](${made.video})\n\n![2](${made.picture})`;
    await writeDialogue({ accountId: made.ownerId, agentId: made.agentId, appId: made.appId, question: "Film the crane", reply });
    const { context, page } = await open(made.token, "phone-375");
    await page.goto(`/mobi/dialogue?app=${made.appId}`);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=h5-history-open]").click();
    const item = page.locator("[data-testid=h5-history] .h5-history button", { hasText: "Film the crane" }).first();
    await item.click();
    const answer = page.locator("[data-testid=h5-answer]").last();
    const seen = await readMedia(answer, ".h5-bubble");
    expect(seen.video).toEqual({ src: made.video, controls: true, playsInline: true, preload: "metadata", width: 320, inside: true });
    expect(seen.picture).toEqual({ src: made.picture, href: made.picture, target: "_blank", inside: true });
    expect(seen.links).toEqual([made.picture]);
    expect(seen.sideways).toBe(false);
    await shot(page, "h5-media-phone");
    await context.close();
  });

  it("an ordinary link in a reply stays a link", async () => {
    const dialogueId = await writeDialogue({
      accountId: made.ownerId,
      agentId: made.agentId,
      question: "Where are the docs?",
      reply: "See [the guide](https://example.com/guide) or [the watch page](https://example.com/watch?v=a.mp4).",
    });
    const { context, page } = await open(made.token, "desktop");
    await page.goto(`/dialogue?agent_id=${made.agentId}&dialogue_id=${dialogueId}`);
    await page.waitForSelector("html[data-hydrated]");
    const answer = page.locator("[data-testid=assistant-message]").last().locator("[data-testid=answer]");
    await expect.poll(() => answer.locator("a").count()).toBe(2);
    expect(await answer.locator("video").count()).toBe(0);
    await context.close();
  });
});
