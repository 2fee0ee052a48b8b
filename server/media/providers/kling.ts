// Kling (Kuaishou's image and video models) behind the media provider interface.
//
// The protocol, as Kling's API reference describes it: every call carries a bearer JWT signed with
// the account's secret key (kling-jwt.ts). Images are POST /v1/images/generations and videos
// POST /v1/videos/image2video; each answers {code, message, request_id, data:{task_id,
// task_status}} and is read back with GET <path>/{task_id}, whose task_status goes submitted →
// processing → succeed | failed (task_status_msg says why), with task_result.images[{index,url}] or
// task_result.videos[{id,url,duration}]. code 0 is success; 1000-1004 are token refusals,
// 1100-1103 the account (arrears, resource pack used up, no permission), 1200-1203 parameters,
// 1300-1301 the content policy, 1302-1304 rate and concurrency limits, 5000-5002 Kling's own
// faults. Pictures go inline as bare base64 (no data: prefix). With callback_url set, Kling posts
// the task (the same fields as data) there when it changes. external_task_id must be unique in the
// account, and a task can be read back by it (GET <path>?external_task_id=...). Lip-sync:
// kling-lipsync.ts (the same envelope and task states, on its own path).
//
// At poll time a definite answer (the task failed, the key was refused, the task is unknown)
// becomes a failed status, while a rate limit or a network or server fault is thrown as a
// ProviderError: the task is still running at Kling and the runner simply polls again later.
import type { TCameraMotion } from "../generation.schema";
import { getCapabilities } from "../model-capabilities";
import { forgetKlingToken, getKlingToken } from "./kling-jwt";
import { buildLipsyncBody, LIPSYNC_PATH, refineLipsyncError, refineLipsyncStatus } from "./kling-lipsync";
import {
  ProviderError,
  type TImageRequest,
  type TMediaProvider,
  type TMediaRequest,
  type TProviderContext,
  type TProviderFailure,
  type TProviderOutput,
  type TProviderStatus,
  type TVideoRequest,
} from "./provider";

const IMAGE_PATH = "/v1/images/generations";
const VIDEO_PATH = "/v1/videos/image2video";
/** Kling's simple camera moves take -10..10 on one axis; our screens offer a direction, not a strength. */
const CAMERA_STRENGTH = 5;
const SIMPLE_AXES: readonly TCameraMotion[] = ["horizontal", "vertical", "zoom", "pan", "tilt", "roll"];
const TASK_STATES = ["submitted", "processing", "succeed", "failed"] as const;
/** How Kling words a task whose result failed its own review (risk control, moderation). */
const REVIEW_FAILURE = /risk|review|moderat|sensitive|violat|content (security|policy)|风控|审核|违规|敏感/i;
/** How Kling words a second task under an external_task_id it already holds. */
const DUPLICATE_EXTERNAL_ID = /external_task_id.*(exist|duplicat|repeat|unique)|(exist|duplicat|repeat|unique).*external_task_id|重复/i;

type TKlingTask = {
  task_id?: unknown;
  task_status?: unknown;
  task_status_msg?: unknown;
  task_result?: { images?: Array<{ index?: number; url?: unknown }>; videos?: Array<{ id?: string; url?: unknown; duration?: string }> } | null;
};
type TKlingAnswer = { code?: unknown; message?: unknown; request_id?: unknown; data?: TKlingTask | TKlingTask[] | null };

/** Kling's error codes in our words; codes it may add later fall back on the HTTP status. */
export function mapKlingCode(code: number, httpStatus: number): TProviderFailure {
  if (code >= 1000 && code <= 1004) return "auth";
  if (code === 1101 || code === 1102) return "balance";
  if (code === 1100 || code === 1103) return "auth";
  if (code >= 1200 && code <= 1203) return "bad_request";
  if (code === 1300 || code === 1301) return "content_input";
  if (code >= 1302 && code <= 1304) return "rate_limited";
  if (code >= 5000 && code <= 5002) return "upstream";
  return mapHttpStatus(httpStatus);
}

function mapHttpStatus(status: number): TProviderFailure {
  if (status === 401 || status === 403) return "auth";
  if (status === 402) return "balance";
  if (status === 429) return "rate_limited";
  if (status >= 400 && status < 500) return "bad_request";
  return "upstream";
}

/** Our camera motion as Kling's camera_control: a named move alone, or a simple move on one axis. */
export function buildCameraControl(motion: TCameraMotion) {
  if (motion === "none") return undefined;
  if (SIMPLE_AXES.includes(motion)) return { type: "simple", config: { [motion]: CAMERA_STRENGTH } };
  return { type: motion };
}

