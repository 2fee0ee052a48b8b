// Digital humans' work in the media pipeline: a figure's lip-sync to new audio, a figure's avatar
// training and a voice's clone are media jobs like a picture (the same hold, fair queue, polling,
// deadline and single settlement). The caller's ids ride in the job's params (figureId, voiceId,
// videoId) so the caller's job-end hook (job-finish-hooks.ts) finds its row; the job's files are
// named by key (params.files) and handed to providers as public URLs when the job starts.
//
// What a lip-sync job's params hold:
//   { input, files: { video: {fileKey, durationMs}, audio: {fileKey, durationMs} }, avatar, payer, videoId? }
// a training's: { input, files: { footage, consent | sample: {fileKey} }, name, payer, figureId | voiceId },
// and once a training is done, `result` (the provider's ids: {avatarId} or {voiceId}, with the
// provider and the model key), which the hooks read as TEndedJob.result.
import crypto from "node:crypto";
import { isUniqueViolation, withTransaction } from "../db/transaction";
import { AVATAR_TRAINING_PRICE_MICRO, priceLipsync } from "./media-pricing";
import { AppError } from "../errors/app-error";
import * as models from "../models/models.repository";
import type { TModelKind } from "../models/model-kinds";
import type { TMediaJobKind } from "./generation.schema";
import { holdJobPrice } from "./media-billing";
import { enqueueDispatch, JOB_DEADLINE_MS, UNFINISHED_JOBS_MAX } from "./media-jobs.service";
import * as repo from "./media-jobs.repository";
import { clonesVoice } from "./model-capabilities";
import { listMediaRoutes, orderLipsyncRoutes, type TAvatarRef } from "./provider-routing";

export type TDigitalJobOrigin = "digital_video" | "app";

export type TSubmitLipsyncInput = {
  ownerAccountId: string;
  /** Who pays, when not the owner (an app's owner for a visitor's live answer). */
  payer?: string;
  /** The figure's clip (a public key under media/), and its length when known. */
  videoKey: string;
  videoDurationMs?: number | null;
  audioKey: string;
  audioDurationMs: number;
  /** A trained figure's avatar at its provider: that provider goes first (and HeyGen needs it). */
  avatar?: TAvatarRef | null;
  origin: TDigitalJobOrigin;
  /** For a render, the DigitalVideo's id (kept as params.videoId too). */
  originRef?: string | null;
  appId?: string | null;
  /** The caller's own id for the job (an app reply's clip): submitted twice, it is made and held once. */
  jobId?: string;
  /** The digital-human app instance the clip is made for (kept as params.instanceId): its files go with it. */
  instanceId?: string;
};

export type TSubmitAvatarTrainingInput = { ownerAccountId: string; figureId: string; footageKey: string; consentKey: string | null; name: string };
export type TSubmitVoiceCloneInput = { ownerAccountId: string; voiceId: string; sampleKey: string; name: string; priceMicro: number };
export type TSubmittedDigitalJob = { jobId: string; holdMicro: number };

type TModelRow = NonNullable<Awaited<ReturnType<typeof models.findModelByKey>>>;

/** A figure spoken to new audio: held at priceLipsync(audioDurationMs) from the payer, charged when the clip is back. */
export async function submitLipsyncJob(input: TSubmitLipsyncInput): Promise<TSubmittedDigitalJob> {
  const model = await findLipsyncModel(input.ownerAccountId, input.avatar ?? null);
  if (!model) throw new AppError("media_model_unavailable");
  const payer = input.payer ?? input.ownerAccountId;
  const params = {
    input: { audioDurationMs: input.audioDurationMs },
    files: {
      video: { fileKey: input.videoKey, durationMs: input.videoDurationMs ?? null },
      audio: { fileKey: input.audioKey, durationMs: input.audioDurationMs },
    },
    avatar: input.avatar ?? null,
    payer,
    ...(input.origin === "digital_video" && input.originRef ? { videoId: input.originRef } : {}),
    ...(input.instanceId ? { instanceId: input.instanceId } : {}),
  };
  return createDigitalJob({
    kind: "lipsync",
    ownerAccountId: input.ownerAccountId,
    payer,
    model,
    priceMicro: priceLipsync(input.audioDurationMs),
    params,
    origin: { origin: input.origin, originRef: input.originRef ?? null, appId: input.appId ?? null },
    id: input.jobId,
  });
}

