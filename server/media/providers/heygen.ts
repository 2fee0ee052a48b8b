// HeyGen (its v2 API) behind the media provider interface: lip-sync of an avatar it trained, and the
// training of such an avatar from a filmed clip.
//
// The protocol, as HeyGen's API reference describes it: every call carries the key in X-Api-Key
// and answers {error, data}; a refusal is an HTTP status with error {code, message}.
//   Lip-sync: POST /v2/video/generate {video_inputs: [{character: {type: "avatar", avatar_id},
//     voice: {type: "audio", audio_url}, background: {type: "color", value}}], callback_id}
//     answers data.video_id; GET /v1/video_status.get?video_id= answers data.status pending |
//     waiting | processing | completed (data.video_url, a link valid for days) | failed (data.error
//     {code, message, detail}). HeyGen animates only an avatar it holds: it cannot re-time our clip,
//     so a lip-sync without the figure's avatar is refused here (routing never sends one). The
//     background is pure green so our composite keys the figure out exactly as it keys a filmed one.
//   Avatar training: POST /v2/video_avatar {training_footage_url, video_consent_url, avatar_name,
//     callback_id} answers data.avatar_id; GET /v2/video_avatar/{avatar_id} answers data.status
//     in_progress | completed | failed (data.error). HeyGen wants the person's spoken consent on
//     camera: the consent clip the creator recorded for the order.
// Webhooks are registered per HeyGen account, not per task, so this adapter polls.
import {
  ProviderError,
  type TAvatarTrainingRequest,
  type TLipsyncRequest,
  type TMediaProvider,
  type TMediaRequest,
  type TProviderContext,
  type TProviderFailure,
  type TProviderStatus,
} from "./provider";

/** Our composite keys figures out of this colour. */
export const HEYGEN_BACKGROUND = "#00FF00";

type THeygenError = { code?: unknown; message?: unknown; detail?: unknown } | null | undefined;
type THeygenAnswer = { error?: THeygenError; message?: unknown; data?: Record<string, unknown> | null };

/** HeyGen's words for a failure, in ours. */
export function classifyHeygen(status: number, text: string): TProviderFailure {
  if (status === 401 || status === 403) return "auth";
  if (status === 402 || /credit|quota|payment|balance|subscri/i.test(text)) return "balance";
  if (status === 429 || /rate.?limit|too many requests/i.test(text)) return "rate_limited";
  if (/no face|face (is )?not (found|detected)|face_detect|multiple faces/i.test(text)) return "no_face";
  if (/too long|exceed(s|ed)? .*(length|duration|limit)|duration/i.test(text)) return "too_long";
  if (/moderat|inappropriate|content polic|nsfw|violat/i.test(text)) return "content_input";
  if (status >= 500 || status === 0) return "upstream";
  return "bad_request";
}

function describe(error: THeygenError) {
  if (!error) return "";
  return [error.code, error.message, error.detail].filter((p) => typeof p === "string" || typeof p === "number").join(": ");
}