function isModelWithoutTail(model: string) {
  return !getCapabilities("video", "kling", model).tailFrame;
}

function buildImageBody(ctx: TProviderContext, req: TImageRequest) {
  const body: Record<string, unknown> = { model_name: req.model, prompt: req.prompt, n: req.count, aspect_ratio: req.aspectRatio };
  if (req.reference) {
    body.image = req.reference.bytes.toString("base64");
    // kling-v1-5 reads a reference as a subject (or a face) and insists on being told which.
    if (/^kling-v1-5\b/.test(req.model)) body.image_reference = "subject";
  } else if (req.negativePrompt) {
    // Kling takes no negative prompt when drawing from a reference picture.
    body.negative_prompt = req.negativePrompt;
  }
  return withDelivery(ctx, body);
}

function buildVideoBody(ctx: TProviderContext, req: TVideoRequest) {
  if (req.tailFrame && isModelWithoutTail(req.model)) throw new ProviderError("bad_request", `${req.model} does not take a tail frame`);
  const camera = buildCameraControl(req.cameraMotion);
  // Kling takes a first-and-tail-frame pair or a camera move, never both in one task.
  if (req.tailFrame && camera) throw new ProviderError("bad_request", "Kling cannot combine a tail frame with a camera motion");
  const body: Record<string, unknown> = {
    model_name: req.model,
    image: req.firstFrame.bytes.toString("base64"),
    mode: req.mode,
    duration: String(req.duration),
  };
  if (req.tailFrame) body.image_tail = req.tailFrame.bytes.toString("base64");
  if (req.prompt) body.prompt = req.prompt;
  if (req.negativePrompt) body.negative_prompt = req.negativePrompt;
  if (camera) body.camera_control = camera;
  return withDelivery(ctx, body);
}

function withDelivery(ctx: TProviderContext, body: Record<string, unknown>) {
  if (ctx.callbackUrl) body.callback_url = ctx.callbackUrl;
  body.external_task_id = ctx.jobId;
  return body;
}

