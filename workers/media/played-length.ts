// How long a file plays when its header does not say: a browser's recording (MediaRecorder's WebM)
// states no length. ffmpeg copying its packets to nowhere (no decoding: quick even for a long
// video) reports the last one's time.
import { getFfmpegPaths } from "./ffmpeg-path";
import { runToolOrFail } from "./run-tool";

const COPY_TIMEOUT_MS = 2 * 60_000;

/** How far ffmpeg got: the last "time=hh:mm:ss.cc" of its progress lines, in ms. */
export function readProgressMs(stderr: string) {
  const times = [...stderr.matchAll(/time=(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/g)];
  const last = times.at(-1);
  return last ? Math.round((Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3])) * 1000) : null;
}

/** The length of the file's first `stream` ("a" sound, "v" picture) in ms, from its packets; null when ffmpeg reports none. */
export async function playedLengthMs(input: string, stream: "a" | "v") {
  const args = ["-hide_banner", "-nostdin", "-i", input, "-map", `0:${stream}:0`, "-c", "copy", "-f", "null", "-"];
  const run = await runToolOrFail(getFfmpegPaths().ffmpeg, args, { timeoutMs: COPY_TIMEOUT_MS, step: "reading the length" });
  return readProgressMs(run.stderr);
}
