// What the server asks of the worker's file tools (sharp for pictures, ffmpeg for video and sound),
// without loading them: only the worker process does (workers/media), and it installs them here when
// it starts (workers/main.ts). A process that never did fails loudly, naming the call it lacks.
// Every derivative is written beside its original in the file store under
// `<original key without extension>.<variant>.<ext>` (derivedFileKey), so the folder that serves
// the original serves it too, and doing the work twice only writes the same files again.
import { z } from "zod";
import type { TFilmingFacts, TKeySettings, TVoiceFacts } from "./file-facts.schema";

export type TImageWork = { width: number; height: number; web: string; thumb: string };
export type TVideoWork = {
  durationMs: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  width: number | null;
  height: number | null;
  poster: string;
  /** The phone-playable MP4 rendition; null when the original already is one. */
  play: string | null;
};
export type TAudioWork = { durationMs: number | null; audioCodec: string | null; norm: string };
export type TIconWork = { icon: string };

/** A figure's clip made ready to composite: `<base>.loop.mp4` (at most 1280 px a side, H.264, still on its green) and `<base>.keyed.png`. */
export type TFigureWork = { loop: string; poster: string; width: number; height: number; durationMs: number };

/** Where the figure stands on the canvas: its centre as shares (0-1) of the canvas, its height as a share of the canvas height. */
export type TFigurePlacement = { x: number; y: number; scale: number };

/** One composite: the figure keyed over the background, with the audio, as an H.264/AAC mp4. */
export type TCompositeSpec = {
  /** Where to write the mp4. */
  outputKey: string;
  orientation: "horizontal" | "vertical";
  /** 720 or 1080: the short side of the output (1280x720 or 720x1280 at 720). */
  height: 720 | 1080;
  /** A library picture or video (a video loops), or a plain colour. */
  background: { kind: "image" | "video"; key: string } | { kind: "color"; color: string };
  /** The figure's clip on its green, and how to key it. It loops while the audio lasts. */
  figure: { key: string; color: string; similarity: number; blend: number };
  placement: TFigurePlacement;
  /** The speech to lay under the figure; null keeps the clip's own sound and length. */
  audioKey: string | null;
};
export type TCompositeWork = { key: string; durationMs: number; width: number; height: number };
/** A stretch of a clip to cut, and where to keep it. */
export type TExcerptSpec = { startMs: number; durationMs: number; outputKey: string };

export type TFileWork = {
  /** `<base>.web.webp` (at most 1600 px a side) and `<base>.thumb.webp` (400 px), upright, no metadata. */
  deriveImage(key: string): Promise<TImageWork>;
  /** `<base>.poster.jpg`, and `<base>.play.mp4` unless the original plays on phones as it is. */
  deriveVideo(key: string): Promise<TVideoWork>;
  /** `<base>.norm.mp3`: 44.1 kHz, loudness normalised. */
  deriveAudio(key: string): Promise<TAudioWork>;
  /** `<base>.icon.png`: 200x200, cropped to cover. */
  normaliseIcon(key: string): Promise<TIconWork>;
  /** Measures a filming video: probe, sampled frames' green border and key colour, a face. */
  measureFilming(key: string): Promise<TFilmingFacts>;
  /** The figure's loop clip and keyed still: at `into`'s keys, or beside the original without it. */
  prepareFigure(key: string, settings: TKeySettings, into?: { loop: string; poster: string }): Promise<TFigureWork>;
  /** Measures a voice recording: decoded duration, integrated loudness, true peak; all null for a file with no sound. */
  measureVoice(key: string): Promise<TVoiceFacts>;
  /** Renders a composite (scale first, then colorkey, then overlay) and writes it at spec.outputKey. */
  composite(spec: TCompositeSpec): Promise<TCompositeWork>;
  /** Cuts `durationMs` of the clip from `startMs` (re-encoded, exact) and writes it at spec.outputKey. */
  excerptClip(key: string, spec: TExcerptSpec): Promise<{ key: string; durationMs: number }>;
};

/** What a library item's `meta` holds once derived: the file's facts and its derivatives' keys. */
export const ZMediaMeta = z
  .object({
    durationMs: z.number().nullable(),
    videoCodec: z.string().nullable(),
    audioCodec: z.string().nullable(),
    width: z.number().nullable(),
    height: z.number().nullable(),
    web: z.string().nullable(),
    thumb: z.string().nullable(),
    poster: z.string().nullable(),
    play: z.string().nullable(),
    norm: z.string().nullable(),
  })
  .partial();
export type TMediaMeta = z.infer<typeof ZMediaMeta>;

/** A row's meta as far as it reads as one; anything else (an older shape, `{}`) reads as nothing derived. */
export function readMediaMeta(value: unknown): TMediaMeta {
  const parsed = ZMediaMeta.safeParse(value);
  return parsed.success ? parsed.data : {};
}

/** The keys of the derivatives a meta names (to delete them with their original). */
export function derivedKeysOf(meta: TMediaMeta): string[] {
  return [meta.web, meta.thumb, meta.poster, meta.play, meta.norm].filter((k): k is string => Boolean(k));
}

let wired: TFileWork | null = null;

/** Installs this process's file tools; null removes them (tests). */
export function setFileWork(next: TFileWork | null) {
  wired = next;
}

export function getFileWork(): TFileWork {
  if (!wired) {
    throw new Error("media file work (sharp, ffmpeg) is not wired in this process: only the worker runs it (workers/main.ts calls setFileWork at start)");
  }
  return wired;
}
