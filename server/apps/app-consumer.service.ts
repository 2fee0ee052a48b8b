// What an app's consumer (an account or an H5 visitor) reads of their own use: their dialogues with
// the app, one dialogue, feedback on a reply, and the entitlement. Another visitor's or account's
// dialogue or message answers not_found, as everywhere.
import { AppError } from "../errors/app-error";
import type { TDialogueListItem, TDialogueView } from "../dialogues/chat.schema";
import type { TFeedbackInput, TMessageIdInput } from "../dialogues/chat.schema";
import type { TAppDialoguesQuery, TAppQuery } from "./app-consumer.schema";
import { stopLocally } from "../dialogues/stop-registry";
import * as dialoguesRepo from "../dialogues/dialogues.repository";
import { toMessageView } from "../dialogues/dialogues.service";
import { describeEntitlement, type TConsumer, type TEntitlementView } from "./app-entitlements.service";
import { assertConsumerOwns, loadOpenableApp } from "./app-access.service";
import * as repo from "./app-uses.repository";

const INTERRUPTED_AFTER_MS = 30 * 60 * 1000;

function readCursor(cursor: string | undefined) {
  const m = /^(\d+)_(.+)$/.exec(cursor ?? "");
  return m ? { at: new Date(Number(m[1])), id: m[2] } : undefined;
}

/** A consumer with no account and no visitor id has no dialogues at all. */
function keyOf(consumer: TConsumer): repo.TConsumerKey | null {
  if (consumer.account) return { accountId: consumer.account.id };
  return consumer.visitorId ? { visitorId: consumer.visitorId } : null;
}

export async function listAppDialogues(consumer: TConsumer, q: TAppDialoguesQuery): Promise<{ items: TDialogueListItem[]; next_cursor: string | null }> {
  await loadOpenableApp(q.app_id, consumer);
  const who = keyOf(consumer);
  const rows = who ? await repo.listAppDialogues(q.app_id, who, { before: readCursor(q.cursor), limit: q.limit + 1 }) : [];
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((d) => ({
      id: d.id,
      title: d.title,
      agent_id: d.agentId,
      agent_name: null,
      agent_avatar_url: null,
      last_message_at: d.lastMessageAt.toISOString(),
      created_at: d.createdAt.toISOString(),
      interrupted: Date.now() - d.lastMessageAt.getTime() > INTERRUPTED_AFTER_MS,
    })),
    next_cursor: rows.length > q.limit && last ? `${last.lastMessageAt.getTime()}_${last.id}` : null,
  };
}

export async function getAppDialogue(consumer: TConsumer, id: string): Promise<TDialogueView & { app_id: string }> {
  const d = assertConsumerOwns(await repo.findAppDialogue(id), consumer);
  const messages = await dialoguesRepo.listMessagesOf(d.id);
  return {
    app_id: d.appId!,
    dialogue: {
      id: d.id,
      title: d.title,
      agent_id: d.agentId,
      agent_name: null,
      variables: (d.variables ?? {}) as Record<string, string>,
      document: null,
      interrupted: Date.now() - d.lastMessageAt.getTime() > INTERRUPTED_AFTER_MS,
    },
    messages: messages.map(toMessageView),
  };
}

export async function setAppFeedback(consumer: TConsumer, { message_id, feedback }: TFeedbackInput) {
  const m = await repo.findAppMessage(message_id);
  if (!m || m.dialogue.deletedAt || !m.dialogue.appId || m.role !== "assistant") throw new AppError("not_found");
  assertConsumerOwns(m.dialogue, consumer);
  await dialoguesRepo.setFeedback(m.id, feedback);
  return { id: m.id, feedback };
}

/**
 * Stops one of the consumer's replies being written: the row moves to stopped (every instance's
 * stream polls it) and a stream in this process is cancelled at once.
 */
export async function stopAppMessage(consumer: TConsumer, { message_id }: TMessageIdInput) {
  const m = await repo.findAppMessage(message_id);
  if (!m || m.dialogue.deletedAt || !m.dialogue.appId || m.role !== "assistant") throw new AppError("not_found");
  assertConsumerOwns(m.dialogue, consumer);
  const stopped = await dialoguesRepo.markStopped(m.id);
  if (stopped) stopLocally(m.id);
  return { id: m.id, status: stopped ? "stopped" : "finished" };
}

export async function getAppEntitlement(consumer: TConsumer, { app_id }: TAppQuery): Promise<TEntitlementView> {
  const app = await loadOpenableApp(app_id, consumer);
  return describeEntitlement(app, consumer);
}
