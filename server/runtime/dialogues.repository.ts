// Dialogues, their messages and read documents (Prisma only here).
import { Prisma } from "../db/generated/client";
import { executeDirect, queryDirect } from "../db/direct-pool";
import { getDb, type TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";

const DIALOGUE = {
  id: true,
  accountId: true,
  agentId: true,
  agentVersionId: true,
  appId: true,
  title: true,
  variables: true,
  documentId: true,
  lastMessageAt: true,
  createdAt: true,
} as const;

const MESSAGE = {
  id: true,
  dialogueId: true,
  role: true,
  content: true,
  reasoning: true,
  functions: true,
  retrieve: true,
  images: true,
  status: true,
  feedback: true,
  replacesId: true,
  createdAt: true,
} as const;

export type TDialogueRow = Prisma.DialogueGetPayload<{ select: typeof DIALOGUE }>;
export type TMessageRow = Prisma.ChatMessageGetPayload<{ select: typeof MESSAGE }>;
export type TMessageStatus = TMessageRow["status"];

export async function findDialogueById(id: string, tx: TDbOrTx = getDb()) {
  return tx.dialogue.findFirst({ where: { id, deletedAt: null }, select: DIALOGUE });
}

export async function listDialoguesOf(accountId: string, opts: { agentId?: string; before?: { at: Date; id: string }; limit: number }, tx: TDbOrTx = getDb()) {
  const before = opts.before;
  return tx.dialogue.findMany({
    where: {
      accountId,
      deletedAt: null,
      ...(opts.agentId ? { agentId: opts.agentId } : {}),
      ...(before ? { OR: [{ lastMessageAt: { lt: before.at } }, { lastMessageAt: before.at, id: { lt: before.id } }] } : {}),
    },
    orderBy: [{ lastMessageAt: "desc" }, { id: "desc" }],
    take: opts.limit,
    select: { ...DIALOGUE, agent: { select: { name: true, avatarUrl: true } } },
  });
}

export async function updateDialogueById(id: string, data: Prisma.DialogueUncheckedUpdateInput, tx: TDbOrTx = getDb()) {
  await tx.dialogue.update({ where: { id }, data });
}

export async function findAgentNameAndAvatar(agentId: string, tx: TDbOrTx = getDb()) {
  return tx.agent.findUnique({ where: { id: agentId }, select: { name: true, avatarUrl: true } });
}

/** Oldest first: what the dialogue view shows and the kept context reads. */
export async function listMessagesOf(dialogueId: string, tx: TDbOrTx = getDb()) {
  return tx.chatMessage.findMany({ where: { dialogueId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: MESSAGE });
}

export async function findMessageWithOwner(id: string, tx: TDbOrTx = getDb()) {
  return tx.chatMessage.findUnique({ where: { id }, select: { ...MESSAGE, dialogue: { select: { accountId: true, deletedAt: true } } } });
}

/** Locks the dialogue row so two sends cannot both start a reply. */
export async function lockDialogue(id: string, tx: TDbOrTx) {
  await tx.$queryRaw`SELECT id FROM dialogue WHERE id = ${id} FOR UPDATE`;
}

export async function countStreamingSince(dialogueId: string, since: Date, tx: TDbOrTx = getDb()) {
  return tx.chatMessage.count({ where: { dialogueId, status: "streaming", createdAt: { gte: since } } });
}

export type TFinishedReply = {
  content: string;
  reasoning: string;
  functions: object[];
  retrieve: object[];
  status: "done" | "stopped" | "censored" | "failed";
  promptTokens: number;
  completionTokens: number;
  error: string | null;
};

/** A reply's end, once per chat turn: straight through node-postgres (direct-pool.ts). */
export async function finishReply(id: string, r: TFinishedReply, tx?: TDbOrTx) {
  await executeDirect(
    {
      name: "zl_finish_reply",
      text: `UPDATE chat_message SET content = $2, reasoning = $3, functions = $4::jsonb, retrieve = $5::jsonb, status = $6::"MessageStatus",
          prompt_tokens = $7, completion_tokens = $8, error = $9 WHERE id = $1`,
      values: [id, r.content, r.reasoning, JSON.stringify(r.functions), JSON.stringify(r.retrieve), r.status, r.promptTokens, r.completionTokens, r.error],
    },
    tx,
  );
}

/** Moves a streaming reply to stopped; false when it was not streaming (already finished). */
export async function markStopped(id: string, tx: TDbOrTx = getDb()) {
  const { count } = await tx.chatMessage.updateMany({ where: { id, status: "streaming" }, data: { status: "stopped" } });
  return count > 0;
}

export async function setFeedback(id: string, feedback: "none" | "liked" | "disliked", tx: TDbOrTx = getDb()) {
  await tx.chatMessage.update({ where: { id }, data: { feedback } });
}

export async function insertDocument(data: { accountId: string; name: string; mime: string; size: number; text: string; chars: number; expiresAt: Date }, tx: TDbOrTx = getDb()) {
  return tx.chatDocument.create({ data, select: { id: true, name: true, chars: true, expiresAt: true } });
}

export async function findDocumentById(id: string, tx: TDbOrTx = getDb()) {
  return tx.chatDocument.findUnique({ where: { id }, select: { id: true, accountId: true, name: true, text: true, expiresAt: true } });
}

export async function findDocumentHeader(id: string, tx: TDbOrTx = getDb()) {
  return tx.chatDocument.findUnique({ where: { id }, select: { id: true, name: true, expiresAt: true } });
}

export async function setDocumentExpiry(id: string, expiresAt: Date, tx: TDbOrTx = getDb()) {
  await tx.chatDocument.update({ where: { id }, data: { expiresAt } });
}

/** A timestamp column's value (Prisma keeps UTC wall time), whatever the session's time zone. */
function utc(at: Date) {
  return Prisma.sql`(${at.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
}

type TTurnRows =
  | {
      kind: "new";
      dialogue: { id: string; accountId: string | null; appId?: string; visitorId?: string | null; source?: string; agentId: string; agentVersionId: string; title: string; variables: Prisma.InputJsonValue; documentId: string | null; lastMessageAt: Date };
      rows: Prisma.ChatMessageCreateManyInput[];
    }
  | {
      kind: "existing";
      dialogueId: string;
      /** A streaming reply created after this still blocks a new one. */
      staleBefore: Date;
      dialogue: { agentVersionId: string; variables: Prisma.InputJsonValue; documentId: string | null; lastMessageAt: Date };
      rows: Prisma.ChatMessageCreateManyInput[];
    };

/**
 * Writes a turn's rows. A new dialogue is one insert with its messages; an existing one is
 * locked first, so of two sends racing past the service's check only one starts a reply.
 */
export async function writeTurnRows(turn: TTurnRows, db = getDb()) {
  if (turn.kind === "new") {
    // One statement (atomic on its own): the dialogue and its first messages.
    const d = turn.dialogue;
    const rows = turn.rows.map(
      (r) =>
        Prisma.sql`(${r.id}, ${d.id}, ${r.role}::"MessageRole", ${r.content ?? ""}, ${JSON.stringify(r.images ?? [])}::jsonb, ${r.status ?? "done"}::"MessageStatus", ${r.replacesId ?? null}::text, ${r.requestId ?? null}::text, ${r.modelKey ?? null}::text, ${utc(r.createdAt as Date)})`,
    );
    // Straight through node-postgres when not in a transaction (direct-pool.ts): every new chat writes this.
    const statement = Prisma.sql`
      WITH d AS (
        INSERT INTO dialogue (id, account_id, app_id, visitor_id, source, agent_id, agent_version_id, title, variables, document_id, last_message_at)
        VALUES (${d.id}, ${d.accountId}::text, ${d.appId ?? null}::text, ${d.visitorId ?? null}::text, ${d.source ?? null}::text, ${d.agentId}, ${d.agentVersionId}, ${d.title}, ${JSON.stringify(d.variables)}::jsonb, ${d.documentId}::text, ${utc(d.lastMessageAt)})
      )
      INSERT INTO chat_message (id, dialogue_id, role, content, images, status, replaces_id, request_id, model_key, created_at)
      VALUES ${Prisma.join(rows)}`;
    // Named per row count (its text differs only in that): prepared once per connection, not parsed and planned per chat.
    await executeDirect({ name: `zl_new_dialogue_rows_${rows.length}`, text: statement.text, values: statement.values }, db === getDb() ? undefined : db);
    return;
  }
  await db.$transaction(async (tx) => {
    await lockDialogue(turn.dialogueId, tx);
    if ((await countStreamingSince(turn.dialogueId, turn.staleBefore, tx)) > 0) throw new AppError("dialogue_busy");
    await tx.chatMessage.createMany({ data: turn.rows });
    await tx.dialogue.update({ where: { id: turn.dialogueId }, data: turn.dialogue, select: { id: true } });
  });
}

/** Which of these replies were stopped (by any instance). */
export async function findStoppedAmong(ids: string[], tx?: TDbOrTx) {
  if (!ids.length) return [];
  // Each web process asks once a second about all its streams: on the direct pool (direct-pool.ts).
  const rows = await queryDirect<{ id: string }>({ name: "zl_find_stopped", text: `SELECT id FROM chat_message WHERE id = ANY($1::text[]) AND status = 'stopped'`, values: [ids] }, tx);
  return rows.map((r) => r.id);
}