async function callHeygen(ctx: TProviderContext, method: "GET" | "POST", path: string, body?: unknown): Promise<Record<string, unknown>> {
  let res: Response;
  let text: string;
  try {
    res = await ctx.fetch(`${ctx.baseUrl}${path}`, {
      method,
      headers: { "x-api-key": ctx.secret, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: ctx.signal,
    });
    text = await res.text();
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    throw new ProviderError("upstream", `HeyGen unreachable: ${(err as Error).message}`);
  }
  let answer: THeygenAnswer | null = null;
  try {
    answer = JSON.parse(text) as THeygenAnswer;
  } catch {}
  const said = describe(answer?.error) || (typeof answer?.message === "string" ? answer.message : "") || text.slice(0, 200);
  if (!res.ok || answer?.error) {
    const retry = Number(res.headers.get("retry-after"));
    throw new ProviderError(
      classifyHeygen(res.ok ? 400 : res.status, said),
      `HeyGen ${res.status}: ${said}`,
      Number.isFinite(retry) && retry > 0 ? retry * 1000 : undefined,
    );
  }
  if (!answer?.data || typeof answer.data !== "object") throw new ProviderError("upstream", `HeyGen answered ${res.status} without data`);
  return answer.data;
}

function lipsyncBody(ctx: TProviderContext, req: TLipsyncRequest) {
  if (!req.avatarId) throw new ProviderError("bad_request", "HeyGen lip-syncs only an avatar it trained, and this figure has none there");
  const input = {
    character: { type: "avatar", avatar_id: req.avatarId, avatar_style: "normal" },
    voice: { type: "audio", audio_url: req.audio.url },
    background: { type: "color", value: HEYGEN_BACKGROUND },
  };
  return { video_inputs: [input], callback_id: ctx.jobId };
}

function trainingBody(ctx: TProviderContext, req: TAvatarTrainingRequest) {
  return {
    training_footage_url: req.footage.url,
    video_consent_url: req.consent?.url ?? req.footage.url,
    avatar_name: req.name || ctx.jobId,
    callback_id: ctx.jobId,
  };
}

function failed(error: unknown, providerState: string, fallback: string): TProviderStatus {
  const said = describe(error as THeygenError) || fallback;
  // A task that failed at HeyGen is HeyGen's fault unless its words say it was ours.
  return { state: "failed", failure: classifyHeygen(500, said), message: `HeyGen: ${said}`, providerState };
}

/** A video's status as GET /v1/video_status.get reports it, in our words. */
export function readHeygenVideo(data: Record<string, unknown>): TProviderStatus {
  const providerState = String(data.status);
  switch (data.status) {
    case "pending":
    case "waiting":
      return { state: "queued", providerState };
    case "processing":
      return { state: "running", providerState };
    case "completed":
      if (typeof data.video_url === "string" && data.video_url)
        return { state: "succeeded", outputs: [{ url: data.video_url, mime: "video/mp4" }], providerState };
      return { state: "failed", failure: "upstream", message: "HeyGen completed the video without a video_url", providerState };
    case "failed":
      return failed(data.error, providerState, "the video failed");
    default:
      return { state: "failed", failure: "upstream", message: `HeyGen reported an unknown video status ${providerState}`, providerState };
  }
}

/** A video avatar's training as GET /v2/video_avatar/{id} reports it. */
export function readHeygenAvatar(avatarId: string, data: Record<string, unknown>): TProviderStatus {
  const providerState = String(data.status);
  if (data.status === "completed") return { state: "succeeded", outputs: [], result: { avatarId }, providerState };
  if (data.status === "failed") return failed(data.error, providerState, "the avatar's training failed");
  if (data.status === "in_progress" || data.status === "pending") return { state: "running", providerState };
  return { state: "failed", failure: "upstream", message: `HeyGen reported an unknown avatar status ${providerState}`, providerState };
}

async function submit(ctx: TProviderContext, req: TMediaRequest) {
  if (req.kind === "lipsync") {
    const data = await callHeygen(ctx, "POST", "/v2/video/generate", lipsyncBody(ctx, req));
    if (typeof data.video_id !== "string" || !data.video_id) throw new ProviderError("upstream", "HeyGen accepted the video without a video_id");
    return { taskId: data.video_id };
  }
  if (req.kind === "avatar_training") {
    const data = await callHeygen(ctx, "POST", "/v2/video_avatar", trainingBody(ctx, req));
    if (typeof data.avatar_id !== "string" || !data.avatar_id) throw new ProviderError("upstream", "HeyGen accepted the training without an avatar_id");
    return { taskId: data.avatar_id };
  }
  throw new ProviderError("bad_request", `HeyGen channels make no ${req.kind}`);
}

async function poll(ctx: TProviderContext, taskId: string, req: TMediaRequest): Promise<TProviderStatus> {
  const id = encodeURIComponent(taskId);
  try {
    if (req.kind === "lipsync") return readHeygenVideo(await callHeygen(ctx, "GET", `/v1/video_status.get?video_id=${id}`));
    if (req.kind === "avatar_training") return readHeygenAvatar(taskId, await callHeygen(ctx, "GET", `/v2/video_avatar/${id}`));
    throw new ProviderError("bad_request", `HeyGen channels make no ${req.kind}`);
  } catch (err) {
    if (!(err instanceof ProviderError) || err.failure === "rate_limited" || err.failure === "upstream") throw err;
    return { state: "failed", failure: err.failure, message: err.message };
  }
}

export const heygenProvider: TMediaProvider = {
  name: "heygen",
  kinds: ["lipsync", "avatar_training"],
  lipsyncNeedsAvatar: true,
  submit,
  poll,
};
