// What the server asks of the worker's file tools (sharp for pictures, ffmpeg for video and sound),
// without loading them: only the worker process does (workers/media), and it installs them here when
// it starts (workers/main.ts). A process that never did fails loudly, naming the call it lacks.
// Every derivative is written beside its original in the file store under
// `<original key without extension>.<variant>.<ext>` (derivedFileKey), so the folder that serves
// the original serves it too, and doing the work twice only writes the same files again.
import { z } from "zod";

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

export type TFileWork = {
  /** `<base>.web.webp` (at most 1600 px a side) and `<base>.thumb.webp` (400 px), upright, no metadata. */
  deriveImage(key: string): Promise<TImageWork>;
  /** `<base>.poster.jpg`, and `<base>.play.mp4` unless the original plays on phones as it is. */
  deriveVideo(key: string): Promise<TVideoWork>;
  /** `<base>.norm.mp3`: 44.1 kHz, loudness normalised. */
  deriveAudio(key: string): Promise<TAudioWork>;
  /** `<base>.icon.png`: 200x200, cropped to cover. */
  normaliseIcon(key: string): Promise<TIconWork>;
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
