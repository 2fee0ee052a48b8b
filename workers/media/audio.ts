// Sound for the page: an MP3 at 44.1 kHz, its loudness brought to one level (EBU R128 loudnorm, -16
// LUFS as speech on phones is mixed), so a quiet recording and a loud one play alike side by side.
import fs from "node:fs/promises";
import { getFfmpegPaths } from "./ffmpeg-path";
import type { TProbe } from "./probe";
import { MediaToolError, runToolOrFail } from "./run-tool";

const NORMALISE_TIMEOUT_MS = 10 * 60_000;
export const NORMALISED_SAMPLE_RATE = 44_100;

/** Writes the normalised MP3 of `input`'s first sound stream to `output`. */
export async function normaliseAudio(input: string, output: string, probe: TProbe) {
  if (!probe.audio) throw new MediaToolError("normalising the sound failed: the file has no audio stream");
  const args = ["-hide_banner", "-nostdin", "-y", "-i", input, "-map", "0:a:0", "-vn", "-af", "loudnorm=I=-16:TP=-1.5:LRA=11"];
  await runToolOrFail(getFfmpegPaths().ffmpeg, [...args, "-ar", String(NORMALISED_SAMPLE_RATE), "-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3", output], {
    timeoutMs: NORMALISE_TIMEOUT_MS,
    step: "normalising the sound",
  });
  if (((await fs.stat(output).catch(() => null))?.size ?? 0) === 0) throw new MediaToolError("normalising the sound failed: ffmpeg wrote nothing");
}
