// Training sets as their owners keep them: standard sets of Q&A items and
// smart sets of uploaded documents. A content change commits, then asks for indexing (a job,
// never a request that waits). Characters are checked against the free allowance before Q&A text
// is added; documents are counted once the job has read them. Someone else's set is not found.
//
// Deleting a set that agents use is allowed, as in Dify and FastGPT: the list and the confirmation
// name the agents, and the agents lose the set (retrieval skips deleted sets; the editor marks the
// id as deleted and the agent's next save asks to remove it).
import { assertTrainingCharsAllowed } from "../money/metering/storage-allowance";
import { FREE_TRAINING_CHARS } from "../accounts/editions";
import { assertOwned } from "../accounts/access";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertWithinLimit } from "../accounts/entitlements.service";
import { type TDbOrTx, withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { deleteFiles } from "../uploads/uploads.service";
import { requestIndexing, reviewAgentsOf } from "./indexing.service";
import { sumCharsOfOtherSets } from "./indexing.repository";
import { moveTrainingSet, type TTrainingSetMove, type TTrainingSetState } from "./training-set-lifecycle";
import * as repo from "./training-sets.repository";
import {
  countChars,
  questionKey,
  type TAddQaItemInput,
  type TCreateTrainingSetInput,
  type TListQaItemsInput,
  type TQaItemRef,
  type TTrainingSetActionInput,
  type TTrainingSetIdInput,
  type TUpdateQaItemInput,
  type TUpdateTrainingSetInput,
  type TQaItemPage,
  type TQaItemView,
  type TTrainingDocumentView,
  type TTrainingSetAgent,
  type TTrainingSetDetail,
  type TTrainingSetSummary,
} from "./training-sets.schema";

export type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;
type TSet = repo.TTrainingSetRow;

function toSummary(set: TSet, agents: TTrainingSetAgent[]): TTrainingSetSummary {
  return {
    id: set.id,
    name: set.name,
    introduction: set.introduction,
    type: set.type,
    state: set.owner.knowledgePausedAt ? "unavailable" : set.state,
    progress: set.progress,
    char_count: set.charCount,
    failure_reason: set.failureReason,
    agents,
    created_at: set.createdAt.toISOString(),
    updated_at: set.updatedAt.toISOString(),
  };
}

export function toDocumentView(d: repo.TTrainingDocumentRow): TTrainingDocumentView {
  return { id: d.id, name: d.name, mime: d.mime, size: d.size, char_count: d.charCount, state: d.state, error: d.error, created_at: d.createdAt.toISOString() };
}

const toQaView = (i: repo.TQaItemRow): TQaItemView => ({
  id: i.id,
  question: i.question,
  answer: i.answer,
  position: i.position,
  updated_at: i.updatedAt.toISOString(),
});

async function agentsBySet(accountId: string, tx?: TDbOrTx) {
  const bySet = new Map<string, TTrainingSetAgent[]>();
  for (const r of await repo.listAgentsUsingSetsOf(accountId, tx)) bySet.set(r.setId, [...(bySet.get(r.setId) ?? []), { id: r.agentId, name: r.agentName }]);
  return bySet;
}

/** The set when the actor owns it; otherwise not found, whatever the verb. */
export async function loadOwnedSet(actor: TActor, id: string, tx?: TDbOrTx) {
  const set = await repo.findSetById(id, tx);
  return assertOwned(set ? { ...set, accountId: set.ownerAccountId } : null, actor);
}

/**
 * Runs a change of one of the actor's sets inside a transaction that holds the account's lock,
 * after checking the set's type, the paused storage service and the lifecycle move.
 */
export async function changeOwnedSet<T>(
  actor: TActor,
  id: string,
  opts: { move: TTrainingSetMove; type?: "standard" | "smart"; refuseWhenPaused: boolean },
  fn: (set: TSet, tx: TDbOrTx, to: TTrainingSetState) => Promise<T>,
): Promise<T> {
  return withTransaction(async (tx) => {
    await repo.lockAccountSets(actor.id, tx);
    const set = await loadOwnedSet(actor, id, tx);
    if (opts.type && set.type !== opts.type) throw new AppError("training_set_wrong_type", { data: { type: set.type } });
    if (opts.refuseWhenPaused && set.owner.knowledgePausedAt) throw new AppError("training_set_unavailable");
    const to = moveTrainingSet(set.state, opts.move);
    return fn(set, tx, to);
  });
}

/** Refuses text past the free characters (FREE_TRAINING_CHARS) that the account could not pay a day's storage for, naming the numbers. */
export async function assertCharactersFit(set: TSet, currentSetChars: number, adding: number, tx: TDbOrTx) {
  if (adding <= 0) return;
  const used = (await sumCharsOfOtherSets(set.ownerAccountId, set.id, tx)) + currentSetChars;
  await assertTrainingCharsAllowed(set.ownerAccountId, used, adding, tx);
}

// --- Sets ----------------------------------------------------------------------------------

export async function listTrainingSets(actor: TActor): Promise<TTrainingSetSummary[]> {
  const [sets, agents] = await Promise.all([repo.listSetsOf(actor.id), agentsBySet(actor.id)]);
  return sets.map((s) => toSummary(s, agents.get(s.id) ?? []));
}

export async function getTrainingSet(actor: TActor, { id }: TTrainingSetIdInput): Promise<TTrainingSetDetail> {
  const set = await loadOwnedSet(actor, id);
  const [agents, itemCount, documents, others] = await Promise.all([
    agentsBySet(actor.id),
    set.type === "standard" ? repo.countQaItems(set.id) : 0,
    set.type === "smart" ? repo.listDocumentsOf(set.id) : [],
    sumCharsOfOtherSets(set.ownerAccountId, set.id),
  ]);
  return {
    ...toSummary(set, agents.get(set.id) ?? []),
    item_count: itemCount,
    documents: documents.map(toDocumentView),
    chars_used: others + set.charCount,
    chars_limit: FREE_TRAINING_CHARS,
  };
}

export async function createTrainingSet(actor: TActor, input: TCreateTrainingSetInput): Promise<TTrainingSetSummary> {
  const set = await withTransaction(async (tx) => {
    await repo.lockAccountSets(actor.id, tx);
    await assertWithinLimit(actor.id, "trainingSets", await repo.countSetsOf(actor.id, tx), new Date(), tx);
    return repo.insertSet(
      { ownerAccountId: actor.id, enterpriseId: actor.enterpriseId, name: input.name, introduction: input.introduction, type: input.type },
      tx,
    );
  });
  return toSummary(set, []);
}

/** Name and introduction: not content, so no training and no state check. */
export async function updateTrainingSet(actor: TActor, input: TUpdateTrainingSetInput): Promise<TTrainingSetSummary> {
  const set = await withTransaction(async (tx) => {
    await loadOwnedSet(actor, input.id, tx);
    return repo.updateSetById(input.id, { name: input.name, introduction: input.introduction }, tx);
  });
  return toSummary(set, (await agentsBySet(actor.id)).get(set.id) ?? []);
}

/** Soft delete in any state (also while paused: it frees storage). The documents' files go. */
export async function deleteTrainingSet(actor: TActor, { id }: TTrainingSetIdInput) {
  const fileKeys = await withTransaction(async (tx) => {
    await repo.lockAccountSets(actor.id, tx);
    const set = await loadOwnedSet(actor, id, tx);
    const docs = set.type === "smart" ? await repo.listDocumentsOf(id, tx) : [];
    await repo.updateSetById(id, { deletedAt: new Date() }, tx);
    return docs.map((d) => d.fileKey);
  });
  await deleteFiles(fileKeys);
  return { id };
}

/** stop, disable, enable, retrain (training-set-lifecycle.ts). Enabling and retraining train again. */
export async function applyTrainingSetAction(actor: TActor, { id, action }: TTrainingSetActionInput): Promise<TTrainingSetSummary> {
  const trains = action === "enable" || action === "retrain";
  await changeOwnedSet(actor, id, { move: action, refuseWhenPaused: trains }, async (set, tx, to) => {
    if (set.type === "database") throw new AppError("training_set_wrong_type", { data: { type: set.type } });
    // stop and disable end a run: the job only finishes a set still in "training".
    if (!trains) await repo.updateSetById(id, { state: to, progress: set.state === "training" ? set.progress : 100 }, tx);
  });
  // Training again settles the agents when it ends; a stopped or disabled set affects them now.
  if (trains) await requestIndexing(id);
  else await reviewAgentsOf(id);
  const set = await loadOwnedSet(actor, id);
  return toSummary(set, (await agentsBySet(actor.id)).get(id) ?? []);
}

// --- Q&A items -----------------------------------------------------------------------------

export async function listQaItems(actor: TActor, { id, page, pageSize, search }: TListQaItemsInput): Promise<TQaItemPage> {
  const set = await loadOwnedSet(actor, id);
  if (set.type !== "standard") throw new AppError("training_set_wrong_type", { data: { type: set.type } });
  const { items, total } = await repo.listQaItemsPage(id, { skip: (page - 1) * pageSize, take: pageSize, search });
  return { items: items.map(toQaView), total, page, pageSize };
}

const duplicateRefusal = () => new AppError("qa_question_duplicate", { data: { fields: [{ path: "question", message: "qa_question_duplicate" }] } });

export async function addQaItem(actor: TActor, { id, question, answer }: TAddQaItemInput): Promise<TQaItemView> {
  const item = await changeOwnedSet(actor, id, { move: "edit", type: "standard", refuseWhenPaused: true }, async (set, tx) => {
    if ((await repo.findQuestionsByKey(id, [questionKey(question)], null, tx)).length) throw duplicateRefusal();
    await assertCharactersFit(set, await repo.countQaChars(id, tx), countChars(question) + countChars(answer), tx);
    const [created] = await repo.insertQaItems(id, [{ question, answer, position: (await repo.maxQaPosition(id, tx)) + 1 }], tx);
    return created;
  });
  await requestIndexing(id);
  return toQaView(item);
}

export async function updateQaItem(actor: TActor, { id, itemId, question, answer }: TUpdateQaItemInput): Promise<TQaItemView> {
  const item = await changeOwnedSet(actor, id, { move: "edit", type: "standard", refuseWhenPaused: true }, async (set, tx) => {
    const before = await repo.findQaItem(id, itemId, tx);
    if (!before) throw new AppError("not_found");
    if ((await repo.findQuestionsByKey(id, [questionKey(question)], itemId, tx)).length) throw duplicateRefusal();
    const delta = countChars(question) + countChars(answer) - countChars(before.question) - countChars(before.answer);
    await assertCharactersFit(set, await repo.countQaChars(id, tx), delta, tx);
    return repo.updateQaItemById(itemId, { question, answer }, tx);
  });
  await requestIndexing(id);
  return toQaView(item);
}

/** Deleting frees characters: allowed while the storage service is paused. */
export async function deleteQaItem(actor: TActor, { id, itemId }: TQaItemRef) {
  await changeOwnedSet(actor, id, { move: "edit", type: "standard", refuseWhenPaused: false }, async (_set, tx) => {
    if (!(await repo.findQaItem(id, itemId, tx))) throw new AppError("not_found");
    await repo.deleteQaItemById(itemId, tx);
  });
  await requestIndexing(id);
  return { id: itemId };
}
