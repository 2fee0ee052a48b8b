// The only queries of workshop runs and their messages. A turn's message is inserted under an id
// made from the run and its place in it, so a resumed run finds the turn it was in the middle of;
// a run's status moves by conditional updates naming the status expected.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";

const RUN = {
  id: true,
  workshopId: true,
  versionId: true,
  definition: true,
  ownerAccountId: true,
  appId: true,
  consumerAccountId: true,
  visitorId: true,
  source: true,
  topic: true,
  status: true,
  endReason: true,
  nodeIndex: true,
  nodeEnds: true,
  stopRequested: true,
  hostCalls: true,
  language: true,
  createdAt: true,
  endedAt: true,
} as const;
export type TRunRow = Prisma.WorkshopRunGetPayload<{ select: typeof RUN }>;

const MESSAGE = {
  id: true,
  seq: true,
  nodeIndex: true,
  roleName: true,
  kind: true,
  content: true,
  instruction: true,
  visibleTo: true,
  status: true,
  hostCalls: true,
  updatedAt: true,
} as const;
export type TMessageRow = Prisma.WorkshopMessageGetPayload<{ select: typeof MESSAGE }>;

export type TNewRun = {
  id: string;
  workshopId: string;
  versionId: string | null;
  definition: object;
  ownerAccountId: string;
  appId: string | null;
  consumerAccountId: string | null;
  visitorId: string | null;
  source: string;
  topic: string;
  language: string;
  topicRole: string;
};

/** The run and its opening message (the topic, as the user's first message). */
export async function createRun(r: TNewRun, tx: TDbOrTx = getDb()) {
  const { topicRole, ...run } = r;
  await tx.workshopRun.create({ data: { ...run, status: "running" } });
  await tx.workshopMessage.create({
    data: { id: messageIdOf(r.id, 0), runId: r.id, seq: 0, nodeIndex: 0, roleName: topicRole, kind: "topic", content: r.topic, visibleTo: [], status: "done" },
  });
}

export const messageIdOf = (runId: string, seq: number) => `${runId}_${seq}`;

export function findRun(id: string, tx: TDbOrTx = getDb()) {
  return tx.workshopRun.findUnique({ where: { id }, select: RUN });
}

export function listMessages(runId: string, tx: TDbOrTx = getDb()) {
  return tx.workshopMessage.findMany({ where: { runId }, orderBy: { seq: "asc" }, select: MESSAGE });
}

/** A turn's message, "streaming" until it ends; the one already there when the turn is resumed. */
export function upsertTurnMessage(
  m: {
    id: string;
    runId: string;
    seq: number;
    nodeIndex: number;
    roleName: string;
    kind: string;
    instruction: string;
    hostCalls: number;
    visibleTo: string[];
    status: string;
    content?: string;
  },
  tx: TDbOrTx = getDb(),
) {
  return tx.workshopMessage.upsert({ where: { id: m.id }, create: m, update: {}, select: MESSAGE });
}

export async function writeMessageContent(id: string, content: string, tx: TDbOrTx = getDb()) {
  await tx.workshopMessage.updateMany({ where: { id, status: "streaming" }, data: { content } });
}

export async function finishMessage(
  id: string,
  data: { content: string; status: string; promptTokens: number; completionTokens: number; visibleTo?: string[] },
  tx: TDbOrTx = getDb(),
) {
  await tx.workshopMessage.update({ where: { id }, data });
}

/** A finished node: the next one starts (its end recorded). */
export async function advanceNode(runId: string, fromIndex: number, reason: string, tx: TDbOrTx = getDb()) {
  await tx.workshopRun.updateMany({
    where: { id: runId, nodeIndex: fromIndex, status: "running" },
    data: { nodeIndex: fromIndex + 1, nodeEnds: { push: reason } },
  });
}

export async function endRun(runId: string, reason: string, now: Date, error: string | null = null, tx: TDbOrTx = getDb()) {
  const r = await tx.workshopRun.updateMany({
    where: { id: runId, status: { not: "ended" } },
    data: { status: "ended", endReason: reason, endedAt: now, error },
  });
  return r.count === 1;
}

export async function setRunStatus(runId: string, from: string, to: string, tx: TDbOrTx = getDb()) {
  const r = await tx.workshopRun.updateMany({ where: { id: runId, status: from }, data: { status: to } });
  return r.count === 1;
}

export async function addHostCalls(runId: string, n: number, tx: TDbOrTx = getDb()) {
  if (n > 0) await tx.workshopRun.update({ where: { id: runId }, data: { hostCalls: { increment: n } } });
}

export async function requestStop(runId: string, tx: TDbOrTx = getDb()) {
  const r = await tx.workshopRun.updateMany({ where: { id: runId, status: { not: "ended" } }, data: { stopRequested: true } });
  return r.count === 1;
}

export async function readStopRequested(runId: string, tx: TDbOrTx = getDb()) {
  const r = await tx.workshopRun.findUnique({ where: { id: runId }, select: { stopRequested: true, status: true } });
  return !r || r.stopRequested || r.status === "ended";
}

/** Runs of a workshop (the developer's history) or of an app's consumer, newest first. */
export function listRuns(
  where: { workshopId?: string; appId?: string; consumerAccountId?: string | null; visitorId?: string | null; source?: string },
  tx: TDbOrTx = getDb(),
) {
  return tx.workshopRun.findMany({
    where,
    orderBy: { createdAt: "desc" },
    take: 50,
    select: { id: true, topic: true, status: true, endReason: true, createdAt: true },
  });
}

/**
 * Takes (or renews) the run for `owner` until `until`: only one worker carries a run, and another
 * takes it over only once the holder's lease ran out (the holder died).
 */
export async function leaseRun(runId: string, owner: string, now: Date, until: Date, tx: TDbOrTx = getDb()) {
  const r = await tx.workshopRun.updateMany({
    where: { id: runId, status: "running", OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }, { leaseOwner: owner }] },
    data: { leaseOwner: owner, leaseUntil: until },
  });
  return r.count === 1;
}

export async function releaseRun(runId: string, owner: string, tx: TDbOrTx = getDb()) {
  await tx.workshopRun.updateMany({ where: { id: runId, leaseOwner: owner }, data: { leaseOwner: null, leaseUntil: null } });
}

/** Runs a worker should be carrying but none is: running, and no lease or a lapsed one. */
export function listStalledRuns(now: Date, tx: TDbOrTx = getDb()) {
  return tx.workshopRun.findMany({
    where: { status: "running", OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }], updatedAt: { lt: new Date(now.getTime() - 5_000) } },
    take: 100,
    select: { id: true },
  });
}

/** The developer as the turn pipeline knows an actor. */
export function findActor(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.account.findUnique({ where: { id: accountId }, select: { id: true, roles: true, enterpriseId: true } });
}

/** The person's words fill the message that waited for them; false when it no longer waits. */
export async function fillWaitingMessage(id: string, content: string, visibleTo: string[], tx: TDbOrTx = getDb()) {
  const r = await tx.workshopMessage.updateMany({ where: { id, status: "waiting" }, data: { content, visibleTo, status: "done" } });
  return r.count === 1;
}

export function findMessage(id: string, tx: TDbOrTx = getDb()) {
  return tx.workshopMessage.findUnique({ where: { id }, select: MESSAGE });
}
