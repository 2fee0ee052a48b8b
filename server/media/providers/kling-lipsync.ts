// Kling's lip-sync, as its API reference describes it: POST /v1/videos/lip-sync with
// {input: {video_url, mode: "audio2video", audio_type: "url", audio_url}, callback_url}, read back
// with GET /v1/videos/lip-sync/{task_id} in the same envelope and task states as its videos
// (task_result.videos[{id, url, duration}]). Kling fetches both files itself; it takes clips of
// 2-10 seconds (mp4/mov, at most 100 MB, 720-1920 px a side) and audio of at most 5 MB. A clip
// without a person is refused with "there is no human in the video".
import { ProviderError, type TLipsyncRequest, type TProviderContext, type TProviderFailure, type TProviderStatus } from "./provider";

export const LIPSYNC_PATH = "/v1/videos/lip-sync";
/** The longest clip Kling lip-syncs. */
export const KLING_LIPSYNC_VIDEO_MAX_MS = 10_000;

const NO_FACE = /no human|no (person|face)|face (is )?not (found|detected)|未检测到(人|脸)|人脸|人像/i;
const TOO_LONG = /too long|longer than|duration|exceed|时长|过长|超过/i;

export function buildLipsyncBody(ctx: TProviderContext, req: TLipsyncRequest) {
  // Measured clips longer than Kling takes are refused here rather than paid for a refusal there.
  if (req.video.durationMs !== null && req.video.durationMs > KLING_LIPSYNC_VIDEO_MAX_MS)
    throw new ProviderError(
      "too_long",
      `Kling lip-syncs clips of at most ${KLING_LIPSYNC_VIDEO_MAX_MS / 1000} s; this one lasts ${req.video.durationMs / 1000} s`,
    );
  const body: Record<string, unknown> = { input: { video_url: req.video.url, mode: "audio2video", audio_type: "url", audio_url: req.audio.url } };
  if (ctx.callbackUrl) body.callback_url = ctx.callbackUrl;
  return body;
}

/** A lip-sync refusal's words read for what they mean: no face in the clip, or a clip or audio too long. */
export function refineLipsyncFailure(failure: TProviderFailure, message: string | undefined): TProviderFailure {
  if (failure !== "bad_request" && failure !== "upstream") return failure;
  if (message && NO_FACE.test(message)) return "no_face";
  if (message && TOO_LONG.test(message)) return "too_long";
  return failure;
}

export function refineLipsyncStatus(status: TProviderStatus): TProviderStatus {
  if (status.state !== "failed") return status;
  return { ...status, failure: refineLipsyncFailure(status.failure, status.message) };
}

export function refineLipsyncError(err: unknown) {
  if (!(err instanceof ProviderError)) return err;
  const failure = refineLipsyncFailure(err.failure, err.message);
  return failure === err.failure ? err : new ProviderError(failure, err.message, err.retryAfterMs);
}
