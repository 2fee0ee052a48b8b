// Generation requests and jobs as the browser and the server both see them: the drawing screen's
// and the video screen's fields, a job's states, and what a model can do. No server imports: the
// pages use this file too, so both refuse the same input with the same message key.
import { z } from "zod";

export const MEDIA_JOB_KINDS = ["image", "video", "speech", "lipsync", "avatar_training", "voice_clone"] as const;
export type TMediaJobKind = (typeof MEDIA_JOB_KINDS)[number];

/**
 * queued → generating → done | failed | failed_review, with background beside generating: the
 * user left the page and the job goes on. Providers' own words are mapped onto these by their
 * adapters (server/media/providers).
 */
export const MEDIA_JOB_STATES = ["queued", "generating", "background", "done", "failed", "failed_review"] as const;
export type TMediaJobState = (typeof MEDIA_JOB_STATES)[number];
export const FINISHED_JOB_STATES: readonly TMediaJobState[] = ["done", "failed", "failed_review"];
export const isFinishedJobState = (s: TMediaJobState) => FINISHED_JOB_STATES.includes(s);

export const PROMPT_MAX = 2000;
export const NEGATIVE_PROMPT_MAX = 500;
export const IMAGE_COUNT_MAX = 4;
export const VIDEO_DURATIONS = [5, 10] as const;
export const SPEECH_TEXT_MAX = 5000;

/** Aspect ratios the drawing and video screens offer; each maps to a pixel size a provider accepts. */
export const ASPECT_RATIOS = ["1:1", "16:9", "9:16", "4:3", "3:4"] as const;
export type TAspectRatio = (typeof ASPECT_RATIOS)[number];
/** The pixel size drawn for an aspect ratio when the model takes free sizes (about a megapixel, multiples of 64). */
export const ASPECT_SIZES: Record<TAspectRatio, { width: number; height: number }> = {
  "1:1": { width: 1024, height: 1024 },
  "16:9": { width: 1344, height: 768 },
  "9:16": { width: 768, height: 1344 },
  "4:3": { width: 1152, height: 896 },
  "3:4": { width: 896, height: 1152 },
};

/** Camera motions of image-to-video (Kling's camera_control types; others ignore what they cannot do). */
export const CAMERA_MOTIONS = [
  "none",
  "horizontal",
  "vertical",
  "zoom",
  "pan",
  "tilt",
  "roll",
  "down_back",
  "forward_up",
  "right_turn_forward",
  "left_turn_forward",
] as const;
export type TCameraMotion = (typeof CAMERA_MOTIONS)[number];

export const IMAGE_QUALITIES = ["standard", "hd"] as const;
export const VIDEO_MODES = ["std", "pro"] as const;

const ZPrompt = z.string().trim().min(1, "validation.required").max(PROMPT_MAX, "validation.too_long");
const ZNegativePrompt = z.string().trim().max(NEGATIVE_PROMPT_MAX, "validation.too_long").optional();
const ZModelKey = z.string().trim().min(1, "validation.required").max(64);
/** A picture of the caller's multimedia library (uploaded first, then named by its id). */
const ZLibraryId = z.string().min(1).max(64);

/** The drawing screen: version (model), prompt, negative prompt, size or aspect ratio, sampler, steps, guidance, quality, style, image count. */
export const ZImageJobInput = z.object({
  model: ZModelKey,
  prompt: ZPrompt,
  negativePrompt: ZNegativePrompt,
  aspectRatio: z.enum(ASPECT_RATIOS).default("1:1"),
  /** An exact size, "1024x768", for models that take one; else the aspect ratio's. */
  size: z
    .string()
    .regex(/^\d{2,4}x\d{2,4}$/, "validation.media_size")
    .optional(),
  sampler: z.string().trim().max(64).optional(),
  steps: z.coerce.number().int().min(1, "validation.range").max(150, "validation.range").optional(),
  guidance: z.coerce.number().min(0, "validation.range").max(30, "validation.range").optional(),
  quality: z.enum(IMAGE_QUALITIES).default("standard"),
  style: z.string().trim().max(64).optional(),
  count: z.coerce.number().int().min(1, "validation.range").max(IMAGE_COUNT_MAX, "validation.range").default(1),
  seed: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  /** A picture to start from (image-to-image), from the library. */
  referenceId: ZLibraryId.optional(),
});
export type TImageJobInput = z.infer<typeof ZImageJobInput>;

