// Digital humans' shared rules: what a filming video and a voice recording must be, the key's
// settings, and the figure and voice views. No server imports: the browser checks the same limits
// before uploading, and the server judges what the worker measured with the same functions.
import { z } from "zod";
import { MB } from "../uploads/upload-limits";
import { ZFilmingFacts, ZKeySettings, ZVoiceFacts, DEFAULT_KEY, type TFilmingFacts, type TKeySettings, type TVoiceFacts } from "../media/file-facts.schema";
import { AVATAR_TRAINING_PRICE_MICRO, LIPSYNC_PRICE_MICRO_PER_5S, priceLipsync } from "../media/media-pricing";

// What the worker measures and the key's settings belong to the media file work; the rules here judge them.
export { ZFilmingFacts, ZKeySettings, ZVoiceFacts, DEFAULT_KEY, AVATAR_TRAINING_PRICE_MICRO, LIPSYNC_PRICE_MICRO_PER_5S, priceLipsync };
export type { TFilmingFacts, TKeySettings, TVoiceFacts };

/** Filming advice, shown where a creator uploads: the pauses, the talk, the gestures, the screen. */
export const FILMING_ADVICE = { silenceSeconds: 5, talkMinutes: [3, 4], gestureHoldSeconds: 3, screenDistanceMetres: 1 } as const;

export const FILMING_PURPOSES = ["figure", "greeting"] as const;
export type TFilmingPurpose = (typeof FILMING_PURPOSES)[number];

/**
 * What a filming video must be. A figure's clip: long enough to loop without a visible seam, short
 * enough to key on our machines; a trained figure's provider wants minutes of talk. A greeting
 * video plays when a digital-human app opens.
 */
export const FILMING_LIMITS: Record<TFilmingPurpose, { maxBytes: number; minMs: number; maxMs: number; minShortSide: number; minFps: number }> = {
  figure: { maxBytes: 100 * MB, minMs: 10_000, maxMs: 10 * 60_000, minShortSide: 720, minFps: 24 },
  greeting: { maxBytes: 20 * MB, minMs: 1_000, maxMs: 60_000, minShortSide: 480, minFps: 20 },
};
/** The person's consent clip for an avatar training order: a short video, read from the page's statement. */
export const CONSENT_LIMITS = { maxBytes: 20 * MB } as const;
/** A figure trained by a provider needs this much filmed talk (the advice's 3-4 minutes, with a margin). */
export const TRAINING_MIN_MS = 2 * 60_000;
/** At least this share of a sampled frame's border must be the key colour for a green-screen figure. */
export const GREEN_SHARE_MIN = 0.3;

export const FILMING_PROBLEMS = ["no_video", "too_short", "too_long", "low_resolution", "low_frame_rate", "no_face", "not_green_screen"] as const;
export type TFilmingProblem = (typeof FILMING_PROBLEMS)[number];

/** The problems that refuse a filming video for its purpose (i18n: figures:filming.problems.<problem>). */
export function judgeFilming(facts: TFilmingFacts, purpose: TFilmingPurpose): TFilmingProblem[] {
  const limits = FILMING_LIMITS[purpose];
  if (!facts.width || !facts.height) return ["no_video"];
  const problems: TFilmingProblem[] = [];
  if (facts.durationMs !== null && facts.durationMs < limits.minMs) problems.push("too_short");
  if (facts.durationMs !== null && facts.durationMs > limits.maxMs) problems.push("too_long");
  if (Math.min(facts.width, facts.height) < limits.minShortSide) problems.push("low_resolution");
  if (facts.fps !== null && facts.fps < limits.minFps) problems.push("low_frame_rate");
  if (facts.faceFound === false) problems.push("no_face");
  if (purpose === "figure" && facts.greenShare < GREEN_SHARE_MIN) problems.push("not_green_screen");
  return problems;
}

export const VOICE_SAMPLE_KINDS = ["personal", "custom"] as const;
export type TVoiceSampleKind = (typeof VOICE_SAMPLE_KINDS)[number];

/** Recordings: 50-90 seconds for a personal voice, 5-30 seconds for a voice customisation. */
export const VOICE_SAMPLE_LIMITS: Record<TVoiceSampleKind, { minMs: number; maxMs: number }> = {
  personal: { minMs: 50_000, maxMs: 90_000 },
  custom: { minMs: 5_000, maxMs: 30_000 },
};
/** Uploaded recordings: these formats, at most 20 MB. */
export const VOICE_UPLOAD_FORMATS = ["mp3", "wav", "m4a", "flac", "aac", "ogg"] as const;
export const VOICE_UPLOAD_MAX_BYTES = 20 * MB;
export const VOICE_UPLOAD_ACCEPT =
  ".mp3,.wav,.m4a,.flac,.aac,.ogg,audio/mpeg,audio/wav,audio/x-wav,audio/mp4,audio/x-m4a,audio/flac,audio/aac,audio/ogg,audio/webm";
/** Loudness a provider can clone from: quieter is mostly room noise, a peak at full scale is clipped. */
export const VOICE_LOUDNESS = { minLufs: -35, clipPeakDb: -0.1 } as const;

export const VOICE_PROBLEMS = ["no_audio", "too_short", "too_long", "too_quiet", "clipped"] as const;
export type TVoiceProblem = (typeof VOICE_PROBLEMS)[number];

/** The problems that refuse a recording ("training failed, re-record"; i18n: voices:problems.<problem>). */
export function judgeVoiceSample(facts: TVoiceFacts, kind: TVoiceSampleKind): TVoiceProblem[] {
  if (facts.durationMs === null) return ["no_audio"];
  const limits = VOICE_SAMPLE_LIMITS[kind];
  const problems: TVoiceProblem[] = [];
  if (facts.durationMs < limits.minMs) problems.push("too_short");
  if (facts.durationMs > limits.maxMs) problems.push("too_long");
  if (facts.loudnessLufs === null || facts.loudnessLufs < VOICE_LOUDNESS.minLufs) problems.push("too_quiet");
  if (facts.peakDb !== null && facts.peakDb >= VOICE_LOUDNESS.clipPeakDb) problems.push("clipped");
  return problems;
}

export const FIGURE_NAME_MAX = 32;
export const VOICE_NAME_MAX = 32;

/** Where the figure stands: its centre as shares (0-1) of the canvas, its height as a share (0.1-2) of the canvas height. */
export const ZPlacement = z.object({
  x: z.number().min(0, "digital:validation.placement").max(1, "digital:validation.placement"),
  y: z.number().min(0, "digital:validation.placement").max(1, "digital:validation.placement"),
  scale: z.number().min(0.1, "digital:validation.placement").max(2, "digital:validation.placement"),
});
export type TPlacement = z.infer<typeof ZPlacement>;
export const DEFAULT_PLACEMENT: TPlacement = { x: 0.5, y: 0.55, scale: 0.9 };
export const ORIENTATIONS = ["vertical", "horizontal"] as const;
export type TOrientation = (typeof ORIENTATIONS)[number];

/** A script is spoken in one render; longer texts are split into several videos. */
export const SCRIPT_MAX = 5_000;

/**
 * Voices' prices: a personal voice takes a slot of a voice package bought beforehand; a voice
 * customisation (5-30 seconds) is paid per voice, held when ordered and charged when it is cloned.
 */
export const VOICE_CUSTOM_PRICE_MICRO = 5_000_000;
export const VOICE_PACKAGE = { priceMicro: 99_000_000, slots: 1, days: 365 } as const;
