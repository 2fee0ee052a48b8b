// Composites made by the real ffmpeg from the file store: the figure keyed over a picture, a looping
// video or a colour, under the speech (whose length the video takes) or its own sound, in both
// orientations; and no green left on screen.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_KEY } from "../../server/media/file-facts.schema";
import type { TCompositeSpec } from "../../server/media/file-work";
import { canvasSize, compositeArgs, figureHeight, figureWindow } from "./composite";
import { createFileWork } from "./index";
import { probeMedia } from "./probe";
import { MediaToolError } from "./run-tool";
import { useTempFileStore } from "./test-file-store";
import { colourShare, decodeRgbFrames, renderFilmingVideo, renderTestTone, strongGreenShare, TEST_FIGURE_SKIN } from "./test-sources";

const store = useTempFileStore("acct2");
const work = createFileWork();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-composite-test-"));
const out = (name: string) => path.join(tmp, name);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const keys = { loop: "", speech: "", recorded: "", picture: "", room: "" };
beforeAll(async () => {
  await renderFilmingVideo(out("green.mp4"), { width: 640, height: 360, seconds: 2, audio: true });
  await renderFilmingVideo(out("room.mp4"), { width: 320, height: 240, seconds: 2, backdrop: "room" });
  await renderTestTone(out("speech.mp3"), { seconds: 7 });
  await renderTestTone(out("recorded.webm"), { seconds: 7 });
  keys.loop = (await work.prepareFigure(await store.put("figure1.mp4", out("green.mp4"), "video/mp4"), DEFAULT_KEY)).loop;
  keys.speech = await store.put("speech1.mp3", out("speech.mp3"), "audio/mpeg");
  keys.recorded = await store.put("recorded1.webm", out("recorded.webm"), "audio/webm");
  keys.room = await store.put("room1.mp4", out("room.mp4"), "video/mp4");
  // A 4:3 picture (covered and cropped either way) in a colour with no green in it.
  const picture = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#4a5a9a" } })
    .jpeg()
    .toBuffer();
  keys.picture = await store.put("backdrop1.jpg", picture, "image/jpeg");
}, 60_000);

const spec = (over: Partial<TCompositeSpec>): TCompositeSpec => ({
  outputKey: "media/acct2/out.mp4",
  orientation: "horizontal",
  height: 720,
  background: { kind: "image", key: keys.picture },
  figure: { key: keys.loop, ...DEFAULT_KEY },
  placement: { x: 0.5, y: 0.55, scale: 0.9 },
  audioKey: keys.speech,
  ...over,
});

/** What a viewer sees in every 50th frame (one each two seconds). */
const framesOf = (key: string) => decodeRgbFrames(store.pathOf(key), out(`${path.basename(key)}.rgb`), 50);

describe("the composite's shape", () => {
  it("is 1280x720 or 1920x1080 on its side, and stands up as 720x1280 or 1080x1920", () => {
    expect(canvasSize("horizontal", 720)).toEqual({ width: 1280, height: 720 });
    expect(canvasSize("vertical", 720)).toEqual({ width: 720, height: 1280 });
    expect(canvasSize("horizontal", 1080)).toEqual({ width: 1920, height: 1080 });
    expect(canvasSize("vertical", 1080)).toEqual({ width: 1080, height: 1920 });
    expect([figureHeight(0.9, 720), figureHeight(0.55, 1280), figureHeight(0.1, 15)]).toEqual([648, 704, 2]);
  });

  it("scales the figure before keying it, loops it under the speech and stops at the speech's length", () => {
    const facts = { figureSize: { width: 1280, height: 720 }, seconds: 7.04 };
    const args = compositeArgs({ background: { kind: "color", color: "#123456" }, figure: "f.mp4", audio: "a.mp3" }, spec({}), "o.mp4", facts);
    const graph = args[args.indexOf("-filter_complex") + 1];
    expect(graph).toContain("[1:v]fps=25,scale=1152:648,setsar=1,format=rgba,colorkey=color=0x00ff00:similarity=0.30:blend=0.10[fg]");
    expect(graph).toContain("overlay=x=64:y=72:");
    expect(args.join(" ")).toContain("-stream_loop -1 -i f.mp4");
    expect(args.slice(args.indexOf("-t"), args.indexOf("-t") + 2)).toEqual(["-t", "7.040"]);
    expect(args).toContain("color=c=0x123456:s=1280x720:r=25");
  });

  it("cuts a figure hanging off the canvas before scaling and keying it, still covering the canvas to its edges", () => {
    const canvas = { width: 720, height: 1280 };
    const win = figureWindow(canvas, { x: 0.95, y: 0.7, scale: 1.2 }, { width: 640, height: 360 });
    // 1536 px tall and 2731 wide, centred at x 684: only some 170 of the clip's 640 columns show.
    expect(win.whole).toBe(false);
    expect(win.crop).toMatchObject({ y: 0, height: 270 });
    expect(win.crop.width).toBeLessThan(180);
    expect([win.crop.x % 2, win.crop.width % 2]).toEqual([0, 0]);
    expect(win.at.x).toBeLessThanOrEqual(0);
    expect(win.at.x + win.size.width).toBeGreaterThanOrEqual(canvas.width);
    expect(win.at.y + win.size.height).toBeGreaterThanOrEqual(canvas.height);
    expect(figureWindow({ width: 1280, height: 720 }, { x: 0.5, y: 0.55, scale: 0.9 }, { width: 1280, height: 720 })).toEqual({
      crop: { x: 0, y: 0, width: 1280, height: 720 },
      size: { width: 1152, height: 648 },
      at: { x: 64, y: 72 },
      whole: true,
    });
  });

  it("refuses a colour that is not #rrggbb", () => {
    expect(() =>
      compositeArgs({ background: { kind: "color", color: "red" }, figure: "f.mp4", audio: null }, spec({}), "o.mp4", {
        figureSize: { width: 640, height: 360 },
        seconds: 2,
      }),
    ).toThrow(MediaToolError);
  });
});

