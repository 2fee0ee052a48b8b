// Dialogues, their messages and read documents (Prisma only here).
import { Prisma } from "../db/generated/client";
import { executeDirect, queryDirect, transactDirect } from "../db/direct-pool";
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

export async function insertDocument(
  data: { accountId: string; name: string; mime: string; size: number; text: string; chars: number; expiresAt: Date },
  tx: TDbOrTx = getDb(),
) {
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
      dialogue: {
        id: string;
        accountId: string | null;
        appId?: string;
        visitorId?: string | null;
        source?: string;
        agentId: string;
        agentVersionId: string;
        title: string;
        variables: Prisma.InputJsonValue;
        documentId: string | null;
        lastMessageAt: Date;
      };
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

/** A turn's messages as the VALUES of an insert into chat_message (its columns: MESSAGE_COLUMNS). */
function messageValues(dialogueId: string, rows: Prisma.ChatMessageCreateManyInput[]) {
  return rows.map(
    (r) =>
      Prisma.sql`(${r.id}, ${dialogueId}, ${r.role}::"MessageRole", ${r.content ?? ""}, ${JSON.stringify(r.images ?? [])}::jsonb, ${r.status ?? "done"}::"MessageStatus", ${r.replacesId ?? null}::text, ${r.requestId ?? null}::text, ${r.modelKey ?? null}::text, ${utc(r.createdAt as Date)})`,
  );
}
const MESSAGE_COLUMNS = Prisma.raw("(id, dialogue_id, role, content, images, status, replaces_id, request_id, model_key, created_at)");

/**
 * Writes a turn's rows. A new dialogue is one insert with its messages; an existing one is
 * locked first, so of two sends racing past the service's check only one starts a reply.
 * Both straight through node-postgres when not in a transaction (direct-pool.ts): every chat turn
 * writes one or the other, and a second turn in a dialogue is the common case.
 */
export async function writeTurnRows(turn: TTurnRows, db = getDb()) {
  const tx = db === getDb() ? undefined : db;
  if (turn.kind === "new") {
    // One statement (atomic on its own): the dialogue and its first messages.
    const d = turn.dialogue;
    const rows = messageValues(d.id, turn.rows);
    // Straight through node-postgres when not in a transaction (direct-pool.ts): every new chat writes this.
    const statement = Prisma.sql`
      WITH d AS (
        INSERT INTO dialogue (id, account_id, app_id, visitor_id, source, agent_id, agent_version_id, title, variables, document_id, last_message_at)
        VALUES (${d.id}, ${d.accountId}::text, ${d.appId ?? null}::text, ${d.visitorId ?? null}::text, ${d.source ?? null}::text, ${d.agentId}, ${d.agentVersionId}, ${d.title}, ${JSON.stringify(d.variables)}::jsonb, ${d.documentId}::text, ${utc(d.lastMessageAt)})
      )
      INSERT INTO chat_message ${MESSAGE_COLUMNS}
      VALUES ${Prisma.join(rows)}`;
    // Named per row count (its text differs only in that): prepared once per connection, not parsed and planned per chat.
    await executeDirect({ name: `zl_new_dialogue_rows_${rows.length}`, text: statement.text, values: statement.values }, tx);
    return;
  }
  const { dialogueId, dialogue: d } = turn;
  const write = Prisma.sql`
    WITH m AS (INSERT INTO chat_message ${MESSAGE_COLUMNS} VALUES ${Prisma.join(messageValues(dialogueId, turn.rows))})
    UPDATE dialogue SET agent_version_id = ${d.agentVersionId}, variables = ${JSON.stringify(d.variables)}::jsonb, document_id = ${d.documentId}::text, last_message_at = ${utc(d.lastMessageAt)}
    WHERE id = ${dialogueId}`;
  await transactDirect(async (run) => {
    await run({ name: "zl_lock_dialogue", text: "SELECT id FROM dialogue WHERE id = $1 FOR UPDATE", values: [dialogueId] });
    // A statement of its own after the lock: under READ COMMITTED it sees the reply a racing send committed meanwhile.
    const [{ n }] = await run<{ n: number }>({
      name: "zl_streaming_since",
      text: `SELECT count(*)::int AS n FROM chat_message WHERE dialogue_id = $1 AND status = 'streaming' AND created_at >= ($2::timestamptz AT TIME ZONE 'UTC')`,
      values: [dialogueId, turn.staleBefore.toISOString()],
    });
    if (n > 0) throw new AppError("dialogue_busy");
    await run({ name: `zl_turn_rows_${turn.rows.length}`, text: write.text, values: write.values });
  }, tx);
}

/** Which of these replies were stopped (by any instance). */
export async function findStoppedAmong(ids: string[], tx?: TDbOrTx) {
  if (!ids.length) return [];
  // Each web process asks once a second about all its streams: on the direct pool (direct-pool.ts).
  const rows = await queryDirect<{ id: string }>(
    { name: "zl_find_stopped", text: `SELECT id FROM chat_message WHERE id = ANY($1::text[]) AND status = 'stopped'`, values: [ids] },
    tx,
  );
  return rows.map((r) => r.id);
}
