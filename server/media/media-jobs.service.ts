// Generation jobs as their owner sees them: submitting a drawing or a video, the gallery, retry,
// "continue in background" and removal. Everything a provider would be paid for is checked here,
// before any job exists: the model is an enabled model of the kind with a channel that makes it,
// the request fits what the model can do (model-capabilities.ts: kling-v1-5 takes no tail frame,
// videos are 5 s or 10 s), the pictures named are the caller's own library pictures, and the price
// is held. The job row and the hold are one transaction: no job without its hold, no hold without
// its job. The worker takes it from there (media-job-runner.ts).
import crypto from "node:crypto";
import { withTransaction } from "../db/transaction";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { enqueueJob } from "../jobs/jobs";
import * as models from "../models/models.repository";
import { toPublicFileUrl } from "../uploads/uploads.service";
import { getCapabilities } from "./model-capabilities";
import {
  ASPECT_SIZES,
  type TImageJobInput,
  type TListMediaJobsInput,
  type TMediaCapabilities,
  type TMediaJob,
  type TMediaJobKind,
  type TMediaJobPage,
  type TMediaModel,
  type TVideoJobInput,
} from "./generation.schema";
import { holdJobPrice } from "./media-billing";
import { priceImageJob, priceVideoJob } from "./media-pricing";
import * as repo from "./media-jobs.repository";
import { findMediaItem } from "./media.repository";
import { listMediaRoutes } from "./provider-routing";

export type TJobActor = { id: string };
/** Where a job comes from, for its statement line and for the turn that waits on it. */
export type TJobOrigin = { origin: "console" | "agent" | "app" | "bot"; originRef?: string | null; appId?: string | null };

/** How long a job may take before it is stopped and its hold released. */
export const JOB_DEADLINE_MS: Record<TMediaJobKind, number> = {
  image: 10 * 60_000,
  video: 30 * 60_000,
  speech: 5 * 60_000,
  lipsync: 30 * 60_000,
  // Trainings are orders that take working days (a figure about 7, a voice about 1.5), weekends included.
  avatar_training: 14 * 86_400_000,
  voice_clone: 4 * 86_400_000,
};

const fieldError = (path: string, message: string) => new AppError("validation_failed", { data: { fields: [{ path, message }] } });

async function loadMediaModel(key: string, kind: "image" | "video", accountId: string) {
  const model = await models.findModelByKey(key);
  if (!model || !model.enabled || model.kind !== kind) throw new AppError("not_found");
  const routes = await listMediaRoutes(model.key, kind, accountId);
  if (!routes.length) throw new AppError("media_model_unavailable");
  return { model, capabilities: getCapabilities(kind, routes[0].provider, model.upstreamModel) };
}

/** The enabled models of a kind the account can generate with (some channel makes them), with what each can do. */
export async function listMediaModels(actor: TJobActor, kind: "image" | "video"): Promise<TMediaModel[]> {
  const all = (await models.listModels({ enabledOnly: true })).filter((m) => m.kind === kind);
  const out: TMediaModel[] = [];
  for (const m of all) {
    const routes = await listMediaRoutes(m.key, kind, actor.id);
    if (!routes.length) continue;
    const provider = routes[0].provider;
    out.push({
      key: m.key,
      name: m.displayName,
      kind,
      provider,
      unitPriceMicro: m.unitPriceMicro,
      capabilities: getCapabilities(kind, provider, m.upstreamModel),
    });
  }
  return out;
}

/** A picture of the caller's library, as a provider will be handed it. */
async function resolvePicture(accountId: string, id: string, path: string) {
  const item = await findMediaItem(accountId, id);
  if (!item) throw new AppError("not_found");
  if (item.kind !== "image" || !item.fileKey) throw fieldError(path, "validation.media_frame_kind");
  return { fileKey: item.fileKey, mime: item.mime, width: item.width ?? 0, height: item.height ?? 0 };
}

function imageSize(input: TImageJobInput, caps: TMediaCapabilities) {
  if (!input.size) return ASPECT_SIZES[input.aspectRatio];
  if (!caps.freeSize) throw fieldError("size", "validation.media_size");
  const [width, height] = input.size.split("x").map(Number);
  const fits = (n: number) => n >= 256 && n <= 2048 && n % 8 === 0;
  if (!fits(width) || !fits(height)) throw fieldError("size", "validation.media_size");
  return { width, height };
}

