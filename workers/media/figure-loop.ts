// A figure's clip made ready to composite: its loop (still on its green, keyed only when composited,
// so a change of key settings needs no new encode) scaled to at most 1280 px a side, and a keyed
// still of the same size for the editor's canvas. The composite then decodes 720p-sized frames
// whatever the creator filmed (a phone's 4K clip costs ten times as much to decode).
import fs from "node:fs/promises";
import path from "node:path";
import type { TKeySettings } from "../../server/media/file-facts.schema";
import { fitWithin, renderKeyedFrame } from "./chroma-key";
import { getFfmpegPaths } from "./ffmpeg-path";
import { probeMedia, shownSize, type TProbe } from "./probe";
import { MediaToolError, runToolOrFail } from "./run-tool";

export const LOOP_MAX_SIDE = 1280;
/** Above this frame rate the loop drops frames: the composite is made at 25 fps, and every kept frame is decoded and keyed. */
export const LOOP_MAX_FPS = 30;
const LOOP_TIMEOUT_MS = 30 * 60_000;

export type TFigureFiles = { loopFile: string; stillFile: string; width: number; height: number; durationMs: number };

/** Where the keyed still is taken: a third into the clip, as the key preview's default. */
export const stillSecond = (durationMs: number | null) => (durationMs && durationMs > 0 ? durationMs / 3000 : 0);

/** Writes `<dir>/loop.mp4` (H.264 yuv420p, AAC when the clip has sound, +faststart) and `<dir>/keyed.png` of the filming clip `input`. */
export async function makeFigureFiles(input: string, dir: string, probe: TProbe, fps: number | null, settings: TKeySettings): Promise<TFigureFiles> {
  if (!probe.video) throw new MediaToolError("preparing the figure failed: the file has no video stream");
  const size = fitWithin(shownSize(probe.video).width, shownSize(probe.video).height, LOOP_MAX_SIDE);
  const loopFile = path.join(dir, "loop.mp4");
  const stillFile = path.join(dir, "keyed.png");
  const filters = [...(fps !== null && fps > LOOP_MAX_FPS ? [`fps=${LOOP_MAX_FPS}`] : []), `scale=${size.width}:${size.height}`, "setsar=1", "format=yuv420p"];
  const video = ["-vf", filters.join(","), "-c:v", "libx264", "-preset", "veryfast", "-crf", "20"];
  const audio = probe.audio ? ["-c:a", "aac", "-b:a", "128k", "-ac", "2"] : ["-an"];
  await runToolOrFail(
    getFfmpegPaths().ffmpeg,
    ["-hide_banner", "-nostdin", "-y", "-i", input, "-map", "0:v:0", "-map", "0:a:0?", ...video, ...audio, "-movflags", "+faststart", "-f", "mp4", loopFile],
    { timeoutMs: LOOP_TIMEOUT_MS, step: "making the figure's loop" },
  );
  const loop = await probeMedia(loopFile).catch(() => null);
  if (!loop?.video || !loop.durationMs || ((await fs.stat(loopFile)).size ?? 0) === 0)
    throw new MediaToolError("making the figure's loop failed: ffmpeg wrote no video");
  await renderKeyedFrame(loopFile, stillFile, { second: stillSecond(loop.durationMs), maxSide: LOOP_MAX_SIDE, settings });
  return { loopFile, stillFile, ...shownSize(loop.video), durationMs: loop.durationMs };
}

const EXCERPT_TIMEOUT_MS = 2 * 60_000;

/** Writes `output`: `durationMs` of `input` from `startMs`, cut exactly (re-encoded), H.264 with its sound as AAC. */
export async function cutExcerpt(input: string, output: string, startMs: number, durationMs: number) {
  const video = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p"];
  const args = ["-hide_banner", "-nostdin", "-y", "-ss", (startMs / 1000).toFixed(3), "-i", input, "-t", (durationMs / 1000).toFixed(3)];
  await runToolOrFail(
    getFfmpegPaths().ffmpeg,
    [...args, "-map", "0:v:0", "-map", "0:a:0?", ...video, "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-f", "mp4", output],
    { timeoutMs: EXCERPT_TIMEOUT_MS, step: "cutting the figure's clip" },
  );
  const cut = await probeMedia(output).catch(() => null);
  if (!cut?.video || !cut.durationMs) throw new MediaToolError("cutting the figure's clip failed: ffmpeg wrote no video");
  return cut.durationMs;
}