/** The video screen: first frame (required), tail frame, prompt, negative prompt, camera motion, 5 s or 10 s. */
export const ZVideoJobInput = z.object({
  model: ZModelKey,
  prompt: z.string().trim().max(PROMPT_MAX, "validation.too_long").default(""),
  negativePrompt: ZNegativePrompt,
  firstFrameId: ZLibraryId,
  tailFrameId: ZLibraryId.optional(),
  cameraMotion: z.enum(CAMERA_MOTIONS).default("none"),
  duration: z.coerce
    .number()
    .int()
    .refine((d) => (VIDEO_DURATIONS as readonly number[]).includes(d), "validation.video_duration")
    .default(5),
  mode: z.enum(VIDEO_MODES).default("std"),
});
export type TVideoJobInput = z.infer<typeof ZVideoJobInput>;

export const ZSpeechJobInput = z.object({
  model: ZModelKey.optional(),
  text: z.string().trim().min(1, "validation.required").max(SPEECH_TEXT_MAX, "validation.too_long"),
  voice: z.string().trim().min(1).max(64),
});
export type TSpeechJobInput = z.infer<typeof ZSpeechJobInput>;

/** What a model can do, for the screens to offer and the server to check before anyone is paid. */
export type TMediaCapabilities = {
  /** Video: whether a tail frame is taken (kling-v1-5 takes none). */
  tailFrame: boolean;
  durations: readonly number[];
  cameraMotion: boolean;
  /** Whether a camera motion may go with a tail frame (Kling takes one or the other). */
  cameraMotionWithTailFrame: boolean;
  /** Image: free sizes (any multiple of 8 within the range), or only the listed aspect ratios. */
  freeSize: boolean;
  aspectRatios: readonly TAspectRatio[];
  maxCount: number;
  negativePrompt: boolean;
  /** Samplers offered (Stable Diffusion); empty when the provider chooses. */
  samplers: readonly string[];
  steps: boolean;
  guidance: boolean;
  quality: boolean;
  styles: readonly string[];
  reference: boolean;
};

/** A media model as the screens list it. */
export const ZMediaModel = z.object({
  key: z.string(),
  name: z.string(),
  kind: z.enum(["image", "video", "voice"]),
  provider: z.string(),
  unitPriceMicro: z.number(),
  capabilities: z.custom<TMediaCapabilities>(),
});
export type TMediaModel = z.infer<typeof ZMediaModel>;

export const ZMediaJobOutput = z.object({
  mediaItemId: z.string().nullable(),
  url: z.string(),
  mime: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  durationMs: z.number().nullable(),
  posterUrl: z.string().nullable(),
});
export type TMediaJobOutput = z.infer<typeof ZMediaJobOutput>;

/** A job as the gallery shows it. Failed-review jobs never carry outputs. */
export const ZMediaJob = z.object({
  id: z.string(),
  kind: z.enum(MEDIA_JOB_KINDS),
  state: z.enum(MEDIA_JOB_STATES),
  progress: z.number(),
  model: z.string(),
  prompt: z.string(),
  params: z.record(z.string(), z.unknown()),
  priceMicro: z.number(),
  chargedMicro: z.number(),
  /** The errors namespace's key when failed (balance, rate limit, content policy, timeout ...). */
  errorCode: z.string().nullable(),
  outputs: z.array(ZMediaJobOutput),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TMediaJob = z.infer<typeof ZMediaJob>;

export const ZMediaJobId = z.object({ id: z.string().min(1).max(64) });
export const ZListMediaJobsInput = z.object({
  kind: z.enum(MEDIA_JOB_KINDS).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(60).default(24),
});
export type TListMediaJobsInput = z.infer<typeof ZListMediaJobsInput>;
export const ZMediaJobPage = z.object({ items: z.array(ZMediaJob), total: z.number(), page: z.number(), pageSize: z.number() });
export type TMediaJobPage = z.infer<typeof ZMediaJobPage>;
