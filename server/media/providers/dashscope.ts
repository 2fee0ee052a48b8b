// Aliyun DashScope (Bailian): Wanxiang text-to-image and image-to-video, CosyVoice and Qwen-TTS
// speech, VideoRetalk lip-sync and CosyVoice voice cloning (dashscope-digital.ts), behind the media
// provider interface.
//
// The protocol, as DashScope's API reference describes it: every call carries
// `Authorization: Bearer <api key>`. Drawing and video are asynchronous tasks: the POST must say
// `X-DashScope-Async: enable` (without it DashScope refuses with "current user api does not
// support synchronous calls") and answers {output:{task_id, task_status:"PENDING"}, request_id}.
// GET /api/v1/tasks/{task_id} reads the task back: task_status goes PENDING → RUNNING → SUCCEEDED |
// FAILED, or CANCELED, or UNKNOWN (the task expired after 24 h or never existed); pictures come in
// output.results[{url}] (an entry may carry {code, message} instead, when that one picture was
// refused), a video in output.video_url, a failure in output.code/message, and drawing tasks
// count their pictures in output.task_metrics {TOTAL, SUCCEEDED, FAILED}. Result links are signed
// OSS links valid for 24 h. CosyVoice's non-realtime HTTP synthesis is synchronous and answers
// {output:{audio:{url, id, expires_at}, finish_reason}}. Refusals: dashscope-refusals.ts.
// DashScope announces finished tasks only through EventBridge rules set up in the Aliyun console,
// never to a per-task URL, so this adapter polls.
//
// At poll time a definite answer (the task failed, the key was refused, the task is unknown)
// becomes a failed status, while a rate limit or a network or server fault is thrown as a
// ProviderError: the task is still running at DashScope and the runner simply polls again later.
import { buildImageCall, buildSpeechCall, buildVideoCall, TASKS_PATH } from "./dashscope-requests";
import { callDashscope, type TDashscopeTask } from "./dashscope-call";
import { buildRetalkCall, pollVoiceClone, refineRetalkError, refineRetalkStatus, submitVoiceClone } from "./dashscope-digital";
import { classifyRefusal } from "./dashscope-refusals";
import {
  ProviderError,
  type TMediaProvider,
  type TMediaRequest,
  type TProviderContext,
  type TProviderOutput,
  type TProviderStatus,
  type TSpeechRequest,
} from "./provider";

const MIME_BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  mp4: "video/mp4",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  opus: "audio/opus",
  pcm: "audio/L16",
};

