// Training a set: a job, never a request that waits. An edit bumps the set's revision
// and puts it in "training"; the job builds the passages of that revision (Q&A items, or the text
// of the documents split into pieces), embeds them when an embedding model is configured, and
// ends in "done" or "failed". A newer edit supersedes a running job: it only writes while its
// revision is still the set's. Agents using a set that fails turn invalid (invalidateAgent) and recover
// when none of their sets fails any more.
import { assertTrainingCharsAllowed } from "../money/metering/storage-allowance";
import type { Job } from "bullmq";
import * as agents from "../agents/agents.service";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { enqueueJob } from "../jobs/jobs";
import { logger } from "../lib/logger";
import { getEmbedder } from "../models/embeddings.service";
import { extractDocumentText } from "../dialogues/document-text";
import { getFileStore } from "../uploads/file-store";
import { chunkText } from "./chunk-text";
import * as repo from "./indexing.repository";
import * as passages from "./passages.repository";
import { toTsvectorLiteral } from "./text-segmenter";

/**
 * Re-trains a set after its content changed. Call it after your transaction committed (the job
 * runs on another connection, and on the embedded database a second connection waits for the
 * first one's transaction). The set shows "training" from now until the job ends.
 */
export async function requestIndexing(trainingSetId: string): Promise<void> {
  const revision = await repo.bumpRevision(trainingSetId);
  await enqueueJob("knowledge.index", { trainingSetId, revision }, { jobId: `index-${trainingSetId}-${revision}` });
}

type TIndexPayload = { trainingSetId: string; revision: number };
export type TIndexOutcome = "done" | "failed" | "superseded" | "gone";

/** The job handler (workers/main.ts). */
export async function handleKnowledgeIndex(payload: TIndexPayload, _job?: Job): Promise<TIndexOutcome> {
  return indexTrainingSet(payload.trainingSetId, payload.revision);
}

export async function indexTrainingSet(trainingSetId: string, revision: number): Promise<TIndexOutcome> {
  const set = await repo.findSetForIndexing(trainingSetId);
  if (!set || set.deletedAt) return "gone";
  if (set.revision !== revision || set.state !== "training") return "superseded";
  try {
    let charCount: number;
    if (set.type === "standard") charCount = await indexQaItems(set);
    else if (set.type === "smart") charCount = await indexDocuments(set);
    else charCount = 0; // database sets keep no passages: the model writes SQL from their statements.
    const others = await repo.sumCharsOfOtherSets(set.ownerAccountId, set.id);
    await assertTrainingCharsAllowed(set.ownerAccountId, others, charCount);
    await embedPassages(set, revision);
    if (!(await repo.finishRevision(set.id, revision, { state: "done", charCount, failureReason: null }))) return "superseded";
    await reviewAgentsOf(set.id);
    await refreshStatisticsSoon();
    return "done";
  } catch (err) {
    const reason = err instanceof AppError ? err.code : "training_failed";
    // A refusal we name (too many characters, nothing readable) is the owner's to fix, not ours.
    if (err instanceof AppError) logger.info({ trainingSetId, reason }, "training a set failed");
    else logger.warn({ err, trainingSetId }, "training a set failed");
    if (!(await repo.finishRevision(set.id, revision, { state: "failed", failureReason: reason }))) return "superseded";
    await reviewAgentsOf(set.id);
    return "failed";
  }
}

async function indexQaItems(set: repo.TSetForIndexing) {
  const items = await repo.listQaItems(set.id);
  const rows = items.map((item, i) => ({
    qaItemId: item.id,
    ordinal: i,
    title: item.question,
    content: item.answer,
    lexemes: toTsvectorLiteral([
      { text: item.question, weight: "A" },
      { text: item.answer, weight: "D" },
    ]),
  }));
  await withTransaction(async (tx) => {
    if ((await repo.findSetForIndexing(set.id, tx))?.revision !== set.revision) return;
    await passages.deletePassagesOfSet(set.id, tx);
    await passages.insertPassages(set.id, rows, tx);
  });
  return items.reduce((n, item) => n + [...item.question].length + [...item.answer].length, 0);
}

/**
 * New (or earlier failed) documents are read and split; documents already done keep their
 * passages. A document that cannot be read fails on its own; the set fails only if none is readable.
 */
