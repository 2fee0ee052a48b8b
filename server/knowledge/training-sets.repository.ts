// The only queries of training sets, their Q&A items and documents as their owners edit them.
// The indexing job's side (passages, revisions, progress) is indexing.repository.ts.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TTrainingSetState } from "./training-set-lifecycle";

const SET = {
  id: true,
  ownerAccountId: true,
  enterpriseId: true,
  name: true,
  introduction: true,
  type: true,
  state: true,
  progress: true,
  charCount: true,
  failureReason: true,
  revision: true,
  createdAt: true,
  updatedAt: true,
  owner: { select: { knowledgePausedAt: true } },
} as const;

const QA = { id: true, question: true, answer: true, position: true, updatedAt: true } as const;
const DOCUMENT = { id: true, name: true, fileKey: true, mime: true, size: true, charCount: true, state: true, error: true, createdAt: true } as const;

export type TTrainingSetRow = Prisma.TrainingSetGetPayload<{ select: typeof SET }>;
export type TQaItemRow = Prisma.QaItemGetPayload<{ select: typeof QA }>;
export type TTrainingDocumentRow = Prisma.TrainingDocumentGetPayload<{ select: typeof DOCUMENT }>;

/** Versions that count as an agent using a set: its draft, a submission, or what is live. */
const USING_STATES = ["draft", "under_review", "published", "published_in_review", "on_shelf", "invalid"];

/**
 * Serialises writes that add sets or characters to one account: the edition's set limit and the
 * free characters cannot be passed by two racing requests.
 */
