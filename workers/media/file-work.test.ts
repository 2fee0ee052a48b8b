// The worker's file tools on the file store (a local folder here): each reads an original by its
// key and writes its derivatives beside it under `<base>.<variant>.<ext>` with their content types;
// a file the tools cannot read fails with a clear error and leaves no derivative and no temporary
// folder behind.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../server/env";
import { dropSingleton } from "../../server/lib/singleton";
import { getFileStore } from "../../server/uploads/file-store";
import { makePng } from "../../tests/helpers/png";
import { makeMp4 } from "../../tests/helpers/sample-files";
import { createFileWork } from "./index";
import { probeMedia } from "./probe";
import { MediaToolError } from "./run-tool";
import { renderTestJpeg } from "./test-sources";

const FIXTURES = path.resolve(import.meta.dirname, "../../tests/fixtures/media");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-file-work-test-"));
const work = createFileWork();
const folder = path.join(dataDir, "files", "media", "acct1");

/** Files of the test account's folder (not the content-type files beside them). */
const listed = () =>
  fs
    .readdirSync(folder)
    .filter((f) => !f.endsWith(".meta.json"))
    .sort();
const contentTypeOf = (name: string) => JSON.parse(fs.readFileSync(path.join(folder, `${name}.meta.json`), "utf8")).contentType;
const ourTempFolders = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith("zelin-media-")).length;

async function put(name: string, bytes: Buffer, contentType: string) {
  await getFileStore().put(`media/acct1/${name}`, bytes, contentType);
  return `media/acct1/${name}`;
}

beforeAll(() => {
  process.env.DATA_DIR = dataDir;
  resetEnvCache();
  dropSingleton("file-store");
});
afterAll(() => {
  dropSingleton("file-store");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("derivatives in the file store", () => {
  it("writes a picture's web size and thumbnail beside it, upright", async () => {
    const key = await put("photo1.jpg", await renderTestJpeg(2400, 1600, { orientation: 8 }), "image/jpeg");
    expect(await work.deriveImage(key)).toEqual({ width: 1600, height: 2400, web: "media/acct1/photo1.web.webp", thumb: "media/acct1/photo1.thumb.webp" });
    expect(await sharp(path.join(folder, "photo1.web.webp")).metadata()).toMatchObject({ format: "webp", width: 1067, height: 1600 });
    expect(await sharp(path.join(folder, "photo1.thumb.webp")).metadata()).toMatchObject({ format: "webp", width: 267, height: 400 });
    expect(contentTypeOf("photo1.thumb.webp")).toBe("image/webp");
  });

  it("gives the WebM sample a poster and an H.264 copy, and the MP4 sample only a poster", async () => {
    const webm = await put("clip1.webm", fs.readFileSync(path.join(FIXTURES, "sample.webm")), "video/webm");
    expect(await work.deriveVideo(webm)).toEqual({
      durationMs: 2000,
      videoCodec: "vp8",
      audioCodec: null,
      width: 320,
      height: 240,
      poster: "media/acct1/clip1.poster.jpg",
      play: "media/acct1/clip1.play.mp4",
    });
    expect(await sharp(path.join(folder, "clip1.poster.jpg")).metadata()).toMatchObject({ format: "jpeg", width: 320, height: 240 });
    expect(await probeMedia(path.join(folder, "clip1.play.mp4"))).toMatchObject({ video: { codec: "h264" }, audio: null });
    expect([contentTypeOf("clip1.poster.jpg"), contentTypeOf("clip1.play.mp4")]).toEqual(["image/jpeg", "video/mp4"]);

    const mp4 = await put("clip2.mp4", fs.readFileSync(path.join(FIXTURES, "sample.mp4")), "video/mp4");
    expect(await work.deriveVideo(mp4)).toMatchObject({ videoCodec: "h264", audioCodec: "aac", poster: "media/acct1/clip2.poster.jpg", play: null });
    expect(listed().filter((f) => f.startsWith("clip2."))).toEqual(["clip2.mp4", "clip2.poster.jpg"]);
  });

  it("writes a normalised MP3 of a sound, and a 200x200 PNG of an icon", async () => {
    const sound = await put("voice1.mp3", fs.readFileSync(path.join(FIXTURES, "sample.mp3")), "audio/mpeg");
    expect(await work.deriveAudio(sound)).toMatchObject({ audioCodec: "mp3", norm: "media/acct1/voice1.norm.mp3" });
    expect(contentTypeOf("voice1.norm.mp3")).toBe("audio/mpeg");

    const icon = await put("icon1.png", makePng(640, 480), "image/png");
    expect(await work.normaliseIcon(icon)).toEqual({ icon: "media/acct1/icon1.icon.png" });
    expect(await sharp(path.join(folder, "icon1.icon.png")).metadata()).toMatchObject({ format: "png", width: 200, height: 200 });
  });

  it("fails on a corrupt video with a clear error, leaving no derivative and no temporary folder", async () => {
    const before = ourTempFolders();
    const key = await put("broken1.mp4", makeMp4(32 * 1024), "video/mp4");
    const failure = await work.deriveVideo(key).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MediaToolError);
    expect((failure as Error).message).toMatch(/^probing the file failed: /);
    expect(listed().filter((f) => f.startsWith("broken1."))).toEqual(["broken1.mp4"]);
    expect(ourTempFolders()).toBe(before);
  });

  it("fails on a missing original, and on a picture that is not one, writing nothing", async () => {
    await expect(work.deriveImage("media/acct1/nothing.png")).rejects.toThrow("the stored file media/acct1/nothing.png is not there");
    const key = await put("fake1.png", Buffer.from("GIF89a, not a PNG"), "image/png");
    await expect(work.deriveImage(key)).rejects.toThrow(MediaToolError);
    await expect(work.normaliseIcon(key)).rejects.toThrow(MediaToolError);
    expect(listed().filter((f) => f.startsWith("fake1."))).toEqual(["fake1.png"]);
  });
});
