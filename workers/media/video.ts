// Videos for the page: a poster frame (JPEG) to show before playing, and, when the original is not
// something every phone plays (H.264 in yuv420p, with AAC sound or none, in an MP4 file), an MP4
// rendition that is: H.264/AAC, at most 1280 px wide with the shape kept, even sides (H.264's 4:2:0
// needs them), its index at the front (+faststart) so playback starts before the whole file arrives.
import fs from "node:fs/promises";
import { getFfmpegPaths } from "./ffmpeg-path";
import { shownSize, type TProbe } from "./probe";
import { MediaToolError, runToolOrFail } from "./run-tool";

export const PLAY_MAX_WIDTH = 1280;
const POSTER_TIMEOUT_MS = 2 * 60_000;
const TRANSCODE_TIMEOUT_MS = 30 * 60_000;

/** Scales down (never up) to at most `maxWidth`, both sides even. Quoted so the comma stays inside min(). */
const scaleWithin = (maxWidth: number) => `scale=w='trunc(min(${maxWidth},iw)/2)*2':h=-2`;

/** An ISO file that is not QuickTime's own: phones and browsers open MP4, not MOV or WebM. */
const isMp4File = (probe: TProbe) => probe.format.split(",").includes("mp4") && !probe.brand.startsWith("qt");
const hasPlayableStreams = (probe: TProbe) =>
  probe.video?.codec === "h264" && probe.video.pixFmt === "yuv420p" && (!probe.audio || probe.audio.codec === "aac");

/** Whether the original plays as it is on phones and in every browser. */
export function isPhonePlayable(probe: TProbe) {
  return isMp4File(probe) && hasPlayableStreams(probe);
}

/** Where the poster frame is taken: one second in, or the middle of a clip shorter than two. */
export function posterSecond(durationMs: number | null) {
  if (!durationMs || durationMs <= 0) return 0;
  return durationMs >= 2000 ? 1 : durationMs / 2000;
}

async function fileSize(file: string) {
  return (await fs.stat(file).catch(() => null))?.size ?? 0;
}

async function grabFrame(input: string, output: string, second: number) {
  const args = ["-hide_banner", "-nostdin", "-y", "-ss", second.toFixed(3), "-i", input, "-frames:v", "1", "-an", "-vf", scaleWithin(PLAY_MAX_WIDTH)];
  await runToolOrFail(getFfmpegPaths().ffmpeg, [...args, "-q:v", "3", "-f", "image2", "-update", "1", output], {
    timeoutMs: POSTER_TIMEOUT_MS,
    step: "taking the poster frame",
  });
}

/** Writes the poster frame to `output` (a JPEG). */
export async function renderPoster(input: string, output: string, probe: TProbe) {
  if (!probe.video) throw new MediaToolError("taking the poster frame failed: the file has no video stream");
  await grabFrame(input, output, posterSecond(probe.durationMs));
  // A length the container overstates leaves nothing at that second: the first frame will do.
  if ((await fileSize(output)) === 0) await grabFrame(input, output, 0);
  if ((await fileSize(output)) === 0) throw new MediaToolError("taking the poster frame failed: ffmpeg wrote no picture");
}

/**
 * Writes an H.264/AAC MP4 of `input` to `output`. H.264 and AAC already within the width only
 * change container (no quality lost, seconds instead of minutes); anything else is encoded.
 */
export async function transcodeToMp4(input: string, output: string, probe: TProbe, opts: { maxWidth?: number } = {}) {
  if (!probe.video) throw new MediaToolError("making the playable copy failed: the file has no video stream");
  const maxWidth = opts.maxWidth ?? PLAY_MAX_WIDTH;
  const copy = hasPlayableStreams(probe) && shownSize(probe.video).width <= maxWidth && probe.video.rotation === 0;
  const codecs = copy
    ? ["-c", "copy"]
    : ["-vf", `${scaleWithin(maxWidth)},format=yuv420p`, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-c:a", "aac", "-b:a", "128k", "-ac", "2"];
  const args = ["-hide_banner", "-nostdin", "-y", "-i", input, "-map", "0:v:0", "-map", "0:a:0?", ...codecs, "-movflags", "+faststart", "-f", "mp4", output];
  await runToolOrFail(getFfmpegPaths().ffmpeg, args, { timeoutMs: TRANSCODE_TIMEOUT_MS, step: "making the playable copy" });
  if ((await fileSize(output)) === 0) throw new MediaToolError("making the playable copy failed: ffmpeg wrote nothing");
}
