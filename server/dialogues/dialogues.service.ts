// Dialogues as their owner sees them: history, one dialogue with its messages,
// rename, delete, feedback on replies, and stopping a reply. Another account's dialogue or
// message answers not_found, whatever is asked of it.
import { assertOwned } from "../accounts/access";
import { AppError } from "../errors/app-error";
import type { TActor } from "../accounts/accounts.schema";
import {
  INTERRUPTED_AFTER_MS,
  type TFeedbackInput,
  type TListDialoguesQuery,
  type TMessageIdInput,
  type TRenameDialogueInput,
  type TDialogueListItem,
  type TDialogueView,
  type TMessageView,
} from "./chat.schema";
import * as repo from "./dialogues.repository";
import { stopLocally } from "./stop-registry";

const isInterrupted = (lastMessageAt: Date) => Date.now() - lastMessageAt.getTime() > INTERRUPTED_AFTER_MS;

/** Cursor: "<lastMessageAt ms>_<id>" of the last item of the previous page. */
function readCursor(cursor: string | undefined) {
  const m = /^(\d+)_(.+)$/.exec(cursor ?? "");
  return m ? { at: new Date(Number(m[1])), id: m[2] } : undefined;
}

export async function listDialogues(actor: TActor, q: TListDialoguesQuery): Promise<{ items: TDialogueListItem[]; next_cursor: string | null }> {
  const rows = await repo.listDialoguesOf(actor.id, { agentId: q.agent_id, before: readCursor(q.cursor), limit: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((d) => ({
      id: d.id,
      title: d.title,
      agent_id: d.agentId,
      agent_name: d.agent?.name ?? null,
      agent_avatar_url: d.agent?.avatarUrl ?? null,
      last_message_at: d.lastMessageAt.toISOString(),
      created_at: d.createdAt.toISOString(),
      interrupted: isInterrupted(d.lastMessageAt),
    })),
    next_cursor: rows.length > q.limit && last ? `${last.lastMessageAt.getTime()}_${last.id}` : null,
  };
}

async function loadOwnedDialogue(actor: TActor, id: string) {
  return assertOwned(await repo.findDialogueById(id), actor);
}

export function toMessageView(m: repo.TMessageRow): TMessageView {
  // A reply that failed review is never shown again, not even to its reader.
  const hidden = m.status === "censored";
  return {
    id: m.id,
    role: m.role,
    content: hidden ? "" : m.content,
    reasoning: hidden ? "" : m.reasoning,
    functions: hidden ? [] : (m.functions as TMessageView["functions"]),
    retrieve: hidden ? [] : (m.retrieve as TMessageView["retrieve"]),
    images: Array.isArray(m.images) ? m.images.filter((u): u is string => typeof u === "string") : [],
    status: m.status,
    feedback: m.feedback,
    replaces_id: m.replacesId,
    created_at: m.createdAt.toISOString(),
  };
}

export async function getDialogue(actor: TActor, id: string): Promise<TDialogueView> {
  const d = await loadOwnedDialogue(actor, id);
  const [messages, agent, document] = await Promise.all([
    repo.listMessagesOf(d.id),
    d.agentId ? repo.findAgentNameAndAvatar(d.agentId) : null,
    d.documentId ? repo.findDocumentHeader(d.documentId) : null,
  ]);
  return {
    dialogue: {
      id: d.id,
      title: d.title,
      agent_id: d.agentId,
      agent_name: agent?.name ?? null,
      variables: (d.variables ?? {}) as Record<string, string>,
      document: document ? { id: document.id, name: document.name, expires_at: document.expiresAt.toISOString() } : null,
      interrupted: isInterrupted(d.lastMessageAt),
    },
    messages: messages.map(toMessageView),
  };
}

export async function renameDialogue(actor: TActor, id: string, { title }: TRenameDialogueInput) {
  await loadOwnedDialogue(actor, id);
  await repo.updateDialogueById(id, { title });
  return { id, title };
}

export async function deleteDialogue(actor: TActor, id: string) {
  await loadOwnedDialogue(actor, id);
  await repo.updateDialogueById(id, { deletedAt: new Date() });
  return { id };
}

/** A message of one of the caller's dialogues (not deleted), else not_found. */
async function loadOwnedMessage(actor: TActor, id: string) {
  const m = await repo.findMessageWithOwner(id);
  if (!m || m.dialogue.deletedAt) throw new AppError("not_found");
  assertOwned({ accountId: m.dialogue.accountId }, actor);
  return m;
}

export async function setFeedback(actor: TActor, { message_id, feedback }: TFeedbackInput) {
  const m = await loadOwnedMessage(actor, message_id);
  if (m.role !== "assistant") throw new AppError("not_found");
  await repo.setFeedback(m.id, feedback);
  return { id: m.id, feedback };
}

/**
 * Stops a reply being written: the row's status moves to stopped (every instance's stream polls
 * it) and, when the stream runs in this process, it is cancelled at once.
 */
export async function stopMessage(actor: TActor, { message_id }: TMessageIdInput) {
  const m = await loadOwnedMessage(actor, message_id).catch((err) => {
    // A reply of a new dialogue streams while its rows are still being written.
    if (stopLocally(message_id, actor.id)) return null;
    throw err;
  });
  if (!m) return { id: message_id, status: "stopped" };
  if (m.role !== "assistant") throw new AppError("not_found");
  const stopped = await repo.markStopped(m.id);
  if (stopped) stopLocally(m.id);
  return { id: m.id, status: stopped ? "stopped" : m.status };
}