describe("rendering", { timeout: 90_000 }, () => {
  it("keys the figure over a picture for the speech's 7 s, 1280x720, H.264/AAC, with no green left", async () => {
    const made = await work.composite(spec({ outputKey: "media/acct2/wide.mp4" }));
    expect(made).toMatchObject({ key: "media/acct2/wide.mp4", width: 1280, height: 720 });
    expect(Math.abs(made.durationMs - 7000)).toBeLessThanOrEqual(300);
    const probe = await probeMedia(store.pathOf(made.key));
    expect(probe).toMatchObject({ video: { codec: "h264", width: 1280, height: 720, pixFmt: "yuv420p" }, audio: { codec: "aac" } });
    expect(Math.abs(probe.durationMs! - 7000)).toBeLessThanOrEqual(300);
    expect(store.contentTypeOf(made.key)).toBe("video/mp4");
    // The figure's clip was mostly green; after keying almost none is, and the figure itself shows.
    expect(strongGreenShare(await decodeRgbFrames(out("green.mp4"), out("source.rgb"), 25))).toBeGreaterThan(0.5);
    const frames = await framesOf(made.key);
    expect(strongGreenShare(frames)).toBeLessThan(0.005);
    expect(colourShare(frames, TEST_FIGURE_SKIN)).toBeGreaterThan(0.02);
  });

  it("stands up (720x1280) over a looping video, the figure hanging off the edge", async () => {
    const made = await work.composite(
      spec({
        outputKey: "media/acct2/tall.mp4",
        orientation: "vertical",
        background: { kind: "video", key: keys.room },
        placement: { x: 0.95, y: 0.7, scale: 1.2 },
      }),
    );
    expect(made).toMatchObject({ width: 720, height: 1280 });
    expect(Math.abs(made.durationMs - 7000)).toBeLessThanOrEqual(300);
    expect(await probeMedia(store.pathOf(made.key))).toMatchObject({ video: { codec: "h264", width: 720, height: 1280 }, audio: { codec: "aac" } });
    const frames = await framesOf(made.key);
    expect(strongGreenShare(frames)).toBeLessThan(0.005);
    expect(colourShare(frames, TEST_FIGURE_SKIN)).toBeGreaterThan(0.01);
  });

  it("keeps the clip's own sound and length when there is no speech", async () => {
    const made = await work.composite(spec({ outputKey: "media/acct2/own.mp4", background: { kind: "color", color: "#203040" }, audioKey: null }));
    expect(Math.abs(made.durationMs - 2000)).toBeLessThanOrEqual(300);
    expect(await probeMedia(store.pathOf(made.key))).toMatchObject({ video: { codec: "h264", width: 1280, height: 720 }, audio: { codec: "aac" } });
  });

  it("fails on a speech file with no sound, writing nothing", async () => {
    const failure = await work.composite(spec({ outputKey: "media/acct2/none.mp4", audioKey: keys.room })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MediaToolError);
    expect((failure as Error).message).toBe("compositing failed: the speech file has no sound");
    expect(store.listed()).not.toContain("none.mp4");
  });
});