function readRetryAfter(res: Response) {
  const value = res.headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** One authenticated call; anything but code 0 is thrown as a ProviderError in our words. */
async function callKling(ctx: TProviderContext, method: "GET" | "POST", path: string, body?: unknown): Promise<TKlingAnswer> {
  const token = await getKlingToken(ctx.secret);
  let res: Response;
  try {
    res = await ctx.fetch(`${ctx.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: ctx.signal,
    });
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    throw new ProviderError("upstream", `Kling unreachable: ${(err as Error).message}`);
  }
  const text = await res.text().catch(() => "");
  let answer: TKlingAnswer | null = null;
  try {
    answer = JSON.parse(text) as TKlingAnswer;
  } catch {}
  const code = typeof answer?.code === "number" ? answer.code : null;
  if (res.ok && code === 0) return answer as TKlingAnswer;
  const failure = code !== null ? mapKlingCode(code, res.status) : mapHttpStatus(res.ok ? 502 : res.status);
  if (failure === "auth") forgetKlingToken(ctx.secret);
  const message = typeof answer?.message === "string" ? answer.message : text.slice(0, 200) || res.statusText;
  throw new ProviderError(failure, `Kling ${code ?? `HTTP ${res.status}`}: ${message}`, readRetryAfter(res));
}

function firstTask(data: TKlingAnswer["data"]): TKlingTask | null {
  const task = Array.isArray(data) ? data[0] : data;
  return task && typeof task === "object" ? task : null;
}

/** The task already made for this job (a resubmission after a lost answer): Kling refuses a second one under the same external id. */
async function findTaskByJobId(ctx: TProviderContext, path: string) {
  const answer = await callKling(ctx, "GET", `${path}?external_task_id=${encodeURIComponent(ctx.jobId)}`);
  const taskId = firstTask(answer.data)?.task_id;
  return typeof taskId === "string" && taskId ? taskId : null;
}

function readOutputs(task: TKlingTask): TProviderOutput[] {
  const result = task.task_result ?? {};
  const images = (result.images ?? []).flatMap((i) => (typeof i.url === "string" ? [{ url: i.url, mime: guessImageMime(i.url) }] : []));
  const videos = (result.videos ?? []).flatMap((v) => (typeof v.url === "string" ? [{ url: v.url, mime: "video/mp4" }] : []));
  return [...images, ...videos].map((o) => (o.mime ? o : { url: o.url }));
}

function guessImageMime(url: string) {
  const ext = /\.(png|jpe?g|webp)(?:$|[?#])/i.exec(url)?.[1]?.toLowerCase();
  if (!ext) return undefined;
  return ext === "png" ? "image/png" : ext === "webp" ? "image/webp" : "image/jpeg";
}

/** A task as Kling reports it (a poll's data or a callback's body) in our words. */
export function readKlingTask(task: TKlingTask): TProviderStatus {
  const providerState = String(task.task_status);
  const message = typeof task.task_status_msg === "string" ? task.task_status_msg : undefined;
  switch (task.task_status) {
    case "submitted":
      return { state: "queued", providerState };
    case "processing":
      return { state: "running", providerState };
    case "succeed": {
      const outputs = readOutputs(task);
      if (outputs.length) return { state: "succeeded", outputs, providerState };
      return { state: "failed", failure: "upstream", message: "Kling reported success without results", providerState };
    }
    case "failed":
      return { state: "failed", failure: message && REVIEW_FAILURE.test(message) ? "content_output" : "upstream", message, providerState };
    default:
      return { state: "failed", failure: "upstream", message: `Kling reported an unknown task state ${providerState}`, providerState };
  }
}

type TKlingRequest = Extract<TMediaRequest, { kind: "image" | "video" | "lipsync" }>;

function asKlingRequest(req: TMediaRequest): TKlingRequest {
  if (req.kind !== "image" && req.kind !== "video" && req.kind !== "lipsync") throw new ProviderError("bad_request", `Kling does not make ${req.kind}`);
  return req;
}

function pathFor(req: TKlingRequest) {
  return req.kind === "image" ? IMAGE_PATH : req.kind === "lipsync" ? LIPSYNC_PATH : VIDEO_PATH;
}

/** A lip-sync is one call: it takes no external id, so a lost answer may leave a second task behind (the first is never read). */
async function submitLipsync(ctx: TProviderContext, req: Extract<TMediaRequest, { kind: "lipsync" }>) {
  const answer = await callKling(ctx, "POST", LIPSYNC_PATH, buildLipsyncBody(ctx, req)).catch((err: unknown) => {
    throw refineLipsyncError(err);
  });
  const taskId = firstTask(answer.data)?.task_id;
  if (typeof taskId !== "string" || !taskId) throw new ProviderError("upstream", "Kling accepted the lip-sync without a task_id");
  return { taskId };
}

async function submit(ctx: TProviderContext, anyReq: TMediaRequest) {
  const req = asKlingRequest(anyReq);
  if (req.kind === "lipsync") return submitLipsync(ctx, req);
  const path = pathFor(req);
  const body = req.kind === "image" ? buildImageBody(ctx, req) : buildVideoBody(ctx, req);
  let answer: TKlingAnswer;
  try {
    answer = await callKling(ctx, "POST", path, body);
  } catch (err) {
    if (!(err instanceof ProviderError && err.failure === "bad_request" && DUPLICATE_EXTERNAL_ID.test(err.message))) throw err;
    const existing = await findTaskByJobId(ctx, path);
    if (!existing) throw err;
    return { taskId: existing };
  }
  const taskId = firstTask(answer.data)?.task_id;
  if (typeof taskId !== "string" || !taskId) throw new ProviderError("upstream", "Kling accepted the task without a task_id");
  return { taskId };
}

async function poll(ctx: TProviderContext, taskId: string, anyReq: TMediaRequest): Promise<TProviderStatus> {
  const req = asKlingRequest(anyReq);
  try {
    const answer = await callKling(ctx, "GET", `${pathFor(req)}/${encodeURIComponent(taskId)}`);
    const task = firstTask(answer.data);
    if (!task) throw new ProviderError("upstream", "Kling answered without the task");
    return req.kind === "lipsync" ? refineLipsyncStatus(readKlingTask(task)) : readKlingTask(task);
  } catch (err) {
    if (!(err instanceof ProviderError) || err.failure === "rate_limited" || err.failure === "upstream") throw err;
    return { state: "failed", failure: err.failure, message: err.message };
  }
}

function readCallback(body: unknown) {
  if (!body || typeof body !== "object") return null;
  // Kling posts the task's fields; a relay may forward the whole envelope ({code, data}) instead.
  const envelope = body as TKlingAnswer & TKlingTask;
  const task = envelope.data && typeof envelope.data === "object" && !Array.isArray(envelope.data) ? envelope.data : envelope;
  if (typeof task.task_id !== "string" || !task.task_id) return null;
  if (!(TASK_STATES as readonly unknown[]).includes(task.task_status)) return null;
  return { taskId: task.task_id, status: readKlingTask(task) };
}

export const klingProvider: TMediaProvider = {
  name: "kling",
  kinds: ["image", "video", "lipsync"],
  submit,
  poll,
  readCallback,
};