export async function submitImageJob(actor: TJobActor, input: TImageJobInput, origin: TJobOrigin = { origin: "console" }): Promise<TMediaJob> {
  const { model, capabilities: caps } = await loadMediaModel(input.model, "image", actor.id);
  if (input.count > caps.maxCount) throw fieldError("count", "validation.range");
  if (input.sampler && !caps.samplers.includes(input.sampler)) throw fieldError("sampler", "validation.range");
  if (input.referenceId && !caps.reference) throw fieldError("referenceId", "validation.range");
  const size = imageSize(input, caps);
  const reference = input.referenceId ? await resolvePicture(actor.id, input.referenceId, "referenceId") : null;
  // What the model cannot take is left out rather than refused: the screen hides those fields.
  const request = {
    prompt: input.prompt,
    negativePrompt: caps.negativePrompt ? input.negativePrompt : undefined,
    aspectRatio: input.aspectRatio,
    ...size,
    sampler: input.sampler,
    steps: caps.steps ? input.steps : undefined,
    guidance: caps.guidance ? input.guidance : undefined,
    quality: input.quality,
    style: input.style && caps.styles.includes(input.style) ? input.style : undefined,
    count: input.count,
    seed: input.seed,
  };
  return createJob(actor, {
    kind: "image",
    model,
    priceMicro: priceImageJob(model.unitPriceMicro, input.count),
    params: { input: { ...input }, request, pictures: reference ? { reference } : {} },
    origin,
  });
}

export async function submitVideoJob(actor: TJobActor, input: TVideoJobInput, origin: TJobOrigin = { origin: "console" }): Promise<TMediaJob> {
  const { model, capabilities: caps } = await loadMediaModel(input.model, "video", actor.id);
  if (input.tailFrameId && !caps.tailFrame) throw new AppError("media_tail_frame_unsupported");
  if (!caps.durations.includes(input.duration)) throw fieldError("duration", "validation.video_duration");
  if (input.tailFrameId && input.cameraMotion !== "none" && caps.cameraMotion && !caps.cameraMotionWithTailFrame)
    throw fieldError("cameraMotion", "validation.media_motion_with_tail");
  const firstFrame = await resolvePicture(actor.id, input.firstFrameId, "firstFrameId");
  const tailFrame = input.tailFrameId ? await resolvePicture(actor.id, input.tailFrameId, "tailFrameId") : null;
  const request = {
    prompt: input.prompt,
    negativePrompt: caps.negativePrompt ? input.negativePrompt : undefined,
    cameraMotion: caps.cameraMotion ? input.cameraMotion : "none",
    duration: input.duration,
    mode: input.mode,
  };
  return createJob(actor, {
    kind: "video",
    model,
    priceMicro: priceVideoJob(model.unitPriceMicro, input.duration, input.mode),
    params: { input: { ...input }, request, pictures: { firstFrame, ...(tailFrame ? { tailFrame } : {}) } },
    origin,
  });
}

/**
 * A video an agent makes from a picture the user sent with a message (a stored file of ours, not a
 * library item): the same checks and hold as the video screen's.
 */
export async function submitAgentVideoJob(actor: TJobActor, j: { model: string; prompt: string; frame: TStoredFrame }, origin: TJobOrigin): Promise<TMediaJob> {
  const { model, capabilities: caps } = await loadMediaModel(j.model, "video", actor.id);
  const duration = caps.durations[0] ?? 5;
  const request = { prompt: j.prompt, cameraMotion: "none", duration, mode: "std" };
  return createJob(actor, {
    kind: "video",
    model,
    priceMicro: priceVideoJob(model.unitPriceMicro, duration, "std"),
    params: { input: { model: j.model, prompt: j.prompt, duration }, request, pictures: { firstFrame: j.frame } },
    origin,
  });
}

export type TStoredFrame = { fileKey: string; mime: string; width: number; height: number };

/** At most this many jobs of one account wait or run at once; the fair queue keeps the rest of the platform moving. */
export const UNFINISHED_JOBS_MAX = 100;

async function createJob(
  actor: TJobActor,
  j: { kind: TMediaJobKind; model: { key: string; displayName: string }; priceMicro: number; params: Record<string, unknown>; origin: TJobOrigin },
): Promise<TMediaJob> {
  const now = new Date();
  const id = `mj${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`;
  const row = await withTransaction(async (tx) => {
    if ((await repo.countUnfinishedJobs(actor.id, tx)) >= UNFINISHED_JOBS_MAX)
      throw new AppError("media_queue_full", { params: { max: UNFINISHED_JOBS_MAX }, data: { max: UNFINISHED_JOBS_MAX } });
    const created = await repo.insertMediaJob(
      {
        id,
        ownerAccountId: actor.id,
        kind: j.kind,
        modelKey: j.model.key,
        params: j.params as never,
        holdMicro: j.priceMicro,
        origin: j.origin.origin,
        originRef: j.origin.originRef ?? null,
        appId: j.origin.appId ?? null,
        callbackToken: crypto.randomBytes(18).toString("base64url"),
        deadlineAt: new Date(now.getTime() + JOB_DEADLINE_MS[j.kind]),
        createdAt: now,
      },
      tx,
    );
    await holdJobPrice(
      { jobId: id, payer: actor.id, amountMicro: j.priceMicro, memo: { kind: j.kind, model: j.model.key, modelName: j.model.displayName } },
      tx,
    );
    return created;
  });
  await enqueueDispatch();
  return toJobView(row, []);
}

