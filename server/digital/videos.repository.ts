// The only queries of digital-human videos. Every read and write a person asks for names the owner:
// another account's video, figure, voice or library item is simply not there. The render's steps
// and the lip-sync hook find a video by its id alone (they act for whoever owns it), and each of
// their moves names the render it belongs to (its speech job's id), so a step of an older render
// that wakes late changes nothing.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TMediaJobState } from "../media/generation.schema";

const VIDEO = {
  id: true,
  ownerAccountId: true,
  name: true,
  orientation: true,
  figureId: true,
  placement: true,
  backgroundItemId: true,
  backgroundColor: true,
  voice: true,
  script: true,
  renderState: true,
  renderStep: true,
  progress: true,
  speechJobId: true,
  lipsyncJobId: true,
  outputItemId: true,
  errorCode: true,
  renderStartedAt: true,
  renderedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;
export type TVideoRow = Prisma.DigitalVideoGetPayload<{ select: typeof VIDEO }>;

const LIVE = { deletedAt: null } as const;
/** A render that has not ended: only these may move on. */
export const RUNNING_STATES: TMediaJobState[] = ["queued", "generating", "background"];

export function createVideo(ownerAccountId: string, name: string, tx: TDbOrTx = getDb()) {
  return tx.digitalVideo.create({ data: { ownerAccountId, name }, select: VIDEO });
}

export function findVideo(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.digitalVideo.findFirst({ where: { id, ownerAccountId, ...LIVE }, select: VIDEO });
}

export function findVideos(ownerAccountId: string, ids: string[], tx: TDbOrTx = getDb()) {
  return tx.digitalVideo.findMany({ where: { id: { in: ids }, ownerAccountId, ...LIVE }, select: VIDEO });
}

export function listVideos(ownerAccountId: string, tx: TDbOrTx = getDb()) {
  return tx.digitalVideo.findMany({ where: { ownerAccountId, ...LIVE }, select: VIDEO, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 200 });
}

export type TVideoChanges = Partial<
  Pick<TVideoRow, "name" | "orientation" | "figureId" | "backgroundItemId" | "backgroundColor" | "voice" | "script"> & { placement: Prisma.InputJsonValue }
>;

/** Saves the changes to a live video of the owner's; false when there is none. */
export async function updateVideo(ownerAccountId: string, id: string, changes: TVideoChanges, tx: TDbOrTx = getDb()) {
  const { count } = await tx.digitalVideo.updateMany({ where: { id, ownerAccountId, ...LIVE }, data: changes });
  return count === 1;
}

export async function markVideoDeleted(ownerAccountId: string, id: string, now: Date, tx: TDbOrTx = getDb()) {
  const { count } = await tx.digitalVideo.updateMany({ where: { id, ownerAccountId, ...LIVE }, data: { deletedAt: now } });
  return count === 1;
}

/**
 * Starts a render of a live video that is not rendering: queued at its first step, with the id its
 * speech job will take. False when it is gone or a render of it still runs.
 */
/** The fields a render is made of: frozen on the row when it starts. */
const RENDER_INPUTS = ["orientation", "figureId", "placement", "backgroundItemId", "backgroundColor", "voice", "script"] as const;
export type TRenderInputs = Pick<TVideoRow, (typeof RENDER_INPUTS)[number]>;

export const renderInputsOf = (row: TRenderInputs): TRenderInputs => Object.fromEntries(RENDER_INPUTS.map((k) => [k, row[k]])) as unknown as TRenderInputs;

export async function startRender(ownerAccountId: string, id: string, speechJobId: string, inputs: TRenderInputs, now: Date, tx: TDbOrTx = getDb()) {
  const { count } = await tx.digitalVideo.updateMany({
    where: { id, ownerAccountId, ...LIVE, OR: [{ renderState: null }, { renderState: { notIn: RUNNING_STATES } }] },
    data: {
      renderState: "queued",
      renderStep: "speech",
      progress: 0,
      speechJobId,
      lipsyncJobId: null,
      errorCode: null,
      errorDetail: null,
      renderStartedAt: now,
      renderInputs: renderInputsOf(inputs) as Prisma.InputJsonValue,
    },
  });
  return count === 1;
}

/**
 * A video's row for the render's steps, whoever owns it (deleted ones too: the step then stops),
 * as the render was started: the inputs frozen then stand in for the fields edited since.
 */
export async function findVideoForRender(id: string, tx: TDbOrTx = getDb()) {
  const row = await tx.digitalVideo.findUnique({ where: { id }, select: { ...VIDEO, deletedAt: true, renderInputs: true } });
  if (!row) return null;
  const { renderInputs, ...rest } = row;
  const frozen = renderInputs && typeof renderInputs === "object" && !Array.isArray(renderInputs) ? (renderInputs as Partial<TRenderInputs>) : {};
  return { ...rest, ...frozen };
}

export type TRenderMove = {
  renderState?: TMediaJobState;
  renderStep?: string;
  progress?: number;
  lipsyncJobId?: string;
  outputItemId?: string;
  errorCode?: string;
  errorDetail?: string | null;
  renderedAt?: Date;
};

/** Moves the render that `speechJobId` names while it runs (at `fromStep` when given); false when it ended or is another render. */
export async function moveRender(id: string, speechJobId: string, move: TRenderMove, fromStep: string | null = null, tx: TDbOrTx = getDb()) {
  const { count } = await tx.digitalVideo.updateMany({
    where: { id, speechJobId, renderState: { in: RUNNING_STATES }, ...(fromStep ? { renderStep: fromStep } : {}) },
    data: move,
  });
  return count === 1;
}

const JOB = { id: true, state: true, progress: true, outputs: true, errorCode: true, ownerAccountId: true } as const;
export type TRenderJobRow = Prisma.MediaJobGetPayload<{ select: typeof JOB }>;

export function findRenderJob(id: string, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findUnique({ where: { id }, select: JOB });
}

export function findRenderJobs(ids: string[], tx: TDbOrTx = getDb()) {
  return ids.length ? tx.mediaJob.findMany({ where: { id: { in: ids } }, select: JOB }) : Promise.resolve([]);
}

/** The lip-sync job a render submitted (found by its origin when a killed worker could not record it). */
export function findLipsyncJobOfRender(videoId: string, since: Date, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findFirst({
    where: { kind: "lipsync", origin: "digital_video", originRef: videoId, createdAt: { gte: since } },
    select: JOB,
    orderBy: { createdAt: "desc" },
  });
}

const FIGURE = {
  id: true,
  name: true,
  kind: true,
  state: true,
  orientation: true,
  check: true,
  sourceFileKey: true,
  loopFileKey: true,
  posterFileKey: true,
  keyColor: true,
  keySimilarity: true,
  keyBlend: true,
  provider: true,
  providerAvatarId: true,
} as const;
export type TVideoFigureRow = Prisma.DigitalFigureGetPayload<{ select: typeof FIGURE }>;

export function findFigure(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.digitalFigure.findFirst({ where: { id, ownerAccountId, ...LIVE }, select: FIGURE });
}

export function findFigures(ownerAccountId: string, ids: string[], tx: TDbOrTx = getDb()) {
  return ids.length ? tx.digitalFigure.findMany({ where: { id: { in: ids }, ownerAccountId, ...LIVE }, select: FIGURE }) : Promise.resolve([]);
}

export function findVoice(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.digitalVoice.findFirst({ where: { id, ownerAccountId, ...LIVE }, select: { id: true, state: true, modelKey: true, providerVoiceId: true } });
}

const ITEM = { id: true, name: true, kind: true, fileKey: true, meta: true } as const;
export type TVideoItemRow = Prisma.MediaItemGetPayload<{ select: typeof ITEM }>;

export function findLibraryItem(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.mediaItem.findFirst({ where: { id, ownerAccountId, deletedAt: null }, select: ITEM });
}

export function findLibraryItems(ownerAccountId: string, ids: string[], tx: TDbOrTx = getDb()) {
  return ids.length ? tx.mediaItem.findMany({ where: { id: { in: ids }, ownerAccountId, deletedAt: null }, select: ITEM }) : Promise.resolve([]);
}

/** The library item a composite already wrote at `fileKey` (a resumed render makes it once). */
export function findItemByFileKey(ownerAccountId: string, fileKey: string, tx: TDbOrTx = getDb()) {
  return tx.mediaItem.findFirst({ where: { ownerAccountId, fileKey }, select: ITEM });
}

/** A rendered video in the owner's library: generated, so it counts against no day's uploads. */
export function createRenderedItem(
  data: { ownerAccountId: string; name: string; fileKey: string; size: number; width: number; height: number; durationMs: number; createdAt: Date },
  tx: TDbOrTx = getDb(),
) {
  const { durationMs, ...rest } = data;
  return tx.mediaItem.create({ data: { ...rest, kind: "video", mime: "video/mp4", source: "generated", meta: { durationMs } }, select: ITEM });
}
