// Videos for the page, made by the real ffmpeg: a poster frame that is a real JPEG, and an
// H.264/AAC MP4 (faststart, at most 1280 px wide, even sides) of whatever a phone would not play.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { makeMp4 } from "../../tests/helpers/sample-files";
import { probeMedia } from "./probe";
import { MediaToolError } from "./run-tool";
import { renderTestVideo } from "./test-sources";
import { isPhonePlayable, posterSecond, renderPoster, transcodeToMp4 } from "./video";

const FIXTURES = path.resolve(import.meta.dirname, "../../tests/fixtures/media");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-video-test-"));
const out = (name: string) => path.join(tmp, name);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Whether the MP4's index (moov) comes before its media data (mdat), so playback starts early. */
function isFaststart(file: string) {
  const bytes = fs.readFileSync(file);
  const moov = bytes.indexOf("moov");
  return moov > 0 && moov < bytes.indexOf("mdat");
}

describe("which videos play as they are", () => {
  it("takes an H.264/AAC MP4 as it is, and not a VP8 WebM or an H.264 QuickTime file", async () => {
    expect(isPhonePlayable(await probeMedia(path.join(FIXTURES, "sample.mp4")))).toBe(true);
    expect(isPhonePlayable(await probeMedia(path.join(FIXTURES, "sample.webm")))).toBe(false);
    await renderTestVideo(out("h264.mov"), { width: 320, height: 240, seconds: 1, audio: true });
    const mov = await probeMedia(out("h264.mov"));
    expect(mov.video?.codec).toBe("h264");
    expect(isPhonePlayable(mov)).toBe(false);
  });

  it("takes the poster one second in, or in the middle of a clip shorter than two", () => {
    expect(posterSecond(10_000)).toBe(1);
    expect(posterSecond(2000)).toBe(1);
    expect(posterSecond(1200)).toBeCloseTo(0.6);
    expect(posterSecond(null)).toBe(0);
  });
});

describe("poster frames", () => {
  it.each(["sample.mp4", "sample.webm"])("takes a real JPEG of %s at its size", async (name) => {
    const input = path.join(FIXTURES, name);
    await renderPoster(input, out(`${name}.jpg`), await probeMedia(input));
    const meta = await sharp(fs.readFileSync(out(`${name}.jpg`))).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 320, height: 240 });
  });

  it("takes one from a clip shorter than a second", async () => {
    await renderTestVideo(out("short.mp4"), { width: 160, height: 120, seconds: 0.4 });
    const probe = await probeMedia(out("short.mp4"));
    await renderPoster(out("short.mp4"), out("short.jpg"), probe);
    expect(await sharp(fs.readFileSync(out("short.jpg"))).metadata()).toMatchObject({ format: "jpeg", width: 160, height: 120 });
  });
});

describe("the playable copy", () => {
  it("makes an H.264 MP4 of the WebM sample (no sound in, none out), faststart", async () => {
    const input = path.join(FIXTURES, "sample.webm");
    await transcodeToMp4(input, out("webm.mp4"), await probeMedia(input));
    const probe = await probeMedia(out("webm.mp4"));
    expect(probe).toMatchObject({ durationMs: expect.any(Number), video: { codec: "h264", width: 320, height: 240, pixFmt: "yuv420p" }, audio: null });
    expect(Math.abs(probe.durationMs! - 2000)).toBeLessThan(150);
    expect(isPhonePlayable(probe)).toBe(true);
    expect(isFaststart(out("webm.mp4"))).toBe(true);
  });

  it("scales a wide VP8/Opus WebM down to 1280 px with even sides, and its sound to AAC", { timeout: 120_000 }, async () => {
    await renderTestVideo(out("wide.webm"), { width: 1366, height: 770, seconds: 1, fps: 10, audio: true, codec: "vp8" });
    const source = await probeMedia(out("wide.webm"));
    expect(source).toMatchObject({ video: { codec: "vp8" }, audio: { codec: "opus" } });
    await transcodeToMp4(out("wide.webm"), out("wide.mp4"), source);
    const probe = await probeMedia(out("wide.mp4"));
    // 1366x770 → 1280 wide keeps 1280/1366 of the height: 721.5, made even.
    expect(probe).toMatchObject({ video: { codec: "h264", width: 1280, height: 722, pixFmt: "yuv420p" }, audio: { codec: "aac", channels: 2 } });
    expect(isPhonePlayable(probe)).toBe(true);
    expect(isFaststart(out("wide.mp4"))).toBe(true);
  });

  it("only changes the container of H.264/AAC in QuickTime (the streams are copied)", async () => {
    const source = await probeMedia(out("h264.mov"));
    await transcodeToMp4(out("h264.mov"), out("mov.mp4"), source);
    const probe = await probeMedia(out("mov.mp4"));
    expect(probe).toMatchObject({ video: { codec: "h264", width: 320, height: 240 }, audio: { codec: "aac" } });
    expect(isPhonePlayable(probe)).toBe(true);
  });

  it("refuses a corrupt video with a clear error", async () => {
    fs.writeFileSync(out("corrupt.mp4"), makeMp4(16 * 1024));
    await expect(probeMedia(out("corrupt.mp4"))).rejects.toThrow(MediaToolError);
    const pretend = {
      format: "mov,mp4",
      brand: "isom",
      durationMs: 2000,
      video: { codec: "h264", width: 320, height: 240, pixFmt: "yuv420p", rotation: 0 },
      audio: null,
    };
    await expect(renderPoster(out("corrupt.mp4"), out("corrupt.jpg"), pretend)).rejects.toThrow(/^taking the poster frame failed: /);
    await expect(transcodeToMp4(out("corrupt.mp4"), out("corrupt-play.mp4"), { ...pretend, video: { ...pretend.video, codec: "vp8" } })).rejects.toThrow(
      /^making the playable copy failed: /,
    );
  });
});