export async function lockAccountSets(accountId: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('training_sets:' || ${accountId}))`;
}

export async function countSetsOf(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.trainingSet.count({ where: { ownerAccountId: accountId, deletedAt: null } });
}

export async function insertSet(
  data: { ownerAccountId: string; enterpriseId: string | null; name: string; introduction: string; type: "standard" | "smart" },
  tx: TDbOrTx = getDb(),
) {
  // An empty set has nothing to train: it starts done, with no characters.
  return tx.trainingSet.create({ data: { ...data, state: "done", progress: 100 }, select: SET });
}

export async function findSetById(id: string, tx: TDbOrTx = getDb()) {
  return tx.trainingSet.findFirst({ where: { id, deletedAt: null }, select: SET });
}

export async function listSetsOf(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.trainingSet.findMany({ where: { ownerAccountId: accountId, deletedAt: null }, orderBy: { createdAt: "desc" }, select: SET });
}

export async function updateSetById(
  id: string,
  data: { name?: string; introduction?: string; state?: TTrainingSetState; progress?: number; deletedAt?: Date },
  tx: TDbOrTx = getDb(),
) {
  return tx.trainingSet.update({ where: { id }, data, select: SET });
}

/** The owner's agents using each of their sets (not deleted; draft, submitted or live versions). */
export async function listAgentsUsingSetsOf(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.$queryRaw<{ setId: string; agentId: string; agentName: string }[]>`
    SELECT DISTINCT ids.set_id AS "setId", a.id AS "agentId", a.name AS "agentName"
    FROM agent a
    JOIN agent_version v ON v.agent_id = a.id
    CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(v.config -> 'training_set_ids') = 'array' THEN v.config -> 'training_set_ids' ELSE '[]'::jsonb END) AS ids(set_id)
    WHERE a.owner_account_id = ${accountId} AND a.deleted_at IS NULL AND v.state::text = ANY(${USING_STATES}::text[])
    ORDER BY a.name`;
}

// --- Characters ----------------------------------------------------------------------------

/** Characters of a standard set's items as they are now (the stored charCount lags behind training). */
export async function countQaChars(trainingSetId: string, tx: TDbOrTx = getDb()) {
  const [row] = await tx.$queryRaw<{ n: bigint | null }[]>`
    SELECT SUM(char_length(question) + char_length(answer)) AS n FROM qa_item WHERE training_set_id = ${trainingSetId}`;
  return Number(row?.n ?? 0);
}

// --- Q&A items -----------------------------------------------------------------------------

function qaWhere(trainingSetId: string, search: string): Prisma.QaItemWhereInput {
  if (!search) return { trainingSetId };
  return { trainingSetId, OR: [{ question: { contains: search, mode: "insensitive" } }, { answer: { contains: search, mode: "insensitive" } }] };
}

export async function listQaItemsPage(trainingSetId: string, opts: { skip: number; take: number; search: string }, tx: TDbOrTx = getDb()) {
  const where = qaWhere(trainingSetId, opts.search);
  const [items, total] = await Promise.all([
    tx.qaItem.findMany({ where, orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }], skip: opts.skip, take: opts.take, select: QA }),
    tx.qaItem.count({ where }),
  ]);
  return { items, total };
}

export async function listAllQaItems(trainingSetId: string, tx: TDbOrTx = getDb()) {
  return tx.qaItem.findMany({ where: { trainingSetId }, orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }], select: QA });
}

export async function countQaItems(trainingSetId: string, tx: TDbOrTx = getDb()) {
  return tx.qaItem.count({ where: { trainingSetId } });
}

export async function findQaItem(trainingSetId: string, itemId: string, tx: TDbOrTx = getDb()) {
  return tx.qaItem.findFirst({ where: { id: itemId, trainingSetId }, select: QA });
}

/**
 * Items of the set whose question has one of these keys (trimmed, spaces collapsed, lower case:
 * questionKey in training-sets.schema.ts), except one item being edited.
 */
export async function findQuestionsByKey(trainingSetId: string, keys: string[], exceptItemId: string | null, tx: TDbOrTx = getDb()) {
  if (!keys.length) return [];
  return tx.$queryRaw<{ id: string; key: string }[]>`
    SELECT id, lower(regexp_replace(btrim(question), '\\s+', ' ', 'g')) AS key FROM qa_item
    WHERE training_set_id = ${trainingSetId} AND id <> ${exceptItemId ?? ""}
      AND lower(regexp_replace(btrim(question), '\\s+', ' ', 'g')) = ANY(${keys}::text[])`;
}

export async function maxQaPosition(trainingSetId: string, tx: TDbOrTx = getDb()) {
  const r = await tx.qaItem.aggregate({ where: { trainingSetId }, _max: { position: true } });
  return r._max.position ?? 0;
}

export async function insertQaItems(trainingSetId: string, items: { question: string; answer: string; position: number }[], tx: TDbOrTx = getDb()) {
  if (!items.length) return [];
  return tx.qaItem.createManyAndReturn({ data: items.map((i) => ({ ...i, trainingSetId })), select: QA });
}

export async function updateQaItemById(itemId: string, data: { question: string; answer: string }, tx: TDbOrTx = getDb()) {
  return tx.qaItem.update({ where: { id: itemId }, data, select: QA });
}

export async function deleteQaItemById(itemId: string, tx: TDbOrTx = getDb()) {
  await tx.qaItem.delete({ where: { id: itemId } });
}

// --- Documents (smart sets) ----------------------------------------------------------------

export async function listDocumentsOf(trainingSetId: string, tx: TDbOrTx = getDb()) {
  return tx.trainingDocument.findMany({ where: { trainingSetId }, orderBy: { createdAt: "asc" }, select: DOCUMENT });
}

export async function insertDocuments(trainingSetId: string, docs: { name: string; fileKey: string; mime: string; size: number }[], tx: TDbOrTx = getDb()) {
  return tx.trainingDocument.createManyAndReturn({ data: docs.map((d) => ({ ...d, trainingSetId })), select: DOCUMENT });
}

export async function findDocument(trainingSetId: string, documentId: string, tx: TDbOrTx = getDb()) {
  return tx.trainingDocument.findFirst({ where: { id: documentId, trainingSetId }, select: DOCUMENT });
}

export async function deleteDocumentById(documentId: string, tx: TDbOrTx = getDb()) {
  await tx.trainingDocument.delete({ where: { id: documentId } });
}
