// Keying a figure off its green: ffmpeg's `colorkey` (the same formula the editor runs in the browser
// for its live preview), always after scaling down, since keying costs per pixel. A keyed frame is a
// PNG with alpha.
import fs from "node:fs/promises";
import type { TKeySettings } from "../../server/media/file-facts.schema";
import { getFfmpegPaths } from "./ffmpeg-path";
import { MediaToolError, runToolOrFail } from "./run-tool";

const FRAME_TIMEOUT_MS = 60_000;

/** "#00FF00" → "0x00ff00", as ffmpeg's filters take a colour; anything else is refused. */
export function ffmpegColor(hex: string) {
  if (!/^#[0-9a-fA-F]{6}$/.test(hex)) throw new MediaToolError(`the colour ${JSON.stringify(hex)} is not #rrggbb`);
  return `0x${hex.slice(1).toLowerCase()}`;
}

/** The `colorkey` filter for the settings (kept in hundredths: 30 → 0.30). */
export function colorkeyFilter(settings: TKeySettings) {
  const share = (hundredths: number) => (Math.min(100, Math.max(0, hundredths)) / 100).toFixed(2);
  return `colorkey=color=${ffmpegColor(settings.color)}:similarity=${share(Math.max(1, settings.similarity))}:blend=${share(settings.blend)}`;
}

/** A picture's size scaled down (never up) so its long side is at most `maxSide`, both sides even (H.264's 4:2:0 needs them). */
export function fitWithin(width: number, height: number, maxSide: number) {
  const factor = Math.min(1, maxSide / Math.max(width, height));
  const even = (n: number) => Math.max(2, Math.round((n * factor) / 2) * 2);
  return { width: even(width), height: even(height) };
}

async function fileSize(file: string) {
  return (await fs.stat(file).catch(() => null))?.size ?? 0;
}

/** ffmpeg's scale to within `maxSide` a side, never up, even sides: fitWithin without knowing the size first. */
export const scaleWithin = (maxSide: number) => `scale=w='min(iw,${maxSide})':h='min(ih,${maxSide})':force_original_aspect_ratio=decrease:force_divisible_by=2`;

async function grabKeyedFrame(input: string, output: string, second: number, maxSide: number, settings: TKeySettings) {
  // -ss before -i seeks by the index to the keyframe before, then decodes only up to the moment.
  const filter = `${scaleWithin(maxSide)},format=rgba,${colorkeyFilter(settings)}`;
  await runToolOrFail(
    getFfmpegPaths().ffmpeg,
    ["-hide_banner", "-nostdin", "-y", "-ss", second.toFixed(3), "-i", input, "-frames:v", "1", "-an", "-vf", filter, "-f", "image2", "-update", "1", output],
    { timeoutMs: FRAME_TIMEOUT_MS, step: "keying a frame" },
  );
}

/**
 * Writes the frame at `second` (the first frame when the clip ends before it), scaled to at most
 * `maxSide` a side and keyed, to `output` as a PNG with alpha.
 */
export async function renderKeyedFrame(input: string, output: string, opts: { second: number; maxSide: number; settings: TKeySettings }) {
  await grabKeyedFrame(input, output, Math.max(0, opts.second), opts.maxSide, opts.settings);
  if ((await fileSize(output)) === 0 && opts.second > 0) await grabKeyedFrame(input, output, 0, opts.maxSide, opts.settings);
  if ((await fileSize(output)) === 0) throw new MediaToolError("keying a frame failed: ffmpeg wrote no picture");
}
