// The only queries of generation jobs. Reads that a user makes name the owner: another account's job
// is simply not there. The worker's reads (by id, by callback token, due for a poll) do not, and
// every move of state names the states it may come from, so of two racing writers (a callback and a
// poll, two workers after a crash) only one moves a job.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TMediaJobKind, TMediaJobState } from "./generation.schema";
import { RUNNING_STATES } from "./job-states";

const JOB = {
  id: true,
  ownerAccountId: true,
  kind: true,
  state: true,
  progress: true,
  modelKey: true,
  provider: true,
  channelId: true,
  params: true,
  providerTaskId: true,
  providerState: true,
  holdMicro: true,
  chargedMicro: true,
  errorCode: true,
  origin: true,
  originRef: true,
  appId: true,
  callbackToken: true,
  outputs: true,
  pollCount: true,
  nextPollAt: true,
  deadlineAt: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;
export type TMediaJobRow = Prisma.MediaJobGetPayload<{ select: typeof JOB }>;

export type TNewMediaJob = {
  id: string;
  ownerAccountId: string;
  kind: TMediaJobKind;
  /** A job run while its request waits (speech) starts generating; the others wait in the queue. */
  state?: "queued" | "generating";
  modelKey: string;
  params: Prisma.InputJsonValue;
  holdMicro: number;
  origin: string;
  originRef: string | null;
  appId: string | null;
  callbackToken: string;
  deadlineAt: Date;
  createdAt: Date;
};

export function insertMediaJob(data: TNewMediaJob, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.create({ data: { ...data, holdMicro: BigInt(data.holdMicro) }, select: JOB });
}

/** The payer's job a turn (by its reply's id) submitted, of the origins a chat turn uses. */
export function findTurnJob(ownerAccountId: string, originRef: string, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findFirst({ where: { ownerAccountId, originRef, origin: { in: ["agent", "app"] } }, orderBy: { createdAt: "asc" }, select: { id: true } });
}

export function findOwnMediaJob(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findFirst({ where: { id, ownerAccountId, hiddenAt: null }, select: JOB });
}

export function findMediaJob(id: string, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findUnique({ where: { id }, select: JOB });
}

export function findMediaJobByCallbackToken(callbackToken: string, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findUnique({ where: { callbackToken }, select: JOB });
}

export function listOwnMediaJobsByIds(ownerAccountId: string, ids: string[], tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findMany({ where: { ownerAccountId, id: { in: ids } }, select: JOB });
}

/** What the gallery shows: a lip-sync or a training is a step of a render or a figure, shown on their own pages. */
const GALLERY_KINDS: TMediaJobKind[] = ["image", "video", "speech"];

export async function listOwnMediaJobs(ownerAccountId: string, opts: { kind?: TMediaJobKind; skip: number; take: number }, tx: TDbOrTx = getDb()) {
  const where = { ownerAccountId, hiddenAt: null, kind: opts.kind ?? { in: GALLERY_KINDS } };
  const [rows, total] = await Promise.all([
    tx.mediaJob.findMany({ where, select: JOB, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: opts.skip, take: opts.take }),
    tx.mediaJob.count({ where }),
  ]);
  return { rows, total };
}

/** Jobs of the owner not yet finished: a cap on how many one account may have waiting. */
export function countUnfinishedJobs(ownerAccountId: string, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.count({ where: { ownerAccountId, state: { in: ["queued", "generating", "background"] } } });
}

export async function hideOwnMediaJob(ownerAccountId: string, id: string, now: Date, tx: TDbOrTx = getDb()) {
  const { count } = await tx.mediaJob.updateMany({
    where: { id, ownerAccountId, hiddenAt: null, state: { in: ["done", "failed", "failed_review"] } },
    data: { hiddenAt: now },
  });
  return count === 1;
}

/** Moves a job to `to` from one of `from`, with other fields; false when it was not in one of them. */
export async function moveMediaJob(
  id: string,
  from: readonly TMediaJobState[],
  to: TMediaJobState,
  data: Prisma.MediaJobUpdateManyMutationInput = {},
  tx: TDbOrTx = getDb(),
) {
  const { count } = await tx.mediaJob.updateMany({ where: { id, state: { in: [...from] } }, data: { ...data, state: to } });
  return count === 1;
}

/** Updates a running job's provider fields (task id, state word, progress, next poll) without moving it. */
export async function updateRunningJob(id: string, data: Prisma.MediaJobUpdateManyMutationInput, tx: TDbOrTx = getDb()) {
  const { count } = await tx.mediaJob.updateMany({ where: { id, state: { in: [...RUNNING_STATES] } }, data });
  return count === 1;
}

/**
 * Takes the next job of the fair queue and marks it started. Fair: among accounts with fewer than
 * `perAccount` jobs running, the one with the fewest running goes first, then the one that started a
 * job longest ago (never first of all), then the oldest job. So an account with a hundred jobs waiting
 * gets one turn in each round, not a hundred turns before anyone else. Claims are serialised by an
 * advisory lock: two workers cannot both take an account's last free place. Trainings (an avatar, a
 * voice) wait days at their provider doing nothing of ours, so they take no place.
 */
export async function claimNextMediaJob(perAccount: number, now: Date, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('media_job_claim'))`;
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH running AS (
      SELECT owner_account_id, count(*)::int AS n FROM media_job
      WHERE state IN ('generating', 'background') AND started_at IS NOT NULL AND kind NOT IN ('avatar_training', 'voice_clone')
      GROUP BY owner_account_id
    ), lately AS (
      SELECT owner_account_id, max(started_at) AS last_start FROM media_job
      WHERE started_at > ${new Date(now.getTime() - 24 * 3600_000)}
      GROUP BY owner_account_id
    )
    SELECT j.id FROM media_job j
    LEFT JOIN running r ON r.owner_account_id = j.owner_account_id
    LEFT JOIN lately l ON l.owner_account_id = j.owner_account_id
    WHERE j.state IN ('queued', 'background') AND j.started_at IS NULL AND COALESCE(r.n, 0) < ${perAccount}
    ORDER BY COALESCE(r.n, 0), l.last_start ASC NULLS FIRST, j.created_at, j.id
    LIMIT 1`;
  if (!rows.length) return null;
  const id = rows[0].id;
  await tx.mediaJob.updateMany({ where: { id, state: "queued" }, data: { state: "generating" } });
  await tx.mediaJob.updateMany({ where: { id }, data: { startedAt: now } });
  return tx.mediaJob.findUnique({ where: { id }, select: JOB });
}

/** Unfinished jobs past their deadline. */
export function listExpiredMediaJobs(now: Date, take = 100, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findMany({ where: { state: { in: ["queued", "generating", "background"] }, deadlineAt: { lt: now } }, select: JOB, take });
}

/** Started jobs whose next poll (or resubmission) is overdue: the poll that should have come was lost with its worker. */
export function listOverdueMediaJobs(before: Date, take = 100, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findMany({
    where: {
      state: { in: [...RUNNING_STATES] },
      startedAt: { not: null },
      OR: [{ nextPollAt: { lt: before } }, { nextPollAt: null, startedAt: { lt: before } }],
    },
    select: JOB,
    take,
  });
}

/** Jobs waiting for a place in the queue. */
export function countWaitingMediaJobs(tx: TDbOrTx = getDb()) {
  return tx.mediaJob.count({ where: { state: { in: ["queued", "background"] }, startedAt: null } });
}

/** Poster keys of the job's library items, once the derive step made them. */
export function listJobItemsMeta(jobIds: string[], tx: TDbOrTx = getDb()) {
  return tx.mediaItem.findMany({ where: { jobId: { in: jobIds }, deletedAt: null }, select: { id: true, jobId: true, fileKey: true, meta: true } });
}
