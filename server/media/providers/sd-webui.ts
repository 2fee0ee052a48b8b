// Stable Diffusion WebUI (AUTOMATIC1111) through its API, as its /docs page describes it:
// POST /sdapi/v1/txt2img and /sdapi/v1/img2img (init_images: [base64]) take the drawing's fields and
// answer {images: [base64], parameters, info} once the pictures are drawn; GET /sdapi/v1/progress
// says meanwhile how far the current job is ({progress: 0..1, eta_relative, state: {job_count, ...}}).
// With --api-auth the API wants HTTP Basic (the channel's key, "user:password"). Refusals are
// FastAPI's: 401 {detail}, 404 {detail} ("Sampler not found"), 422 {detail: [{loc, msg, type}]}, and
// 500 {error, detail, body, errors} when the drawing itself failed.
//
// The call blocks until the pictures exist, so submit hands back a finished status and reports
// progress from /progress while it waits. A WebUI has no review: a drawing is never refused after the fact.
import crypto from "node:crypto";
import { decodeBase64Picture } from "./image-bytes";
import { ProviderError, type TImageRequest, type TMediaProvider, type TProviderContext, type TProviderFailure, type TProviderOutput } from "./provider";

const PROGRESS_EVERY_MS = 500;
const DEFAULT_SAMPLER = "Euler a";
const DEFAULT_STEPS = 20;
const DEFAULT_CFG = 7;
/** How far img2img departs from the reference picture (the WebUI's own default). */
const DENOISING_STRENGTH = 0.75;

function buildHeaders(ctx: TProviderContext): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (ctx.secret) headers.authorization = `Basic ${Buffer.from(ctx.secret, "utf8").toString("base64")}`;
  return headers;
}

function buildDrawing(req: TImageRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    prompt: req.prompt,
    negative_prompt: req.negativePrompt ?? "",
    sampler_name: req.sampler ?? DEFAULT_SAMPLER,
    steps: req.steps ?? DEFAULT_STEPS,
    cfg_scale: req.guidance ?? DEFAULT_CFG,
    width: req.width,
    height: req.height,
    batch_size: req.count,
    n_iter: 1,
    seed: req.seed ?? -1,
    send_images: true,
    save_images: false,
  };
  // The checkpoint is switched for this drawing only and put back after, so channels sharing one WebUI do not fight.
  if (req.model) {
    body.override_settings = { sd_model_checkpoint: req.model };
    body.override_settings_restore_afterwards = true;
  }
  if (req.reference) {
    body.init_images = [req.reference.bytes.toString("base64")];
    body.denoising_strength = DENOISING_STRENGTH;
  }
  return body;
}

function classifyRefusal(status: number, detail: string): TProviderFailure {
  if (status === 401 || status === 403) return "auth";
  if (status === 422 || status === 400) return "bad_request";
  // 404 is a sampler or init picture it does not know; on any other path the API is not switched on (--api).
  if (status === 404) return /sampler|init image/i.test(detail) ? "bad_request" : "upstream";
  if (status === 429) return "rate_limited";
  if (status >= 400 && status < 500) return "bad_request";
  return "upstream";
}

async function readRefusal(res: Response): Promise<ProviderError> {
  const text = await res.text().catch(() => "");
  let message = text.slice(0, 300);
  try {
    const body = JSON.parse(text);
    if (Array.isArray(body.detail))
      message = body.detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join(".")}: ${d.msg ?? ""}`).join("; ");
    else if (body.errors || body.error) message = [body.error, body.errors].filter(Boolean).join(": ");
    else if (typeof body.detail === "string") message = body.detail;
  } catch {}
  return new ProviderError(classifyRefusal(res.status, message), message || `HTTP ${res.status}`);
}

/** Reads /progress until `stopped` settles, reporting 0-99 (100 is the answer itself). Failed reads are skipped. */
async function watchProgress(ctx: TProviderContext, stopped: Promise<void>) {
  const report = ctx.onProgress;
  if (!report) return;
  let done = false;
  void stopped.then(() => (done = true));
  let last = -1;
  for (;;) {
    await Promise.race([stopped, new Promise((r) => setTimeout(r, PROGRESS_EVERY_MS))]);
    if (done) return;
    try {
      const res = await ctx.fetch(`${ctx.baseUrl}/sdapi/v1/progress?skip_current_image=true`, { headers: buildHeaders(ctx), signal: ctx.signal });
      if (!res.ok) continue;
      const body = (await res.json()) as { progress?: unknown; state?: { job_count?: unknown } };
      // An idle WebUI (no job yet: ours waits for the one before it) answers progress 0.
      if (typeof body.progress !== "number" || !Number(body.state?.job_count)) continue;
      const progress = Math.max(0, Math.min(99, Math.round(body.progress * 100)));
      if (progress !== last && !done) report(progress);
      last = progress;
    } catch {}
  }
}

async function draw(ctx: TProviderContext, req: TImageRequest): Promise<TProviderOutput[]> {
  const path = req.reference ? "/sdapi/v1/img2img" : "/sdapi/v1/txt2img";
  let stop = () => {};
  const stopped = new Promise<void>((r) => (stop = r));
  const watching = watchProgress(ctx, stopped);
  let res: Response;
  try {
    res = await ctx.fetch(`${ctx.baseUrl}${path}`, { method: "POST", headers: buildHeaders(ctx), body: JSON.stringify(buildDrawing(req)), signal: ctx.signal });
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    throw new ProviderError("upstream", `SD WebUI could not be reached: ${(err as Error).message}`);
  } finally {
    stop();
    await watching;
  }
  if (!res.ok) throw await readRefusal(res);
  const body = (await res.json().catch(() => null)) as { images?: unknown } | null;
  const pictures = (Array.isArray(body?.images) ? body.images : [])
    .flatMap((image) => (typeof image === "string" ? [decodeBase64Picture(image)] : []))
    .filter((p) => p !== null);
  if (!pictures.length) throw new ProviderError("upstream", "SD WebUI answered no picture");
  // When the WebUI is set to return the grid, the grid comes first: the drawings are the last `count`.
  return pictures.slice(-req.count);
}

export const sdWebuiProvider: TMediaProvider = {
  name: "sdwebui",
  kinds: ["image"],

  async submit(ctx, req) {
    if (req.kind !== "image") throw new ProviderError("bad_request", "SD WebUI channels draw pictures only");
    const outputs = await draw(ctx, req);
    return { taskId: `sdwebui-${crypto.randomUUID()}`, status: { state: "succeeded", outputs } };
  },

  // The drawing answered at submit; the WebUI keeps no task to ask about afterwards.
  async poll() {
    return { state: "failed", failure: "upstream", message: "SD WebUI answers at submit and keeps no task to ask about" };
  },
};
