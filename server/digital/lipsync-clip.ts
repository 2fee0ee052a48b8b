// The figure's clip a lip-sync is made from. A figure's loop is its whole filmed talk (minutes), and
// Kling only re-times clips of 2-10 seconds; every provider makes a video as long as the speech
// anyway. So a speech of at most 10 seconds is lip-synced on an excerpt of the loop just longer than
// it (from the start, where the filming advice asks for a silent, still face), cut once per length
// and kept beside the loop; a longer speech goes with the whole loop to the providers that take it.
import { getFileWork } from "../media/file-work";
import { KLING_LIPSYNC_VIDEO_MAX_MS } from "../media/providers/kling-lipsync";
import { getFileStore } from "../uploads/file-store";
import { derivedFileKey } from "../uploads/stored-file";
import { readFigureCheck } from "./figures.schema";

export const LIPSYNC_CLIP_MIN_MS = 2_000;
/** The excerpt outlasts the speech by this much, rounded up to whole tenths of a second. */
const LIPSYNC_CLIP_SLACK_MS = 500;

type TSyncFigure = { loopFileKey: string; check: unknown };

/** How long an excerpt for a speech of `audioMs` is; null when the whole loop goes. */
export function excerptLengthFor(loopMs: number | null, audioMs: number): number | null {
  if (loopMs === null || loopMs <= KLING_LIPSYNC_VIDEO_MAX_MS || audioMs > KLING_LIPSYNC_VIDEO_MAX_MS) return null;
  const wanted = Math.ceil((audioMs + LIPSYNC_CLIP_SLACK_MS) / 100) * 100;
  return Math.min(KLING_LIPSYNC_VIDEO_MAX_MS, Math.max(LIPSYNC_CLIP_MIN_MS, wanted));
}

async function stored(key: string) {
  const file = await getFileStore().get(key);
  file?.stream.destroy();
  return Boolean(file);
}

/** The clip (and its length, when known) to lip-sync a speech of `audioMs` on. Runs in the worker. */
export async function lipsyncVideoFor(figure: TSyncFigure, audioMs: number): Promise<{ key: string; durationMs: number | null }> {
  const loopMs = readFigureCheck(figure.check).figure?.facts.durationMs ?? null;
  const length = excerptLengthFor(loopMs, audioMs);
  if (length === null) return { key: figure.loopFileKey, durationMs: loopMs };
  const key = derivedFileKey(figure.loopFileKey, `sync${length}`, "mp4");
  if (await stored(key)) return { key, durationMs: length };
  const cut = await getFileWork().excerptClip(figure.loopFileKey, { startMs: 0, durationMs: length, outputKey: key });
  return { key: cut.key, durationMs: cut.durationMs };
}
