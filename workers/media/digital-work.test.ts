// The digital humans' file work on the file store, with the real ffmpeg: a filming video measured
// (green screen or room), and a figure's loop and keyed still written beside the original, all or none.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_KEY } from "../../server/media/file-facts.schema";
import { makeMp4 } from "../../tests/helpers/sample-files";
import { createFileWork } from "./index";
import { probeMedia } from "./probe";
import { MediaToolError } from "./run-tool";
import { useTempFileStore } from "./test-file-store";
import { renderFilmingVideo, renderTestTone, TEST_FIGURE_SKIN } from "./test-sources";

const store = useTempFileStore("acct1");
const work = createFileWork();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-digital-test-"));
const out = (name: string) => path.join(tmp, name);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const ourTempFolders = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith("zelin-media-")).length;

let green = "";
let room = "";
beforeAll(async () => {
  await renderFilmingVideo(out("green.mp4"), { width: 1920, height: 1080, seconds: 3, audio: true });
  await renderFilmingVideo(out("room.webm"), { width: 640, height: 360, seconds: 2, fps: 30000 / 1001, backdrop: "room" });
  green = await store.put("green1.mp4", out("green.mp4"), "video/mp4");
  room = await store.put("room1.webm", out("room.webm"), "video/webm");
}, 60_000);

const hexChannels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
/** The RGBA pixel at (x, y) of a PNG. */
async function pixelAt(png: Buffer, x: number, y: number) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [...data.subarray(at, at + 4)];
}
/** A point on the figure's face whichever way it sways: its centre line, 30% down its height (it stands at the bottom, 75% of the frame tall). */
const onFace = (width: number, height: number) => [width / 2, Math.round(height * (0.25 + 0.75 * 0.3))] as const;
const nearSkin = ([r, g, b]: number[]) =>
  Math.abs(r - TEST_FIGURE_SKIN.r) < 24 && Math.abs(g - TEST_FIGURE_SKIN.g) < 24 && Math.abs(b - TEST_FIGURE_SKIN.b) < 24;

describe("measuring a filming video", { timeout: 60_000 }, () => {
  it("finds a green screen: green border, the key colour, the size, frame rate, length and sound", async () => {
    const facts = await work.measureFilming(green);
    expect(facts).toMatchObject({ width: 1920, height: 1080, fps: 25, hasAudio: true });
    expect(Math.abs(facts.durationMs! - 3000)).toBeLessThan(100);
    expect(facts.greenShare).toBeGreaterThan(0.9);
    const [r, g, b] = hexChannels(facts.keyColor);
    expect(r).toBeLessThan(16);
    expect(g).toBeGreaterThan(240);
    expect(b).toBeLessThan(16);
    expect([true, false, null]).toContain(facts.faceFound);
  });

  it("finds a room's wall (in a browser's recording, which states no length) no green screen, its colour the key's suggestion", async () => {
    const facts = await work.measureFilming(room);
    expect(facts).toMatchObject({ width: 640, height: 360, fps: 29.97, hasAudio: false });
    expect(Math.abs(facts.durationMs! - 2000)).toBeLessThan(100);
    expect(facts.greenShare).toBeLessThan(0.05);
    const [r, g, b] = hexChannels(facts.keyColor);
    expect([Math.abs(r - 0xb8), Math.abs(g - 0xa8), Math.abs(b - 0x90)].every((d) => d < 12)).toBe(true);
  });

  it("measures a recording with no picture as having none", async () => {
    await renderTestTone(out("voice.m4a"), { seconds: 1 });
    const facts = await work.measureFilming(await store.put("voice1.m4a", out("voice.m4a"), "audio/mp4"));
    expect(facts).toMatchObject({ width: null, height: null, fps: null, hasAudio: true, faceFound: null, greenShare: 0 });
  });
});

describe("preparing a figure", { timeout: 60_000 }, () => {
  it("writes the loop (H.264/AAC, at most 1280 px, faststart) and a keyed still with alpha beside the original", async () => {
    const made = await work.prepareFigure(green, DEFAULT_KEY);
    expect(made).toMatchObject({ loop: "media/acct1/green1.loop.mp4", poster: "media/acct1/green1.keyed.png", width: 1280, height: 720 });
    expect(Math.abs(made.durationMs - 3000)).toBeLessThan(100);
    const loop = await probeMedia(store.pathOf(made.loop));
    expect(loop).toMatchObject({ video: { codec: "h264", width: 1280, height: 720, pixFmt: "yuv420p" }, audio: { codec: "aac" } });
    const bytes = fs.readFileSync(store.pathOf(made.loop));
    expect(bytes.indexOf("moov")).toBeLessThan(bytes.indexOf("mdat"));
    const still = fs.readFileSync(store.pathOf(made.poster));
    expect(await sharp(still).metadata()).toMatchObject({ format: "png", width: 1280, height: 720, hasAlpha: true });
    expect((await pixelAt(still, 8, 8))[3]).toBe(0);
    const figure = await pixelAt(still, ...onFace(1280, 720));
    expect(figure[3]).toBe(255);
    expect(nearSkin(figure)).toBe(true);
    expect([store.contentTypeOf(made.loop), store.contentTypeOf(made.poster)]).toEqual(["video/mp4", "image/png"]);
  });

  it("fails on a corrupt clip with a clear error, writing nothing and leaving no temporary folder", async () => {
    const before = ourTempFolders();
    const key = await store.put("broken1.mp4", makeMp4(32 * 1024), "video/mp4");
    const failure = await work.prepareFigure(key, DEFAULT_KEY).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MediaToolError);
    await expect(work.measureFilming(key)).rejects.toThrow(/^probing the file failed: /);
    expect(store.listed().filter((f) => f.startsWith("broken1."))).toEqual(["broken1.mp4"]);
    expect(ourTempFolders()).toBe(before);
  });
});
