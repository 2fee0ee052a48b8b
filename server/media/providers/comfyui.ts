// ComfyUI, as its server's routes behave: POST /prompt {prompt: <graph in API format>, client_id}
// answers {prompt_id, number, node_errors}, or 400 {error: {type, message, details}, node_errors}
// when the graph fails validation. GET /history/{prompt_id} answers {} until the prompt has run, then
// {<id>: {outputs: {<node>: {images: [{filename, subfolder, type}]}}, status: {status_str, completed,
// messages}}}; GET /queue lists {queue_running, queue_pending} as [number, prompt_id, ...] entries;
// GET /view?filename=&subfolder=&type= serves a saved file. ComfyUI itself has no accounts: a server
// exposed to us sits behind a proxy that wants a Bearer token (the channel's key, when there is one).
//
// The files live on the channel's own server, which our file store's downloader may not be allowed
// to reach, so the adapter fetches them itself and hands back bytes.
import crypto from "node:crypto";
import { buildTextToImageGraph } from "./comfyui-workflow";
import { sniffImageMime } from "./image-bytes";
import { ProviderError, type TMediaProvider, type TProviderContext, type TProviderFailure, type TProviderOutput, type TProviderStatus } from "./provider";

const DEFAULT_STEPS = 20;
const DEFAULT_CFG = 7;
const DEFAULT_SAMPLER = "euler";
// KSampler takes any 64-bit seed; crypto.randomInt draws below 2^48.
const SEED_LIMIT = 2 ** 47;

type TComfyFile = { filename?: unknown; subfolder?: unknown; type?: unknown };
type THistoryEntry = {
  outputs?: Record<string, { images?: TComfyFile[] }>;
  status?: { status_str?: string; completed?: boolean; messages?: [string, Record<string, unknown>][] };
};

function classifyStatus(status: number): TProviderFailure {
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limited";
  if (status >= 400 && status < 500) return "bad_request";
  return "upstream";
}

