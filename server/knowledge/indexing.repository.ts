// What the indexing job and retrieval read and write about training sets. The sets'
// CRUD lives in training-sets.repository.ts; this file is the job's and the chat's side.
import { queryDirect } from "../db/direct-pool";
import { getDb, type TDbOrTx } from "../db/client";

export type TSetForIndexing = {
  id: string;
  ownerAccountId: string;
  type: "standard" | "smart" | "database";
  state: "training" | "done" | "failed" | "stopped" | "disabled";
  revision: number;
  deletedAt: Date | null;
};

export async function findSetForIndexing(id: string, tx: TDbOrTx = getDb()): Promise<TSetForIndexing | null> {
  return tx.trainingSet.findUnique({ where: { id }, select: { id: true, ownerAccountId: true, type: true, state: true, revision: true, deletedAt: true } });
}

/** Marks the set for training and returns the new revision: the job indexes that revision. */
export async function bumpRevision(id: string, tx: TDbOrTx = getDb()) {
  const row = await tx.trainingSet.update({
    where: { id },
    data: { revision: { increment: 1 }, state: "training", progress: 0, failureReason: null },
    select: { revision: true },
  });
  return row.revision;
}

export async function listQaItems(trainingSetId: string, tx: TDbOrTx = getDb()) {
  return tx.qaItem.findMany({
    where: { trainingSetId },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }],
    select: { id: true, question: true, answer: true },
  });
}

export async function listDocuments(trainingSetId: string, tx: TDbOrTx = getDb()) {
  return tx.trainingDocument.findMany({
    where: { trainingSetId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, fileKey: true, state: true, charCount: true },
  });
}

export async function updateDocument(
  id: string,
  data: { state: "pending" | "indexing" | "done" | "failed"; charCount?: number; error?: string | null },
  tx: TDbOrTx = getDb(),
) {
  await tx.trainingDocument.updateMany({ where: { id }, data });
}

/** Progress only while the revision is still the one being indexed. */
export async function setProgress(id: string, revision: number, progress: number) {
  await getDb().trainingSet.updateMany({ where: { id, revision, state: "training" }, data: { progress } });
}

/** The end of a run: true when this revision was still current (a newer edit supersedes it). */
export async function finishRevision(
  id: string,
  revision: number,
  data: { state: "done" | "failed"; charCount?: number; failureReason?: string | null },
  tx: TDbOrTx = getDb(),
) {
  const { count } = await tx.trainingSet.updateMany({
    where: { id, revision, state: "training", deletedAt: null },
    data: { ...data, progress: 100, ...(data.state === "done" ? { indexedAt: new Date() } : {}) },
  });
  return count === 1;
}

/** Agents (not deleted) whose draft or live version uses the set. */
export async function listAgentIdsUsingSet(trainingSetId: string, tx: TDbOrTx = getDb()): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT a.id FROM agent a JOIN agent_version v ON v.agent_id = a.id
    WHERE a.deleted_at IS NULL AND v.state IN ('draft', 'under_review', 'published', 'published_in_review', 'on_shelf', 'invalid')
      AND v.config -> 'training_set_ids' ? ${trainingSetId}`;
  return rows.map((r) => r.id);
}

/** Whether any of the agent's sets other than this one still fails (then the agent stays invalid). */
export async function listFailingSetsOf(agentId: string, tx: TDbOrTx = getDb()): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT ts.id FROM agent_version v
    JOIN training_set ts ON v.config -> 'training_set_ids' ? ts.id
    JOIN account o ON o.id = ts.owner_account_id
    WHERE v.agent_id = ${agentId} AND v.state IN ('published', 'published_in_review', 'on_shelf', 'invalid') AND ts.deleted_at IS NULL
      AND (ts.state IN ('failed', 'stopped', 'disabled') OR o.knowledge_paused_at IS NOT NULL)`;
  return rows.map((r) => r.id);
}

/** A set retrieval searches; its vectors change only with a new revision. */
export type TRetrievableSet = { id: string; type: "standard" | "smart" | "database"; name: string; revision: number; state: "done" | "training" };

/**
 * The agent's sets a chat may search: the agent owner's own (a set id copied into someone
 * else's agent finds nothing), not deleted, not failed, stopped or disabled, owner not paused.
 * A set being re-trained keeps its previous passages until the new ones replace them.
 */
export async function listRetrievableSets(agentId: string, trainingSetIds: string[]): Promise<TRetrievableSet[]> {
  // On the read pool: every chat turn of an agent with training sets asks this.
  return queryDirect<TRetrievableSet>({
    name: "zl_retrievable_sets",
    text: `SELECT ts.id, ts.type::text AS type, ts.name, ts.revision, ts.state::text AS state FROM training_set ts
      JOIN agent a ON a.id = $1 AND a.owner_account_id = ts.owner_account_id
      JOIN account o ON o.id = ts.owner_account_id
      WHERE ts.id = ANY($2::text[]) AND ts.deleted_at IS NULL
        AND ts.state IN ('done', 'training') AND o.knowledge_paused_at IS NULL`,
    values: [agentId, trainingSetIds],
  });
}

/** Characters the account keeps in its other sets (what the free allowance is checked against). */
export async function sumCharsOfOtherSets(accountId: string, exceptSetId: string, tx: TDbOrTx = getDb()) {
  const r = await tx.trainingSet.aggregate({ where: { ownerAccountId: accountId, deletedAt: null, id: { not: exceptSetId } }, _sum: { charCount: true } });
  return r._sum.charCount ?? 0;
}

export async function setKnowledgePausedAt(accountId: string, at: Date | null, tx: TDbOrTx = getDb()) {
  await tx.account.update({ where: { id: accountId }, data: { knowledgePausedAt: at } });
}

/** Agents (not deleted) whose draft or live version uses any of the account's sets. */
export async function listAgentIdsUsingSetsOf(accountId: string, tx: TDbOrTx = getDb()): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT a.id FROM agent a JOIN agent_version v ON v.agent_id = a.id
    JOIN training_set ts ON ts.owner_account_id = ${accountId} AND ts.deleted_at IS NULL AND v.config -> 'training_set_ids' ? ts.id
    WHERE a.deleted_at IS NULL AND v.state IN ('draft', 'under_review', 'published', 'published_in_review', 'on_shelf', 'invalid')`;
  return rows.map((r) => r.id);
}
