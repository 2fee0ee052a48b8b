// Digital-human videos' inputs and outputs (tRPC digitalVideos.*), shared by the editor and the
// server. No server imports: the browser checks the same limits before saving.
import { z } from "zod";
import { MEDIA_JOB_STATES } from "../media/generation.schema";
import { ORIENTATIONS, SCRIPT_MAX, ZPlacement } from "./digital.schema";

export const VIDEO_NAME_MAX = 64;
/** A voice of the account's own is chosen as `own:<DigitalVoice id>`; anything else names a stock announcer. */
export const OWN_VOICE_PREFIX = "own:";
export const ownVoiceValue = (voiceId: string) => `${OWN_VOICE_PREFIX}${voiceId}`;
export const ownVoiceIdOf = (voice: string) => (voice.startsWith(OWN_VOICE_PREFIX) ? voice.slice(OWN_VOICE_PREFIX.length) : null);

/** The render's steps in order; progress runs speech 0-20, lipsync 20-70, composite 70-100. */
export const RENDER_STEPS = ["speech", "lipsync", "composite"] as const;
export type TRenderStep = (typeof RENDER_STEPS)[number];
/** lipsync: a trained figure speaks the script; idle_loop: the figure's filmed loop plays under the voice (its lips do not follow). */
export const RENDER_PATHS = ["lipsync", "idle_loop"] as const;
export type TRenderPath = (typeof RENDER_PATHS)[number];

/** What keeps a video from rendering now (i18n: digital:render.problems.<problem>). */
export const RENDER_PROBLEMS = ["no_figure", "figure_not_ready", "no_script", "script_too_long", "voice_not_ready", "no_speech_model"] as const;
export type TRenderProblem = (typeof RENDER_PROBLEMS)[number];

const ZId = z.string().min(1).max(64);
const ZHexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, "digital:render.validation.color");
export const ZVideoName = z.string().trim().min(1, "digital:render.validation.name_required").max(VIDEO_NAME_MAX, "digital:render.validation.name_too_long");
export const ZVideoScript = z.string().max(SCRIPT_MAX, "digital:render.validation.script_too_long");
export const ZVideoVoice = z.string().trim().max(80);

export const ZVideoIdInput = z.object({ id: ZId });
export const ZCreateVideoInput = z.object({ name: ZVideoName });
/** Each field present is saved; null clears the figure or the background picture (the colour shows then). */
export const ZUpdateVideoInput = z.object({
  id: ZId,
  name: ZVideoName.optional(),
  orientation: z.enum(ORIENTATIONS).optional(),
  figureId: ZId.nullable().optional(),
  placement: ZPlacement.optional(),
  backgroundItemId: ZId.nullable().optional(),
  backgroundColor: ZHexColor.optional(),
  /** A stock announcer's id (listAvailableVoices), `own:<DigitalVoice id>`, or "" for none. */
  voice: ZVideoVoice.optional(),
  script: ZVideoScript.optional(),
});
export const ZVideoProgressInput = z.object({ ids: z.array(ZId).min(1).max(50) });

export type TVideoIdInput = z.infer<typeof ZVideoIdInput>;
export type TCreateVideoInput = z.infer<typeof ZCreateVideoInput>;
export type TUpdateVideoInput = z.infer<typeof ZUpdateVideoInput>;
export type TVideoProgressInput = z.infer<typeof ZVideoProgressInput>;

const ZRenderState = z.enum(MEDIA_JOB_STATES).nullable();

/** The figure as a video shows it: its keyed still (PNG with alpha) and whether it can move its lips. */
export const ZVideoFigure = z.object({
  id: z.string(),
  name: z.string(),
  posterUrl: z.string().nullable(),
  orientation: z.enum(ORIENTATIONS),
  trained: z.boolean(),
  ready: z.boolean(),
});
export const ZVideoBackground = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["image", "video"]),
  url: z.string(),
  /** A picture's small rendition or a video's poster, once the worker made it. */
  thumbUrl: z.string().nullable(),
});
/** The rendered mp4 (a library item of the owner's). */
export const ZVideoOutput = z.object({ itemId: z.string(), url: z.string(), posterUrl: z.string().nullable(), durationMs: z.number().nullable() });

/** A render's progress, as polled. errorCode is the errors namespace's key when failed. */
export const ZVideoProgress = z.object({
  id: z.string(),
  state: ZRenderState,
  step: z.enum(RENDER_STEPS).nullable(),
  progress: z.number(),
  output: ZVideoOutput.nullable(),
  errorCode: z.string().nullable(),
  updatedAt: z.string(),
});

export const ZVideoListItem = ZVideoProgress.extend({
  name: z.string(),
  orientation: z.enum(ORIENTATIONS),
  figure: z.object({ id: z.string(), name: z.string(), posterUrl: z.string().nullable() }).nullable(),
});

/** A video as the editor loads it. */
export const ZDigitalVideo = ZVideoProgress.extend({
  name: z.string(),
  orientation: z.enum(ORIENTATIONS),
  figure: ZVideoFigure.nullable(),
  placement: ZPlacement,
  background: ZVideoBackground.nullable(),
  backgroundColor: z.string(),
  voice: z.string(),
  script: z.string(),
  createdAt: z.string(),
  renderedAt: z.string().nullable(),
});

/** What a render will cost now, and which path it takes. Micro-Z integers; lip-sync is estimated from the script's length. */
export const ZVideoQuote = z.object({
  path: z.enum(RENDER_PATHS),
  chars: z.number(),
  /** The spoken length estimated from the script (the price is charged on the real length). */
  estimatedDurationMs: z.number(),
  speechMicro: z.number(),
  lipsyncMicro: z.number(),
  compositeMicro: z.number(),
  totalMicro: z.number(),
  /** Empty when the video can render now. */
  problems: z.array(z.enum(RENDER_PROBLEMS)),
});

export const ZVideoList = z.object({ items: z.array(ZVideoListItem) });
export const ZVideoProgressList = z.object({ items: z.array(ZVideoProgress) });
export const ZRemovedVideo = z.object({ id: z.string() });

export type TVideoFigure = z.infer<typeof ZVideoFigure>;
export type TVideoBackground = z.infer<typeof ZVideoBackground>;
export type TVideoOutput = z.infer<typeof ZVideoOutput>;
export type TVideoProgress = z.infer<typeof ZVideoProgress>;
export type TVideoListItem = z.infer<typeof ZVideoListItem>;
export type TDigitalVideo = z.infer<typeof ZDigitalVideo>;
export type TVideoQuote = z.infer<typeof ZVideoQuote>;
