// What the worker's file tools measure in a digital human's filming video and voice recording, and
// the chroma key's settings they apply. No server imports: the browser reads the same shapes, and
// server/digital judges them (digital.schema.ts).
import { z } from "zod";

/** What the worker measured in a filming video (workers/media: probe, sampled frames, a face detector). */
export const ZFilmingFacts = z.object({
  durationMs: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  fps: z.number().nullable(),
  hasAudio: z.boolean(),
  /** Whether a face was found in the sampled frames; null when the detector could not run. */
  faceFound: z.boolean().nullable(),
  /** The share (0-1) of the sampled frames' border pixels close to the key colour. */
  greenShare: z.number(),
  /** The background's measured colour (#rrggbb), the key colour suggested for the figure. */
  keyColor: z.string(),
});
export type TFilmingFacts = z.infer<typeof ZFilmingFacts>;

/** ffmpeg colorkey's settings in hundredths: similarity 0.01-1, blend 0-1. */
export const ZKeySettings = z.object({
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, "figures:validation.key_color"),
  similarity: z.number().int().min(1, "figures:validation.key_similarity").max(100, "figures:validation.key_similarity"),
  blend: z.number().int().min(0, "figures:validation.key_blend").max(100, "figures:validation.key_blend"),
});
export type TKeySettings = z.infer<typeof ZKeySettings>;
export const DEFAULT_KEY: TKeySettings = { color: "#00ff00", similarity: 30, blend: 10 };

/** What the worker measured in a recording (ffmpeg's ebur128). */
export const ZVoiceFacts = z.object({
  durationMs: z.number().nullable(),
  loudnessLufs: z.number().nullable(),
  peakDb: z.number().nullable(),
});
export type TVoiceFacts = z.infer<typeof ZVoiceFacts>;