/** A token for the worker to take the next job of the fair queue. */
export async function enqueueDispatch() {
  await enqueueJob("media.dispatch", {});
}

type TItemMeta = Awaited<ReturnType<typeof repo.listJobItemsMeta>>[number];
type TStoredOutput = {
  fileKey: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  mediaItemId: string | null;
};

function posterOf(items: TItemMeta[], mediaItemId: string | null) {
  const meta = items.find((i) => i.id === mediaItemId)?.meta as { poster?: string; thumb?: string } | undefined;
  const key = meta?.poster ?? meta?.thumb;
  return key ? toPublicFileUrl(key) : null;
}

export function toJobView(row: repo.TMediaJobRow, items: TItemMeta[]): TMediaJob {
  const params = row.params as { input?: Record<string, unknown> };
  const input = params.input ?? {};
  const outputs = row.state === "done" ? (row.outputs as TStoredOutput[]) : [];
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    progress: row.state === "done" ? 100 : row.progress,
    model: row.modelKey,
    prompt: typeof input.prompt === "string" ? input.prompt : typeof input.text === "string" ? input.text : "",
    params: input,
    priceMicro: Number(row.holdMicro),
    chargedMicro: Number(row.chargedMicro),
    errorCode: row.errorCode,
    outputs: outputs.map((o) => ({
      mediaItemId: o.mediaItemId,
      url: toPublicFileUrl(o.fileKey),
      mime: o.mime,
      width: o.width,
      height: o.height,
      durationMs: o.durationMs,
      posterUrl: posterOf(items, o.mediaItemId),
    })),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

async function toJobViews(rows: repo.TMediaJobRow[]) {
  const items = await repo.listJobItemsMeta(rows.filter((r) => r.state === "done").map((r) => r.id));
  return rows.map((r) => toJobView(r, items));
}

export async function listMediaJobs(actor: TJobActor, { kind, page, pageSize }: TListMediaJobsInput): Promise<TMediaJobPage> {
  const { rows, total } = await repo.listOwnMediaJobs(actor.id, { kind, skip: (page - 1) * pageSize, take: pageSize });
  return { items: await toJobViews(rows), total, page, pageSize };
}

/** The job a chat turn already submitted under its reply's id (a resumed turn waits for it again), else null. */
export async function findTurnJobId(actor: TJobActor, replyId: string): Promise<string | null> {
  return (await repo.findTurnJob(actor.id, replyId))?.id ?? null;
}

export async function getMediaJob(actor: TJobActor, { id }: { id: string }): Promise<TMediaJob> {
  const row = await repo.findOwnMediaJob(actor.id, id);
  if (!row) throw new AppError("not_found");
  return (await toJobViews([row]))[0];
}

/** The caller's jobs among `ids` (others' ids are left out: none of the caller's at all is "not found"), for the live progress stream. */
export async function watchMediaJobs(actor: TJobActor, ids: string[]): Promise<TMediaJob[]> {
  const rows = await repo.listOwnMediaJobsByIds(actor.id, ids);
  if (!rows.length) throw new AppError("not_found");
  return toJobViews(rows);
}

/** The user left the page (or asked to): the jobs go on without a watcher. Finished jobs stay as they are; others' are not found. */
export async function moveToBackground(actor: TJobActor, ids: string[]) {
  const mine = await repo.listOwnMediaJobsByIds(actor.id, ids);
  if (!mine.length) throw new AppError("not_found");
  for (const job of mine) await repo.moveMediaJob(job.id, ["queued", "generating"], "background");
}

export async function continueInBackground(actor: TJobActor, { id }: { id: string }): Promise<TMediaJob> {
  const row = await repo.findOwnMediaJob(actor.id, id);
  if (!row) throw new AppError("not_found");
  await moveToBackground(actor, [id]);
  return getMediaJob(actor, { id });
}

/** A failed job again, as a new job with the same request (and a new hold). */
export async function retryMediaJob(actor: TJobActor, { id }: { id: string }): Promise<TMediaJob> {
  const row = await repo.findOwnMediaJob(actor.id, id);
  if (!row) throw new AppError("not_found");
  if (row.state !== "failed" && row.state !== "failed_review") throw new AppError("repeat_action");
  const input = (row.params as { input: Record<string, unknown> }).input;
  const origin: TJobOrigin = { origin: "console" };
  if (row.kind === "image") return submitImageJob(actor, input as TImageJobInput, origin);
  if (row.kind === "video") return submitVideoJob(actor, input as TVideoJobInput, origin);
  throw new AppError("repeat_action");
}

export async function removeMediaJob(actor: TJobActor, { id }: { id: string }, now = new Date()) {
  const row = await repo.findOwnMediaJob(actor.id, id);
  if (!row) throw new AppError("not_found");
  if (!(await repo.hideOwnMediaJob(actor.id, id, now))) throw new AppError("repeat_action");
  return { id };
}

/** The public origin providers can call back; without one, jobs are only polled. */
export function callbackBase() {
  return getEnv().PUBLIC_URL;
}
