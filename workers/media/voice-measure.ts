// Measuring a voice recording, for the shared rules to judge (digital.schema.ts judgeVoiceSample):
// its length, integrated loudness (EBU R128, LUFS) and true peak (dBFS), from ffmpeg's `ebur128`
// decoding the whole sound once. The length is the decoded one: a browser's recording (WebM/Opus
// from MediaRecorder) states none in its header, and an MP3's stated length is a guess from its bitrate.
import type { TVoiceFacts } from "../../server/media/file-facts.schema";
import { getFfmpegPaths } from "./ffmpeg-path";
import { readProgressMs } from "./played-length";
import { probeMedia } from "./probe";
import { MediaToolError, runToolOrFail } from "./run-tool";

const MEASURE_TIMEOUT_MS = 5 * 60_000;
const NOTHING: TVoiceFacts = { durationMs: null, loudnessLufs: null, peakDb: null };

/** A level as ebur128 prints it: "-23.4", or "-inf" (digital silence) → null. */
const readLevel = (text: string | undefined) => (text === undefined || !Number.isFinite(Number(text)) ? null : Number(text));

/** The integrated loudness and peak of ebur128's closing summary in ffmpeg's stderr (the last one, should several be printed). */
export function readEbur128Summary(stderr: string) {
  const at = stderr.lastIndexOf("Summary:");
  if (at < 0) return null;
  const summary = stderr.slice(at);
  const loudness = /\bI:\s+(-?(?:[\d.]+|inf)) LUFS/.exec(summary)?.[1];
  const peak = /\bPeak:\s+(-?(?:[\d.]+|inf)) dBFS/.exec(summary)?.[1];
  if (loudness === undefined) return null;
  return { loudnessLufs: readLevel(loudness), peakDb: readLevel(peak) };
}

/** The recording's facts; a file with no sound (or none ffmpeg can read) measures as nothing, for the rules to refuse. */
export async function measureVoiceFile(input: string): Promise<TVoiceFacts> {
  const probe = await probeMedia(input).catch((err: unknown) => {
    if (err instanceof MediaToolError) return null;
    throw err;
  });
  if (!probe?.audio) return NOTHING;
  // framelog=verbose keeps ebur128's ten lines a second out of the report: only the summary is read.
  const args = ["-hide_banner", "-nostdin", "-i", input, "-map", "0:a:0", "-vn", "-sn", "-dn", "-af", "ebur128=peak=true:framelog=verbose", "-f", "null", "-"];
  const run = await runToolOrFail(getFfmpegPaths().ffmpeg, args, { timeoutMs: MEASURE_TIMEOUT_MS, step: "measuring the loudness" });
  const summary = readEbur128Summary(run.stderr);
  if (!summary) throw new MediaToolError("measuring the loudness failed: ffmpeg printed no loudness summary");
  return { durationMs: readProgressMs(run.stderr) ?? probe.durationMs, ...summary };
}
