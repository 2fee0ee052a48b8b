// Measuring voice recordings with the real ffmpeg: length, loudness and peak in every format a
// creator uploads or a browser records, and nothing (for the rules to refuse) where there is no sound.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderTestTone, renderTestVideo } from "./test-sources";
import { readProgressMs } from "./played-length";
import { measureVoiceFile, readEbur128Summary } from "./voice-measure";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-voice-test-"));
const out = (name: string) => path.join(tmp, name);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const SUMMARY = `size=N/A time=00:00:01.50 bitrate=N/A speed=20x    \rsize=N/A time=00:01:03.04 bitrate=N/A speed=21x
[Parsed_ebur128_0 @ 0x55] Summary:

  Integrated loudness:
    I:         -23.4 LUFS
    Threshold: -33.6 LUFS

  Loudness range:
    LRA:         5.2 LU

  True peak:
    Peak:       -1.3 dBFS
`;

describe("reading ffmpeg's report", () => {
  it("reads the integrated loudness, the peak and the decoded length", () => {
    expect(readEbur128Summary(SUMMARY)).toEqual({ loudnessLufs: -23.4, peakDb: -1.3 });
    expect(readProgressMs(SUMMARY)).toBe(63_040);
  });

  it("reads digital silence's -inf peak as none, and no summary as nothing", () => {
    expect(readEbur128Summary(SUMMARY.replace("-1.3 dBFS", "-inf dBFS").replace("-23.4", "-70.0"))).toEqual({ loudnessLufs: -70, peakDb: null });
    expect(readEbur128Summary("Error opening input")).toBeNull();
    expect(readProgressMs("no progress")).toBeNull();
  });
});

describe("measuring recordings", () => {
  it.each(["webm", "ogg", "mp3", "m4a", "aac", "flac", "wav"])("measures a 2 s tone at -20 dBFS in %s", async (ext) => {
    await renderTestTone(out(`tone.${ext}`), { seconds: 2, peakDb: -20 });
    const facts = await measureVoiceFile(out(`tone.${ext}`));
    expect(Math.abs(facts.durationMs! - 2000)).toBeLessThan(150);
    expect(facts.loudnessLufs).toBeGreaterThan(-21.5);
    expect(facts.loudnessLufs).toBeLessThan(-18.5);
    expect(facts.peakDb).toBeGreaterThan(-21);
    expect(facts.peakDb).toBeLessThan(-18.5);
  });

  it("finds silence very quiet and a full-scale square wave clipped", async () => {
    await renderTestTone(out("silence.wav"), { seconds: 2, kind: "silence" });
    expect(await measureVoiceFile(out("silence.wav"))).toEqual({ durationMs: 2000, loudnessLufs: -70, peakDb: null });
    await renderTestTone(out("square.wav"), { seconds: 2, kind: "square" });
    const square = await measureVoiceFile(out("square.wav"));
    expect(square.peakDb).toBeGreaterThanOrEqual(-0.1);
    expect(square.loudnessLufs).toBeGreaterThan(-10);
  });

  it("measures nothing in a video without sound, or in a file that is no recording", async () => {
    await renderTestVideo(out("silent.mp4"), { width: 160, height: 120, seconds: 1 });
    expect(await measureVoiceFile(out("silent.mp4"))).toEqual({ durationMs: null, loudnessLufs: null, peakDb: null });
    fs.writeFileSync(out("notes.mp3"), "not a recording at all");
    expect(await measureVoiceFile(out("notes.mp3"))).toEqual({ durationMs: null, loudnessLufs: null, peakDb: null });
  });
});
