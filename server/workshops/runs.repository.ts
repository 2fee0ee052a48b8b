// The only queries of workshop runs and their messages. A turn's message is inserted under an id
// made from the run and its place in it, so a resumed run finds the turn it was in the middle of;
// a run's status moves by conditional updates naming the status expected. What the engine reads
// and writes on every turn (the run, its messages, the turn's message) goes straight through
// node-postgres (direct-pool.ts): Prisma's engine would cost each of those statements a millisecond.
import { getDb, type TDbOrTx } from "../db/client";
import { executeDirect, queryDirect } from "../db/direct-pool";
import type { Prisma } from "../db/generated/client";

export type TRunRow = {
  id: string;
  workshopId: string;
  versionId: string | null;
  definition: Prisma.JsonValue;
  ownerAccountId: string;
  appId: string | null;
  consumerAccountId: string | null;
  visitorId: string | null;
  source: string;
  topic: string;
  status: string;
  endReason: string | null;
  nodeIndex: number;
  nodeEnds: string[];
  stopRequested: boolean;
  hostCalls: number;
  language: string;
  createdAt: Date;
  endedAt: Date | null;
};

const RUN_COLUMNS = `id, workshop_id AS "workshopId", version_id AS "versionId", definition, owner_account_id AS "ownerAccountId",
  app_id AS "appId", consumer_account_id AS "consumerAccountId", visitor_id AS "visitorId", source, topic, status,
  end_reason AS "endReason", node_index AS "nodeIndex", coalesce(node_ends, '{}') AS "nodeEnds", stop_requested AS "stopRequested",
  host_calls AS "hostCalls", language, created_at AS "createdAt", ended_at AS "endedAt"`;

export type TMessageRow = {
  id: string;
  seq: number;
  nodeIndex: number;
  roleName: string;
  kind: string;
  content: string;
  instruction: string;
  visibleTo: string[];
  status: string;
  hostCalls: number;
  updatedAt: Date;
};

const MESSAGE_COLUMNS = `id, seq, node_index AS "nodeIndex", role_name AS "roleName", kind, content, instruction,
  coalesce(visible_to, '{}') AS "visibleTo", status, host_calls AS "hostCalls", updated_at AS "updatedAt"`;

/** Now as the timestamp columns keep it (UTC wall time, as Prisma writes it). */
const NOW_UTC = `(now() AT TIME ZONE 'UTC')`;

export type TNewRun = Pick<
  TRunRow,
  "id" | "workshopId" | "versionId" | "ownerAccountId" | "appId" | "consumerAccountId" | "visitorId" | "source" | "topic" | "language"
> & { definition: object; topicRole: string };

/** The run and its opening message (the topic, as the user's first message). */
export async function createRun(r: TNewRun, tx: TDbOrTx = getDb()) {
  const { topicRole, ...run } = r;
  await tx.workshopRun.create({ data: { ...run, status: "running" } });
  await tx.workshopMessage.create({
    data: { id: messageIdOf(r.id, 0), runId: r.id, seq: 0, nodeIndex: 0, roleName: topicRole, kind: "topic", content: r.topic, visibleTo: [], status: "done" },
  });
}

export const messageIdOf = (runId: string, seq: number) => `${runId}_${seq}`;

export async function findRun(id: string, tx?: TDbOrTx): Promise<TRunRow | null> {
  const [row] = await queryDirect<TRunRow>({ name: "zl_ws_run", text: `SELECT ${RUN_COLUMNS} FROM workshop_run WHERE id = $1`, values: [id] }, tx);
  return row ?? null;
}

export function listMessages(runId: string, tx?: TDbOrTx) {
  return queryDirect<TMessageRow>(
    { name: "zl_ws_messages", text: `SELECT ${MESSAGE_COLUMNS} FROM workshop_message WHERE run_id = $1 ORDER BY seq`, values: [runId] },
    tx,
  );
}

/** A turn's message, "streaming" until it ends; the one already there when the turn is resumed. */
export async function upsertTurnMessage(
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
  },
  tx?: TDbOrTx,
): Promise<TMessageRow> {
  // The no-op update makes RETURNING give the row already there.
  const [row] = await queryDirect<TMessageRow>(
    {
      name: "zl_ws_turn_message",
      text: `INSERT INTO workshop_message (id, run_id, seq, node_index, role_name, kind, instruction, host_calls, visible_to, status, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[], $10, ${NOW_UTC}, ${NOW_UTC})
        ON CONFLICT (id) DO UPDATE SET id = workshop_message.id
        RETURNING ${MESSAGE_COLUMNS}`,
      values: [m.id, m.runId, m.seq, m.nodeIndex, m.roleName, m.kind, m.instruction, m.hostCalls, m.visibleTo, m.status],
    },
    tx,
  );
  return row;
}

export async function writeMessageContent(id: string, content: string, tx: TDbOrTx = getDb()) {
  await tx.workshopMessage.updateMany({ where: { id, status: "streaming" }, data: { content } });
}

export async function finishMessage(
  id: string,
  d: { content: string; status: string; promptTokens: number; completionTokens: number; visibleTo?: string[] },
  tx?: TDbOrTx,
) {
  await executeDirect(
    {
      name: "zl_ws_finish_message",
      text: `UPDATE workshop_message SET content = $2, status = $3, prompt_tokens = $4, completion_tokens = $5,
        visible_to = coalesce($6::text[], visible_to), updated_at = ${NOW_UTC} WHERE id = $1`,
      values: [id, d.content, d.status, d.promptTokens, d.completionTokens, d.visibleTo ?? null],
    },
    tx,
  );
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

/** The person's words fill the message that waited for them; false when it no longer waits. */
export async function fillWaitingMessage(id: string, content: string, visibleTo: string[], tx: TDbOrTx = getDb()) {
  const r = await tx.workshopMessage.updateMany({ where: { id, status: "waiting" }, data: { content, visibleTo, status: "done" } });
  return r.count === 1;
}

export async function findMessage(id: string, tx?: TDbOrTx): Promise<TMessageRow | null> {
  const [row] = await queryDirect<TMessageRow>(
    { name: "zl_ws_message", text: `SELECT ${MESSAGE_COLUMNS} FROM workshop_message WHERE id = $1`, values: [id] },
    tx,
  );
  return row ?? null;
}
