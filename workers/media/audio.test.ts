// Sound for the page, made by the real ffmpeg: an MP3 at 44.1 kHz whose loudness is brought to
// -16 LUFS, from an MP3 and from a quiet 8 kHz WAV; a file without sound is refused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeWav } from "../../tests/helpers/sample-files";
import { normaliseAudio } from "./audio";
import { getFfmpegPaths } from "./ffmpeg-path";
import { probeMedia } from "./probe";
import { runToolOrFail } from "./run-tool";

const FIXTURES = path.resolve(import.meta.dirname, "../../tests/fixtures/media");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-audio-test-"));
const out = (name: string) => path.join(tmp, name);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Integrated loudness (LUFS) as ffmpeg's EBU R128 meter measures it. */
async function loudnessOf(file: string) {
  const { stderr } = await runToolOrFail(getFfmpegPaths().ffmpeg, ["-hide_banner", "-nostdin", "-i", file, "-af", "ebur128", "-f", "null", "-"], {
    timeoutMs: 60_000,
    step: "measuring loudness",
  });
  return Number(/Integrated loudness:\s+I:\s+(-?[\d.]+) LUFS/.exec(stderr)?.[1]);
}

describe("normalised sound", () => {
  it("makes a 44.1 kHz MP3 of the MP3 sample, as long as it", async () => {
    const input = path.join(FIXTURES, "sample.mp3");
    await normaliseAudio(input, out("sample.norm.mp3"), await probeMedia(input));
    const probe = await probeMedia(out("sample.norm.mp3"));
    expect(probe).toMatchObject({ format: "mp3", video: null, audio: { codec: "mp3", sampleRate: 44_100 } });
    expect(Math.abs(probe.durationMs! - 2040)).toBeLessThan(100);
  });

  it("brings a quiet 8 kHz recording up to -16 LUFS at 44.1 kHz", async () => {
    fs.writeFileSync(out("quiet.wav"), makeWav(3));
    expect(await loudnessOf(out("quiet.wav"))).toBeLessThan(-25);
    await normaliseAudio(out("quiet.wav"), out("quiet.norm.mp3"), await probeMedia(out("quiet.wav")));
    expect(await probeMedia(out("quiet.norm.mp3"))).toMatchObject({ audio: { codec: "mp3", sampleRate: 44_100 } });
    expect(Math.abs((await loudnessOf(out("quiet.norm.mp3"))) + 16)).toBeLessThan(1.5);
  });

  it("refuses a file without sound and writes nothing", async () => {
    const input = path.join(FIXTURES, "sample.webm");
    await expect(normaliseAudio(input, out("silent.mp3"), await probeMedia(input))).rejects.toThrow(
      "normalising the sound failed: the file has no audio stream",
    );
    expect(fs.existsSync(out("silent.mp3"))).toBe(false);
  });
});
