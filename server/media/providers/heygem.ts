// HeyGem (Duix.Avatar, open source), self-hosted, behind the media provider interface: lip-sync of
// any clip with a face, no training needed (so it makes no avatar_training jobs).
//
// The protocol of its face2face service: POST /easy/submit {audio_url, video_url, code, chaofen,
// watermark_switch, pn} where `code` is the caller's own unique task key (we use the job's id, so a
// resubmission finds its task) and the rest are fixed (no super-resolution, no watermark, one
// pass); it answers {code: 10000, success: true, msg}. GET /easy/query?code= answers {code, msg,
// success, data: {code, status, progress, msg, result}}: status 1 running (progress 0-100), 2 done
// with `result` the clip's path on the same server, 3 failed (msg says why); code 10004 means no
// such task, 9999/10002/10003 refusals. There are no accounts: a key, when set, is sent as a bearer
// token for the proxy in front of it, and the server's results folder is served by that proxy too.
import {
  ProviderError,
  type TLipsyncRequest,
  type TMediaProvider,
  type TMediaRequest,
  type TProviderContext,
  type TProviderFailure,
  type TProviderStatus,
} from "./provider";

const OK = 10000;
const NO_TASK = 10004;

type THeygemTask = { code?: unknown; status?: unknown; progress?: unknown; msg?: unknown; result?: unknown };
type THeygemAnswer = { code?: unknown; msg?: unknown; success?: unknown; data?: THeygemTask | null };

/** HeyGem's words for a failure (often Chinese), in ours. */
export function classifyHeygem(message: string): TProviderFailure {
  if (/face|人脸|脸部|未检测到人/i.test(message)) return "no_face";
  if (/too long|duration|exceed|时长|过长|超过/i.test(message)) return "too_long";
  if (/busy|繁忙|queue|排队|GPU|CUDA|memory|内存/i.test(message)) return "upstream";
  return "bad_request";
}

async function callHeygem(ctx: TProviderContext, method: "GET" | "POST", path: string, body?: unknown): Promise<THeygemAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body) headers["content-type"] = "application/json";
  if (ctx.secret) headers.authorization = `Bearer ${ctx.secret}`;
  let res: Response;
  let text: string;
  try {
    res = await ctx.fetch(`${ctx.baseUrl}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined, signal: ctx.signal });
    text = await res.text();
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    throw new ProviderError("upstream", `HeyGem unreachable: ${(err as Error).message}`);
  }
  if (res.status === 401 || res.status === 403) throw new ProviderError("auth", `HeyGem ${res.status}: the proxy refused the key`);
  if (res.status === 429) throw new ProviderError("rate_limited", "HeyGem 429: too many requests");
  if (!res.ok) throw new ProviderError(res.status >= 500 ? "upstream" : "bad_request", `HeyGem ${res.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text) as THeygemAnswer;
  } catch {
    throw new ProviderError("upstream", `HeyGem answered ${res.status} without JSON`);
  }
}

const said = (answer: THeygemAnswer | THeygemTask) => (typeof answer.msg === "string" ? answer.msg : String(answer.msg ?? ""));

function submitBody(ctx: TProviderContext, req: TLipsyncRequest) {
  return { audio_url: req.audio.url, video_url: req.video.url, code: ctx.jobId, chaofen: 0, watermark_switch: 0, pn: 1 };
}

/** Where the finished clip is: an address as given, or a path on the HeyGem server itself. */
export function resultUrl(baseUrl: string, result: string) {
  if (/^https?:\/\//i.test(result)) return result;
  return `${baseUrl}/${result.replace(/^\/+/, "")}`;
}

/** A task as GET /easy/query reports it, in our words. */
export function readHeygemTask(baseUrl: string, answer: THeygemAnswer): TProviderStatus {
  if (answer.code === NO_TASK)
    return { state: "failed", failure: "upstream", message: "HeyGem no longer knows the task (it was restarted?)", providerState: "10004" };
  const task = answer.data;
  if (answer.code !== OK || !task) return { state: "failed", failure: classifyHeygem(said(answer)), message: `HeyGem ${String(answer.code)}: ${said(answer)}` };
  const providerState = String(task.status);
  const progress = typeof task.progress === "number" ? Math.max(0, Math.min(100, task.progress)) : undefined;
  switch (task.status) {
    case 0:
    case 1:
      return progress === undefined ? { state: "running", providerState } : { state: "running", progress, providerState };
    case 2:
      if (typeof task.result === "string" && task.result)
        return { state: "succeeded", outputs: [{ url: resultUrl(baseUrl, task.result), mime: "video/mp4" }], providerState };
      return { state: "failed", failure: "upstream", message: "HeyGem finished without a result", providerState };
    case 3:
      return { state: "failed", failure: classifyHeygem(said(task)), message: `HeyGem: ${said(task) || "the task failed"}`, providerState };
    default:
      return { state: "failed", failure: "upstream", message: `HeyGem reported an unknown task status ${providerState}`, providerState };
  }
}

function asLipsync(req: TMediaRequest): TLipsyncRequest {
  if (req.kind !== "lipsync") throw new ProviderError("bad_request", `HeyGem channels make no ${req.kind}`);
  return req;
}

async function submit(ctx: TProviderContext, req: TMediaRequest) {
  const answer = await callHeygem(ctx, "POST", "/easy/submit", submitBody(ctx, asLipsync(req)));
  if (answer.code === OK) return { taskId: ctx.jobId };
  // A resubmission after a lost answer: the task under our code is already there.
  const known = await callHeygem(ctx, "GET", `/easy/query?code=${encodeURIComponent(ctx.jobId)}`);
  if (known.code === OK && known.data) return { taskId: ctx.jobId };
  throw new ProviderError(classifyHeygem(said(answer)), `HeyGem ${String(answer.code)}: ${said(answer)}`);
}

async function poll(ctx: TProviderContext, taskId: string, req: TMediaRequest): Promise<TProviderStatus> {
  asLipsync(req);
  try {
    return readHeygemTask(ctx.baseUrl, await callHeygem(ctx, "GET", `/easy/query?code=${encodeURIComponent(taskId)}`));
  } catch (err) {
    if (!(err instanceof ProviderError) || err.failure === "rate_limited" || err.failure === "upstream") throw err;
    return { state: "failed", failure: err.failure, message: err.message };
  }
}

export const heygemProvider: TMediaProvider = { name: "heygem", kinds: ["lipsync"], submit, poll };