async function callComfy(ctx: TProviderContext, path: string, init: { method?: string; body?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (ctx.secret) headers.authorization = `Bearer ${ctx.secret}`;
  if (init.body) headers["content-type"] = "application/json";
  try {
    return await ctx.fetch(`${ctx.baseUrl}${path}`, { method: init.method ?? "GET", headers, body: init.body, signal: ctx.signal });
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    throw new ProviderError("upstream", `ComfyUI could not be reached: ${(err as Error).message}`);
  }
}

async function readRefusal(res: Response): Promise<ProviderError> {
  const text = await res.text().catch(() => "");
  return new ProviderError(classifyStatus(res.status), describeRefusal(text) || `HTTP ${res.status}`);
}

/** ComfyUI's validation answer in one line: the error, then each node's first complaint. */
function describeRefusal(text: string): string {
  let body: {
    error?: { message?: string; details?: string } | string;
    node_errors?: Record<string, { class_type?: string; errors?: { message?: string; details?: string }[] }>;
  };
  try {
    body = JSON.parse(text);
  } catch {
    return text.slice(0, 300);
  }
  const head = typeof body.error === "string" ? body.error : [body.error?.message, body.error?.details].filter(Boolean).join(": ");
  const nodes = Object.entries(body.node_errors ?? {}).map(([id, node]) => {
    const first = node.errors?.[0];
    return `${node.class_type ?? "node"} #${id}: ${[first?.message, first?.details].filter(Boolean).join(": ")}`;
  });
  return [head, ...nodes].filter(Boolean).join("; ");
}

/** A failed answer while asking about a task: a passing fault is thrown for the runner to ask again, the rest end the task. */
async function readPollRefusal(res: Response): Promise<TProviderStatus> {
  const refusal = await readRefusal(res);
  if (refusal.failure === "upstream" || refusal.failure === "rate_limited") throw refusal;
  return { state: "failed", failure: refusal.failure, message: refusal.message };
}

async function readHistory(ctx: TProviderContext, promptId: string): Promise<THistoryEntry | TProviderStatus | null> {
  const res = await callComfy(ctx, `/history/${encodeURIComponent(promptId)}`);
  if (!res.ok) return readPollRefusal(res);
  const body = (await res.json().catch(() => ({}))) as Record<string, THistoryEntry>;
  return body[promptId] ?? null;
}

async function findInQueue(ctx: TProviderContext, promptId: string): Promise<TProviderStatus | null> {
  const res = await callComfy(ctx, "/queue");
  if (!res.ok) return readPollRefusal(res);
  const body = (await res.json().catch(() => ({}))) as { queue_running?: unknown[][]; queue_pending?: unknown[][] };
  if (body.queue_running?.some((entry) => entry?.[1] === promptId)) return { state: "running", providerState: "queue_running" };
  if (body.queue_pending?.some((entry) => entry?.[1] === promptId)) return { state: "queued", providerState: "queue_pending" };
  return null;
}

/** Why a prompt that ran came out as an error, from the execution messages ComfyUI recorded. */
function describeExecutionError(entry: THistoryEntry): string {
  const messages = entry.status?.messages ?? [];
  const error = messages.find(([kind]) => kind === "execution_error")?.[1];
  if (error) return `${String(error.node_type ?? "node")}: ${String(error.exception_message ?? error.exception_type ?? "failed")}`.trim();
  if (messages.some(([kind]) => kind === "execution_interrupted")) return "the prompt was interrupted";
  return "the prompt ended in error";
}

/** Downloads the saved pictures; a file gone from the output folder makes the task expired. */
async function readFinished(ctx: TProviderContext, entry: THistoryEntry): Promise<TProviderStatus> {
  if (entry.status?.status_str === "error") return { state: "failed", failure: "upstream", message: describeExecutionError(entry), providerState: "error" };
  const files = Object.values(entry.outputs ?? {})
    .flatMap((output) => output.images ?? [])
    .filter((file) => typeof file.filename === "string" && (file.type ?? "output") === "output");
  if (!files.length) return { state: "failed", failure: "upstream", message: "the workflow saved no picture", providerState: "success" };
  const outputs: TProviderOutput[] = [];
  for (const file of files) {
    const query = new URLSearchParams({ filename: String(file.filename), subfolder: String(file.subfolder ?? ""), type: "output" });
    const res = await callComfy(ctx, `/view?${query}`);
    if (res.status === 404)
      return { state: "failed", failure: "expired", message: `${String(file.filename)} is no longer on the server`, providerState: "success" };
    if (!res.ok) return readPollRefusal(res);
    const bytes = Buffer.from(await res.arrayBuffer());
    const mime = sniffImageMime(bytes);
    if (!mime) return { state: "failed", failure: "upstream", message: `${String(file.filename)} is not a picture`, providerState: "success" };
    outputs.push({ bytes, mime });
  }
  return { state: "succeeded", outputs, providerState: "success" };
}

const isStatus = (x: THistoryEntry | TProviderStatus): x is TProviderStatus => "state" in x;

export const comfyuiProvider: TMediaProvider = {
  name: "comfyui",
  kinds: ["image"],

  async submit(ctx, req) {
    if (req.kind !== "image") throw new ProviderError("bad_request", "ComfyUI channels draw pictures only");
    if (req.reference) throw new ProviderError("bad_request", "the text-to-image workflow takes no reference picture");
    const graph = buildTextToImageGraph({
      checkpoint: req.model,
      positive: req.prompt,
      negative: req.negativePrompt ?? "",
      width: req.width,
      height: req.height,
      batchSize: req.count,
      seed: req.seed ?? crypto.randomInt(SEED_LIMIT),
      steps: req.steps ?? DEFAULT_STEPS,
      cfg: req.guidance ?? DEFAULT_CFG,
      sampler: req.sampler ?? DEFAULT_SAMPLER,
    });
    // client_id names who queued the prompt; our job id lets the server's queue be read back to a job.
    const res = await callComfy(ctx, "/prompt", { method: "POST", body: JSON.stringify({ prompt: graph, client_id: ctx.jobId }) });
    if (!res.ok) throw await readRefusal(res);
    const body = (await res.json().catch(() => null)) as { prompt_id?: unknown } | null;
    if (typeof body?.prompt_id !== "string") throw new ProviderError("upstream", "ComfyUI queued the prompt without an id");
    return { taskId: body.prompt_id };
  },

  async poll(ctx, taskId) {
    const entry = await readHistory(ctx, taskId);
    if (entry) return isStatus(entry) ? entry : readFinished(ctx, entry);
    const place = await findInQueue(ctx, taskId);
    if (place) return place;
    // Finished between the two looks, or unknown to the server (it restarted and forgot its queue).
    const late = await readHistory(ctx, taskId);
    if (late) return isStatus(late) ? late : readFinished(ctx, late);
    return { state: "failed", failure: "upstream", message: "ComfyUI no longer knows this prompt" };
  },
};
