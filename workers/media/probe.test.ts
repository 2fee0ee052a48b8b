// Which programs the worker runs, and what probing a file says: through ffprobe, and through the
// report of `ffmpeg -i` when there is no ffprobe (the npm package's ffmpeg ships none). Both read
// the same facts from the same real files.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { makeMp4 } from "../../tests/helpers/sample-files";
import { resolveFfmpegPaths, setFfmpegPaths, SYSTEM_FFMPEG, SYSTEM_FFPROBE } from "./ffmpeg-path";
import { probeMedia } from "./probe";
import { MediaToolError } from "./run-tool";

const FIXTURES = path.resolve(import.meta.dirname, "../../tests/fixtures/media");
const NPM_FFMPEG = (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-probe-test-"));
/** An MP4's signature over noise: what a renamed or truncated upload looks like to the tools. */
const CORRUPT = path.join(tmp, "corrupt.mp4");
fs.writeFileSync(CORRUPT, makeMp4(8192));

afterEach(() => setFfmpegPaths(null));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("choosing ffmpeg", () => {
  const only =
    (...present: string[]) =>
    (file: string) =>
      present.includes(file);

  it("takes the settings first, then Debian's programs, then the npm package's ffmpeg without ffprobe", () => {
    const npm = () => "/npm/ffmpeg";
    expect(resolveFfmpegPaths({ FFMPEG_PATH: "/opt/ff", FFPROBE_PATH: "/opt/fp" }, { isExecutable: only("/opt/ff", "/opt/fp") })).toEqual({
      ffmpeg: "/opt/ff",
      ffprobe: "/opt/fp",
      source: "setting",
    });
    expect(resolveFfmpegPaths({}, { isExecutable: only(SYSTEM_FFMPEG, SYSTEM_FFPROBE, "/npm/ffmpeg"), findNpmFfmpeg: npm })).toEqual({
      ffmpeg: SYSTEM_FFMPEG,
      ffprobe: SYSTEM_FFPROBE,
      source: "system",
    });
    expect(resolveFfmpegPaths({}, { isExecutable: only("/npm/ffmpeg"), findNpmFfmpeg: npm })).toEqual({ ffmpeg: "/npm/ffmpeg", ffprobe: null, source: "npm" });
    expect(resolveFfmpegPaths({ FFMPEG_PATH: "/opt/ff" }, { isExecutable: only("/opt/ff", SYSTEM_FFPROBE) })).toMatchObject({ ffprobe: SYSTEM_FFPROBE });
  });

  it("refuses a setting that names no program, and a machine with no ffmpeg at all", () => {
    expect(() => resolveFfmpegPaths({ FFMPEG_PATH: "/nowhere/ffmpeg" }, { isExecutable: only(SYSTEM_FFMPEG) })).toThrow(
      'FFMPEG_PATH is "/nowhere/ffmpeg", which is not a program this process can run',
    );
    expect(() => resolveFfmpegPaths({ FFPROBE_PATH: "/nowhere/ffprobe" }, { isExecutable: only(SYSTEM_FFMPEG) })).toThrow(/^FFPROBE_PATH is/);
    expect(() => resolveFfmpegPaths({}, { isExecutable: only(), findNpmFfmpeg: () => null })).toThrow(/^no ffmpeg: install Debian's/);
  });

  it("finds this machine's Debian ffmpeg and ffprobe", () => {
    expect(resolveFfmpegPaths({})).toEqual({ ffmpeg: SYSTEM_FFMPEG, ffprobe: SYSTEM_FFPROBE, source: "system" });
  });
});

const EXPECTED = {
  "sample.mp4": {
    brand: "isom",
    durationMs: 2000,
    video: { codec: "h264", width: 320, height: 240, pixFmt: "yuv420p", rotation: 0 },
    audio: { codec: "aac", sampleRate: 44100, channels: 1 },
  },
  "sample.webm": {
    format: "matroska,webm",
    brand: "",
    durationMs: 2000,
    video: { codec: "vp8", width: 320, height: 240, pixFmt: "yuv420p", rotation: 0 },
    audio: null,
  },
  "sample.mp3": { format: "mp3", video: null, audio: { codec: "mp3", sampleRate: 44100, channels: 1 } },
};

describe.each([
  { tools: "ffprobe", paths: { ffmpeg: SYSTEM_FFMPEG, ffprobe: SYSTEM_FFPROBE, source: "system" as const } },
  { tools: "Debian's ffmpeg -i", paths: { ffmpeg: SYSTEM_FFMPEG, ffprobe: null, source: "system" as const } },
  { tools: "the npm package's 2018 ffmpeg -i", paths: { ffmpeg: NPM_FFMPEG, ffprobe: null, source: "npm" as const } },
])("probing through $tools", ({ paths }) => {
  it.each(Object.keys(EXPECTED) as Array<keyof typeof EXPECTED>)("reads %s", async (name) => {
    setFfmpegPaths(paths);
    const probe = await probeMedia(path.join(FIXTURES, name));
    expect(probe).toMatchObject(EXPECTED[name]);
    if (name === "sample.mp4") expect(probe.format.split(",")).toContain("mp4");
    if (name === "sample.mp3") expect(Math.abs(probe.durationMs! - 2040)).toBeLessThan(20);
  });

  it("refuses a file that is no media with a clear error", async () => {
    setFfmpegPaths(paths);
    await expect(probeMedia(CORRUPT)).rejects.toThrow(MediaToolError);
    await expect(probeMedia(CORRUPT)).rejects.toThrow(/^probing the file failed: /);
  });
});
