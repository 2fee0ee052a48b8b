// Personal voices' inputs and views (the /speechtr pages, tRPC digitalVoices.*, the upload route).
// No server imports: the browser checks the same fields before it uploads.
import { z } from "zod";
import { ZVoiceOption } from "../media/voices";
import { VOICE_NAME_MAX, VOICE_PROBLEMS, VOICE_SAMPLE_KINDS, ZVoiceFacts } from "./digital.schema";

export const VOICE_STATES = ["checking", "check_failed", "training", "ready", "train_failed"] as const;
export type TVoiceState = (typeof VOICE_STATES)[number];
/** A recording made in the browser (MediaRecorder) or a file chosen from the device. */
export const VOICE_SOURCES = ["recorded", "uploaded"] as const;
export type TVoiceSource = (typeof VOICE_SOURCES)[number];

/** Where the recording is posted (multipart: `file`, `name`, `sample_kind`, `source`). */
export const VOICE_UPLOAD_PATH = "/api/v1/digital/voices";

export const ZVoiceName = z.string().trim().min(1, "voices:validation.name").max(VOICE_NAME_MAX, "voices:validation.name");
export const ZVoiceSampleKind = z.enum(VOICE_SAMPLE_KINDS, { message: "voices:validation.sample_kind" });

export const ZVoiceUploadFields = z.object({
  name: ZVoiceName,
  sample_kind: ZVoiceSampleKind,
  source: z.enum(VOICE_SOURCES).default("uploaded"),
});
export type TVoiceUploadFields = z.infer<typeof ZVoiceUploadFields>;

export const ZVoiceId = z.object({ id: z.string().min(1).max(64) });
export const ZRenameVoiceInput = ZVoiceId.extend({ name: ZVoiceName });
/** A purchase names its own request, so a double click or a retried request buys one package. */
export const ZBuyVoicePackageInput = z.object({ requestId: z.string().uuid() });
export type TVoiceIdInput = z.infer<typeof ZVoiceId>;
export type TRenameVoiceInput = z.infer<typeof ZRenameVoiceInput>;
export type TBuyVoicePackageInput = z.infer<typeof ZBuyVoicePackageInput>;

/** What the worker's check kept: the problems that refused the recording, and what it measured. */
export const ZVoiceCheck = z.object({ problems: z.array(z.enum(VOICE_PROBLEMS)).default([]), facts: ZVoiceFacts.nullish() });
export type TVoiceCheck = z.infer<typeof ZVoiceCheck>;

/** A voice as the browser sees it: its recording's URL, never its file key. */
export const ZDigitalVoice = z.object({
  id: z.string(),
  name: z.string(),
  sampleKind: ZVoiceSampleKind,
  source: z.enum(VOICE_SOURCES),
  state: z.enum(VOICE_STATES),
  durationMs: z.number().nullable(),
  problems: z.array(z.enum(VOICE_PROBLEMS)),
  /** The catalogue's code when training failed (errors namespace). */
  errorCode: z.string().nullable(),
  sampleUrl: z.string().nullable(),
  /** The id a speech model speaks it by, where the videos' voice pickers name it ("own:<id>"). */
  speakerId: z.string(),
  createdAt: z.string(),
});
export type TDigitalVoice = z.infer<typeof ZDigitalVoice>;

export const ZDigitalVoiceList = z.object({
  mine: z.array(ZDigitalVoice),
  /** The platform's announcers the account's speech models offer (labels: apps:voices.<id>). */
  stock: z.array(ZVoiceOption),
});
export type TDigitalVoiceList = z.infer<typeof ZDigitalVoiceList>;

export const ZVoicePackage = z.object({
  id: z.string(),
  slots: z.number(),
  usedSlots: z.number(),
  priceMicro: z.number(),
  expiresAt: z.string(),
  expired: z.boolean(),
  createdAt: z.string(),
});
export type TVoicePackage = z.infer<typeof ZVoicePackage>;

export const ZVoicePackages = z.object({
  packages: z.array(ZVoicePackage),
  /** Slots of unexpired packages not taken by a trained voice nor held by a recording being checked. */
  slotsLeft: z.number(),
  /** The soonest expiry among unexpired packages with a slot left. */
  expiresAt: z.string().nullable(),
  offer: z.object({ priceMicro: z.number(), slots: z.number(), days: z.number() }),
});
export type TVoicePackages = z.infer<typeof ZVoicePackages>;
export const ZDeletedVoice = z.object({ id: z.string() });

/** The id a video's voice field stores for a voice of one's own. */
export const ownSpeakerId = (voiceId: string) => `own:${voiceId}`;
