// DashScope's digital-human calls, as its API reference describes them.
//
// VideoRetalk (model `videoretalk`) lip-syncs a person's clip to new audio: an asynchronous task,
// POST /api/v1/services/aigc/image2video/video-synthesis with X-DashScope-Async: enable and
// {model, input: {video_url, audio_url}, parameters: {video_extension}}, read back like any task
// (GET /api/v1/tasks/{id}, the clip in output.video_url). Both files are fetched by DashScope; each
// must last 2-120 s. video_extension makes a clip shorter than the audio play on (our figures'
// clips are loops) instead of cutting the audio.
//
// CosyVoice voice enrollment clones a voice for one CosyVoice model: POST
// /api/v1/services/audio/tts/customization with {model: "voice-enrollment", input: {action:
// "create_voice", target_model, prefix, url}} answers output.voice_id at once; the voice is usable
// when {action: "query_voice", voice_id} says output.status OK (DEPLOYING until then, UNDEPLOYED when
// the recording was refused). {action: "list_voice", prefix} finds a voice already made under a
// prefix, so a job resubmitted after a lost answer adopts its voice rather than making a second.
import { callDashscope } from "./dashscope-call";
import { KEYFRAMES_TO_VIDEO_PATH, type TDashscopeCall } from "./dashscope-requests";
import { ProviderError, type TLipsyncRequest, type TProviderContext, type TProviderFailure, type TProviderStatus, type TVoiceCloneRequest } from "./provider";

export const CUSTOMIZATION_PATH = "/api/v1/services/audio/tts/customization";
/** VideoRetalk's longest clip and audio. */
export const RETALK_MAX_MS = 120_000;

const NO_FACE = /face|human|person|人脸|人像|人物/i;
const TOO_LONG = /too long|duration|exceed|AudioLong|时长|过长|超过/i;

export function buildRetalkCall(req: TLipsyncRequest): TDashscopeCall {
  for (const [what, file] of [
    ["audio", req.audio],
    ["clip", req.video],
  ] as const) {
    if (file.durationMs !== null && file.durationMs > RETALK_MAX_MS)
      throw new ProviderError("too_long", `VideoRetalk takes at most ${RETALK_MAX_MS / 1000} s of ${what}; this lasts ${Math.round(file.durationMs / 1000)} s`);
  }
  const body = { model: req.model, input: { video_url: req.video.url, audio_url: req.audio.url }, parameters: { video_extension: true } };
  return { path: KEYFRAMES_TO_VIDEO_PATH, body, async: true };
}

function refine(failure: TProviderFailure, message: string | undefined): TProviderFailure {
  if (failure !== "bad_request" && failure !== "upstream") return failure;
  if (message && NO_FACE.test(message)) return "no_face";
  if (message && TOO_LONG.test(message)) return "too_long";
  return failure;
}

/** A VideoRetalk failure read for its meaning: no face in the clip, or audio or clip too long. */
export function refineRetalkStatus(status: TProviderStatus): TProviderStatus {
  return status.state === "failed" ? { ...status, failure: refine(status.failure, status.message) } : status;
}

export function refineRetalkError(err: unknown) {
  if (!(err instanceof ProviderError)) return err;
  const failure = refine(err.failure, err.message);
  return failure === err.failure ? err : new ProviderError(failure, err.message, err.retryAfterMs);
}

/** The voice's prefix at DashScope: lower-case letters and digits, under 10 characters, one per job. */
export function voicePrefixOf(jobId: string) {
  return `z${jobId
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(-8)}`;
}

function enrollment(input: Record<string, unknown>): TDashscopeCall {
  return { path: CUSTOMIZATION_PATH, body: { model: "voice-enrollment", input }, async: false };
}

async function findVoiceByPrefix(ctx: TProviderContext, prefix: string) {
  const answer = await callDashscope(ctx, "POST", CUSTOMIZATION_PATH, enrollment({ action: "list_voice", prefix, page_index: 0, page_size: 10 }));
  const list = (answer.output as { voice_list?: Array<{ voice_id?: unknown }> } | undefined)?.voice_list;
  const found = Array.isArray(list) ? list.find((v) => typeof v.voice_id === "string" && v.voice_id) : undefined;
  return (found?.voice_id as string | undefined) ?? null;
}

export async function submitVoiceClone(ctx: TProviderContext, req: TVoiceCloneRequest) {
  const prefix = voicePrefixOf(ctx.jobId);
  const existing = await findVoiceByPrefix(ctx, prefix);
  if (existing) return { taskId: existing };
  const call = enrollment({ action: "create_voice", target_model: req.model, prefix, url: req.sample.url });
  const answer = await callDashscope(ctx, "POST", CUSTOMIZATION_PATH, call).catch((err: unknown) => {
    // A recording longer than enrollment takes is the recording's fault, not the parameters'.
    if (err instanceof ProviderError && err.failure === "bad_request" && TOO_LONG.test(err.message)) throw new ProviderError("too_long", err.message);
    throw err;
  });
  const voiceId = answer.output?.voice_id;
  if (typeof voiceId !== "string" || !voiceId) throw new ProviderError("upstream", "DashScope enrolled the voice without a voice_id");
  return { taskId: voiceId };
}

export async function pollVoiceClone(ctx: TProviderContext, voiceId: string): Promise<TProviderStatus> {
  let status: unknown;
  try {
    const answer = await callDashscope(ctx, "POST", CUSTOMIZATION_PATH, enrollment({ action: "query_voice", voice_id: voiceId }));
    status = answer.output?.status;
  } catch (err) {
    if (!(err instanceof ProviderError) || err.failure === "rate_limited" || err.failure === "upstream") throw err;
    return { state: "failed", failure: err.failure, message: err.message };
  }
  const providerState = String(status);
  if (status === "OK") return { state: "succeeded", outputs: [], result: { voiceId }, providerState };
  if (status === "DEPLOYING") return { state: "running", providerState };
  if (status === "UNDEPLOYED")
    return { state: "failed", failure: "bad_request", message: "DashScope could not make a voice of this recording (UNDEPLOYED)", providerState };
  return { state: "failed", failure: "upstream", message: `DashScope reported an unknown voice status ${providerState}`, providerState };
}