async function indexDocuments(set: repo.TSetForIndexing) {
  const docs = await repo.listDocuments(set.id);
  const todo = docs.filter((d) => d.state !== "done");
  const built: Array<{ id: string; chars: number; rows: passages.TPassageInput[] } | { id: string; error: string }> = [];
  for (const [i, doc] of todo.entries()) {
    await repo.updateDocument(doc.id, { state: "indexing" });
    try {
      const stored = await getFileStore().get(doc.fileKey);
      if (!stored) throw new AppError("upload_failed");
      const { text } = await extractDocumentText(await readAll(stored.stream));
      const pieces = chunkText(text);
      built.push({
        id: doc.id,
        chars: [...text].length,
        rows: pieces.map((content, ordinal) => ({
          documentId: doc.id,
          ordinal,
          title: doc.name,
          content,
          lexemes: toTsvectorLiteral([{ text: content, weight: "D" }]),
        })),
      });
    } catch (err) {
      built.push({ id: doc.id, error: err instanceof AppError ? err.code : "training_failed" });
    }
    await repo.setProgress(set.id, set.revision, Math.round(((i + 1) / Math.max(1, todo.length)) * 80));
  }
  await withTransaction(async (tx) => {
    if ((await repo.findSetForIndexing(set.id, tx))?.revision !== set.revision) return;
    const ok = built.filter((b): b is Extract<(typeof built)[number], { rows: unknown }> => "rows" in b);
    await passages.deleteDocumentPassages(
      set.id,
      docs.map((d) => d.id),
      ok.map((b) => b.id),
      tx,
    );
    for (const b of ok) {
      await passages.insertPassages(set.id, b.rows, tx);
      await repo.updateDocument(b.id, { state: "done", charCount: b.chars, error: null }, tx);
    }
    for (const b of built) if ("error" in b) await repo.updateDocument(b.id, { state: "failed", charCount: 0, error: b.error }, tx);
  });
  const after = await repo.listDocuments(set.id);
  if (after.length > 0 && after.every((d) => d.state === "failed")) throw new AppError("training_failed");
  return after.reduce((n, d) => n + (d.state === "done" ? d.charCount : 0), 0);
}

/** Vectors for passages that have none from the configured model; none configured: nothing. */
async function embedPassages(set: repo.TSetForIndexing, revision: number) {
  const embedder = await getEmbedder();
  if (!embedder) return;
  for (;;) {
    const rows = await passages.listPassagesWithoutEmbedding(set.id, embedder.modelKey, 256);
    if (!rows.length) return;
    const vectors = await embedder.embed(rows.map((r) => `${r.title}\n${r.content}`));
    await passages.setEmbeddings(
      rows.map((r, i) => ({ id: r.id, embedding: vectors[i] })),
      embedder.modelKey,
    );
    await repo.setProgress(set.id, revision, 90);
  }
}

/**
 * Pauses or resumes an account's training-set service (unpaid storage, or an administrator): its
 * sets read as "unavailable", chats stop retrieving from them, and agents using them turn invalid
 * until it resumes.
 */
export async function setKnowledgePaused(accountId: string, paused: boolean) {
  await repo.setKnowledgePausedAt(accountId, paused ? new Date() : null);
  await reviewAgents(await repo.listAgentIdsUsingSetsOf(accountId), paused ? "training_set_unavailable" : "training_set_failed");
}

/**
 * Agents using the set: invalid while any of their sets fails (or is stopped or disabled), valid
 * again once none does. Runs at the end of training, and after a set is stopped or disabled.
 */
export async function reviewAgentsOf(trainingSetId: string) {
  await reviewAgents(await repo.listAgentIdsUsingSet(trainingSetId), "training_set_failed");
}

async function reviewAgents(agentIds: string[], reason: "training_set_failed" | "training_set_unavailable") {
  for (const agentId of agentIds) {
    try {
      const failing = await repo.listFailingSetsOf(agentId);
      if (failing.length) await agents.invalidateAgent(agentId, reason);
      else await agents.restoreAgent(agentId);
    } catch (err) {
      logger.error({ err, agentId }, "could not update an agent after its training sets changed");
    }
  }
}

const ANALYZE_EVERY_MS = 60_000;
let lastAnalyzeAt = 0;

/**
 * After a set's passages are written: their full-text entries merged into the index (searches
 * read a pending list whole), and word frequencies for ranking, which come from ANALYZE (the
 * embedded database never runs it itself), refreshed at most once a minute.
 */
async function refreshStatisticsSoon() {
  await passages.mergePendingFullTextEntries().catch((err) => logger.warn({ err }, "could not merge the full-text index's pending entries"));
  if (Date.now() - lastAnalyzeAt < ANALYZE_EVERY_MS) return;
  lastAnalyzeAt = Date.now();
  await passages.analyzePassages().catch((err) => logger.warn({ err }, "could not analyze the passages"));
}

async function readAll(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