/** A figure's avatar ordered from a provider that trains them: AVATAR_TRAINING_PRICE_MICRO held, charged when the avatar exists. */
export async function submitAvatarTraining(input: TSubmitAvatarTrainingInput): Promise<TSubmittedDigitalJob> {
  const model = await findModelFor("lipsync", "avatar_training", input.ownerAccountId);
  if (!model) throw new AppError("digital_training_unavailable");
  return createDigitalJob({
    kind: "avatar_training",
    ownerAccountId: input.ownerAccountId,
    payer: input.ownerAccountId,
    model,
    priceMicro: AVATAR_TRAINING_PRICE_MICRO,
    params: {
      input: { name: input.name },
      files: { footage: { fileKey: input.footageKey }, ...(input.consentKey ? { consent: { fileKey: input.consentKey } } : {}) },
      name: input.name,
      figureId: input.figureId,
      payer: input.ownerAccountId,
    },
    origin: { origin: "digital_figure", originRef: input.figureId, appId: null },
  });
}

/** A voice cloned from its recording by a voice model whose provider clones (CosyVoice's voice enrollment). */
export async function submitVoiceClone(input: TSubmitVoiceCloneInput): Promise<TSubmittedDigitalJob> {
  const model = await findModelFor("voice", "voice_clone", input.ownerAccountId, (m, provider) => clonesVoice(provider, m.upstreamModel));
  if (!model) throw new AppError("digital_voice_clone_unavailable");
  return createDigitalJob({
    kind: "voice_clone",
    ownerAccountId: input.ownerAccountId,
    payer: input.ownerAccountId,
    model,
    priceMicro: input.priceMicro,
    params: {
      input: { name: input.name },
      files: { sample: { fileKey: input.sampleKey } },
      name: input.name,
      voiceId: input.voiceId,
      payer: input.ownerAccountId,
    },
    origin: { origin: "digital_voice", originRef: input.voiceId, appId: null },
  });
}

/** The enabled lip-sync model to use: one whose first usable route is the avatar's provider, else any with a usable route. */
async function findLipsyncModel(accountId: string, avatar: TAvatarRef | null) {
  let fallback: TModelRow | null = null;
  for (const m of await listEnabled("lipsync")) {
    const routes = orderLipsyncRoutes(await listMediaRoutes(m.key, "lipsync", accountId), avatar);
    if (!routes.length) continue;
    if (avatar && routes[0].provider === avatar.provider) return m;
    fallback ??= m;
  }
  return fallback;
}

async function findModelFor(modelKind: TModelKind, jobKind: TMediaJobKind, accountId: string, fits: (m: TModelRow, provider: string) => boolean = () => true) {
  for (const m of await listEnabled(modelKind)) {
    const routes = await listMediaRoutes(m.key, jobKind, accountId);
    if (routes.some((r) => fits(m, r.provider))) return m;
  }
  return null;
}

async function listEnabled(kind: TModelKind) {
  return (await models.listModels({ enabledOnly: true })).filter((m) => m.kind === kind);
}

type TNewDigitalJob = {
  kind: TMediaJobKind;
  ownerAccountId: string;
  payer: string;
  model: TModelRow;
  priceMicro: number;
  params: Record<string, unknown>;
  origin: { origin: string; originRef: string | null; appId: string | null };
  id?: string;
};

/** The job row and its hold in one transaction: a payer who cannot pay gets balance_insufficient and nothing is written. */
async function createDigitalJob(j: TNewDigitalJob): Promise<TSubmittedDigitalJob> {
  const now = new Date();
  const id = j.id ?? `mj${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`;
  try {
    await insertHeldJob(j, id, now);
  } catch (err) {
    // The caller's id arrived twice: the first made the job and its hold.
    if (j.id && isUniqueViolation(err)) return { jobId: id, holdMicro: j.priceMicro };
    throw err;
  }
  await enqueueDispatch();
  return { jobId: id, holdMicro: j.priceMicro };
}

async function insertHeldJob(j: TNewDigitalJob, id: string, now: Date) {
  await withTransaction(async (tx) => {
    if ((await repo.countUnfinishedJobs(j.ownerAccountId, tx)) >= UNFINISHED_JOBS_MAX)
      throw new AppError("media_queue_full", { params: { max: UNFINISHED_JOBS_MAX }, data: { max: UNFINISHED_JOBS_MAX } });
    await repo.insertMediaJob(
      {
        id,
        ownerAccountId: j.ownerAccountId,
        kind: j.kind,
        modelKey: j.model.key,
        params: j.params as never,
        holdMicro: j.priceMicro,
        origin: j.origin.origin,
        originRef: j.origin.originRef,
        appId: j.origin.appId,
        callbackToken: crypto.randomBytes(18).toString("base64url"),
        deadlineAt: new Date(now.getTime() + JOB_DEADLINE_MS[j.kind]),
        createdAt: now,
      },
      tx,
    );
    await holdJobPrice(
      { jobId: id, payer: j.payer, amountMicro: j.priceMicro, memo: { kind: j.kind, model: j.model.key, modelName: j.model.displayName } },
      tx,
    );
  });
}