function guessMime(url: string, fallback: string) {
  const ext = /\.([a-z0-9]+)(?:$|[?#])/i.exec(new URL(url, "http://x").pathname)?.[1]?.toLowerCase();
  return (ext && MIME_BY_EXTENSION[ext]) || fallback;
}

function readFailure(task: TDashscopeTask, providerState: string): TProviderStatus {
  const code = typeof task.code === "string" ? task.code : "";
  const message = typeof task.message === "string" ? task.message : "";
  const failure = classifyRefusal({ code, message }, "task");
  return { state: "failed", failure, message: code ? `${code}: ${message}` : message || "DashScope reported the task failed", providerState };
}

function readSucceeded(task: TDashscopeTask, kind: "image" | "video", providerState: string): TProviderStatus {
  if (kind === "video") {
    if (typeof task.video_url === "string" && task.video_url)
      return { state: "succeeded", outputs: [{ url: task.video_url, mime: "video/mp4" }], providerState };
    return { state: "failed", failure: "upstream", message: "DashScope reported success without a video_url", providerState };
  }
  const results = Array.isArray(task.results) ? task.results : [];
  const outputs: TProviderOutput[] = results.flatMap((r) => (typeof r.url === "string" && r.url ? [{ url: r.url, mime: guessMime(r.url, "image/png") }] : []));
  if (outputs.length) return { state: "succeeded", outputs, providerState };
  // Every picture refused one by one: the task says SUCCEEDED, each result says why not.
  const refused = results.find((r) => typeof r.code === "string");
  if (refused) return readFailure(refused, providerState);
  return { state: "failed", failure: "upstream", message: "DashScope reported success without results", providerState };
}

/** Pictures finished out of those asked: the only progress DashScope reports. */
function readProgress(task: TDashscopeTask) {
  const m = task.task_metrics;
  const total = Number(m?.TOTAL);
  if (!m || !Number.isFinite(total) || total <= 0) return undefined;
  const done = (Number(m.SUCCEEDED) || 0) + (Number(m.FAILED) || 0);
  return Math.max(0, Math.min(100, Math.round((done / total) * 100)));
}

/** A task as GET /api/v1/tasks/{id} reports it, in our words. */
export function readDashscopeTask(task: TDashscopeTask, kind: "image" | "video"): TProviderStatus {
  const providerState = String(task.task_status);
  switch (task.task_status) {
    case "PENDING":
    case "SUSPENDED":
      return { state: "queued", providerState };
    case "RUNNING": {
      const progress = readProgress(task);
      return progress === undefined ? { state: "running", providerState } : { state: "running", progress, providerState };
    }
    case "SUCCEEDED":
      return readSucceeded(task, kind, providerState);
    case "FAILED":
      return readFailure(task, providerState);
    case "CANCELED":
      return { state: "failed", failure: "upstream", message: "The task was canceled at DashScope", providerState };
    case "UNKNOWN":
      return { state: "failed", failure: "upstream", message: "DashScope no longer knows the task (expired after 24 hours, or never made)", providerState };
    default:
      return { state: "failed", failure: "upstream", message: `DashScope reported an unknown task state ${providerState}`, providerState };
  }
}

async function submitSpeech(ctx: TProviderContext, req: TSpeechRequest) {
  const call = buildSpeechCall(req);
  const answer = await callDashscope(ctx, "POST", call.path, call);
  const audio = answer.output?.audio;
  const fallbackMime = req.format === "wav" ? "audio/wav" : "audio/mpeg";
  const providerState = typeof answer.output?.finish_reason === "string" ? answer.output.finish_reason : undefined;
  const taskId = [audio?.id, answer.request_id].find((v): v is string => typeof v === "string" && v !== "") ?? `speech-${ctx.jobId}`;
  let output: TProviderOutput;
  if (typeof audio?.url === "string" && audio.url) output = { url: audio.url, mime: guessMime(audio.url, fallbackMime) };
  else if (typeof audio?.data === "string" && audio.data) output = { bytes: Buffer.from(audio.data, "base64"), mime: fallbackMime };
  else throw new ProviderError("upstream", "DashScope answered the synthesis without audio");
  return { taskId, status: { state: "succeeded", outputs: [output], providerState } satisfies TProviderStatus };
}

async function submit(ctx: TProviderContext, req: TMediaRequest) {
  if (req.kind === "speech") return submitSpeech(ctx, req);
  if (req.kind === "voice_clone") return submitVoiceClone(ctx, req);
  if (req.kind === "avatar_training") throw new ProviderError("bad_request", "DashScope trains no avatars");
  const call = req.kind === "image" ? buildImageCall(req) : req.kind === "lipsync" ? buildRetalkCall(req) : buildVideoCall(req);
  let answer;
  try {
    answer = await callDashscope(ctx, "POST", call.path, call);
  } catch (err) {
    throw req.kind === "lipsync" ? refineRetalkError(err) : err;
  }
  const taskId = answer.output?.task_id;
  if (typeof taskId !== "string" || !taskId) throw new ProviderError("upstream", "DashScope accepted the task without a task_id");
  return { taskId };
}

async function poll(ctx: TProviderContext, taskId: string, req: TMediaRequest): Promise<TProviderStatus> {
  // Speech is answered whole at submit; a resumed job has nothing to read back.
  if (req.kind === "speech") return { state: "failed", failure: "upstream", message: "DashScope speech has no task to read back" };
  if (req.kind === "voice_clone") return pollVoiceClone(ctx, taskId);
  if (req.kind === "avatar_training") throw new ProviderError("bad_request", "DashScope trains no avatars");
  try {
    const answer = await callDashscope(ctx, "GET", `${TASKS_PATH}/${encodeURIComponent(taskId)}`);
    if (!answer.output || typeof answer.output !== "object") throw new ProviderError("upstream", "DashScope answered without the task");
    // VideoRetalk's task reads like a video's: its clip in output.video_url.
    const status = readDashscopeTask(answer.output, req.kind === "image" ? "image" : "video");
    return req.kind === "lipsync" ? refineRetalkStatus(status) : status;
  } catch (err) {
    if (!(err instanceof ProviderError) || err.failure === "rate_limited" || err.failure === "upstream") throw err;
    return { state: "failed", failure: err.failure, message: err.message };
  }
}

export const dashscopeProvider: TMediaProvider = {
  name: "dashscope",
  kinds: ["image", "video", "speech", "lipsync", "voice_clone"],
  submit,
  poll,
};
