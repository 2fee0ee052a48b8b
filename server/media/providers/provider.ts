// The one interface every media provider sits behind. An adapter speaks its provider's real
// protocol (auth, submit, poll, callback) and maps the provider's own words for a task's state onto
// ours; it never touches the database, money or the file store. The job runner
// (server/media/media-job-runner.ts) does those, the same way for every provider.
//
// An adapter gets a TProviderContext: the channel's base URL and opened secret, and the fetch to
// use (guarded by the SSRF guard when the channel is an account's own). Results are either bytes
// (a provider that answers with base64 or that we read through its API) or links the runner
// downloads at once, since providers' links expire within a day.
//
// Lip-sync and training providers take our files by URL, not by upload: keys under media/ are served
// publicly (and unguessably) at <PUBLIC_URL>/files/<key>, and the runner hands the adapter those URLs.
// A training's success is a reference at the provider (an avatar's id, a voice's id) rather than files.
import type { TCameraMotion, TMediaJobKind } from "../generation.schema";

export const PROVIDER_NAMES = ["kling", "dashscope", "openai", "sdwebui", "comfyui", "heygen", "heygem"] as const;
export type TProviderName = (typeof PROVIDER_NAMES)[number];

/** A picture handed to a provider (a first or tail frame, an image-to-image reference). */
export type TInputImage = { bytes: Buffer; mime: string; width: number; height: number };

export type TImageRequest = {
  kind: "image";
  /** The model's upstream name (Kling's model_name, DashScope's model, SD's checkpoint). */
  model: string;
  prompt: string;
  negativePrompt?: string;
  width: number;
  height: number;
  aspectRatio: string;
  sampler?: string;
  steps?: number;
  guidance?: number;
  quality: "standard" | "hd";
  style?: string;
  count: number;
  seed?: number;
  reference?: TInputImage;
};

export type TVideoRequest = {
  kind: "video";
  model: string;
  prompt: string;
  negativePrompt?: string;
  firstFrame: TInputImage;
  tailFrame?: TInputImage;
  cameraMotion: TCameraMotion;
  duration: 5 | 10;
  mode: "std" | "pro";
};

export type TSpeechRequest = { kind: "speech"; model: string; text: string; voice: string; format: "mp3" | "wav" };

/** A file of ours as a provider fetches it, with its length when we measured it. */
export type TFileByUrl = { url: string; durationMs: number | null };

/** A figure's clip made to speak new audio; avatarId is the figure's avatar at this provider, when trained there. */
export type TLipsyncRequest = { kind: "lipsync"; model: string; video: TFileByUrl; audio: TFileByUrl; avatarId?: string };

/** A provider's training of an avatar from a filmed clip (a person talking for minutes). */
/** The footage an avatar is trained from, and the person's consent clip (HeyGen requires one). */
export type TAvatarTrainingRequest = { kind: "avatar_training"; model: string; name: string; footage: { url: string }; consent: { url: string } | null };

/** A voice cloned from a recording; `model` is the voice model the clone will speak with. */
export type TVoiceCloneRequest = { kind: "voice_clone"; model: string; name: string; sample: { url: string } };

export type TMediaRequest = TImageRequest | TVideoRequest | TSpeechRequest | TLipsyncRequest | TAvatarTrainingRequest | TVoiceCloneRequest;

export type TProviderOutput = { url: string; mime?: string } | { bytes: Buffer; mime: string };

/**
 * Why a provider failed, in our words:
 * - content_input: the prompt or a picture was refused by its content policy ("content illegal, re-enter");
 * - content_output: the result failed its review (failed_review: never shown or downloadable);
 * - balance: the provider account has run dry (the platform's problem, shown as "system busy");
 * - rate_limited: too many requests now (retried later, "too many users, wait" if it lasts);
 * - auth: the key is wrong or banned ("key banned by the model provider");
 * - bad_request: the provider refused the parameters;
 * - expired: a result link no longer answers;
 * - no_face: a lip-sync or training found no face in the figure's video;
 * - too_long: the audio or the video is longer than the provider takes;
 * - upstream: anything else (network, 5xx).
 */
export type TProviderFailure =
  "content_input" | "content_output" | "balance" | "rate_limited" | "auth" | "bad_request" | "expired" | "no_face" | "too_long" | "upstream";

export type TProviderStatus =
  | { state: "queued" | "running"; progress?: number; providerState?: string }
  /** `result`: what a training made at the provider ({avatarId} or {voiceId}); a training delivers no files. */
  | { state: "succeeded"; outputs: TProviderOutput[]; result?: Record<string, string>; providerState?: string }
  | { state: "failed"; failure: TProviderFailure; message?: string; providerState?: string };

/** A refusal at submit or poll time, mapped to our words. retryAfterMs when the provider said when to come back. */
export class ProviderError extends Error {
  constructor(
    readonly failure: TProviderFailure,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export type TProviderFetch = (url: string, init?: RequestInit) => Promise<Response>;

export type TProviderContext = {
  /** The channel's base URL, without a trailing slash (e.g. https://api.klingai.com). */
  baseUrl: string;
  /**
   * The channel's key as the admin entered it: Kling "accessKey:secretKey", DashScope and OpenAI an
   * API key, SD WebUI "user:password" for HTTP Basic (or empty), ComfyUI and HeyGem a bearer token
   * (or empty), HeyGen an API key sent as X-Api-Key.
   */
  secret: string;
  fetch: TProviderFetch;
  /** Where the provider should post the task's outcome, when it takes a callback. */
  callbackUrl?: string;
  /** Our job id: sent as the provider's external id where it takes one, so a resubmission is recognised. */
  jobId: string;
  /** Reports progress (0-100) while a blocking call runs (SD WebUI's txt2img). */
  onProgress?: (progress: number) => void;
  signal?: AbortSignal;
};

export type TSubmitted = {
  /** The provider's task id (a synchronous provider makes one up: its result is in status). */
  taskId: string;
  /** Set when the provider answered at once (OpenAI images and speech, SD WebUI). */
  status?: TProviderStatus;
};

export interface TMediaProvider {
  readonly name: TProviderName;
  readonly kinds: readonly TMediaJobKind[];
  /** Lip-syncs only an avatar it trained itself (HeyGen): never sent a lip-sync without one. */
  readonly lipsyncNeedsAvatar?: boolean;
  submit(ctx: TProviderContext, req: TMediaRequest): Promise<TSubmitted>;
  poll(ctx: TProviderContext, taskId: string, req: TMediaRequest): Promise<TProviderStatus>;
  /** A callback's body read into the task it is about, or null when it is not this provider's. */
  readCallback?(body: unknown): { taskId: string; status: TProviderStatus } | null;
}
