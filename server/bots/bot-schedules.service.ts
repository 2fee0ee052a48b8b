// A bot's scheduled messages (content, a picture or video of the owner's library, targets, send
// time, loop) as its owner edits them, what was sent ("what will be sent next", "what was sent")
// and the chats it can send to. The gateway holding the bot fires them (bot-gateway/core/scheduler.ts).
// The library item must be the bot owner's (whoever edits it: the owner, or their enterprise's
// administrator), as the gateway sends it in the owner's name; anyone else's is not found.
import { withTransaction, type TDbOrTx } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { SCHEDULES_PER_BOT_MAX, type TDeliveryView, type TScheduleInput, type TScheduleMedia, type TScheduleView, type TTargetView } from "./bots.schema";
import * as repo from "./bots.repository";
import { fieldError, loadOwnedBot, type TActor } from "./bots.service";
import { toScheduleMedia } from "./schedule-media";
import { firstRunAtOrAfter } from "./schedule-time";

const toScheduleView = (s: repo.TScheduleRow, media: Map<string, TScheduleMedia>): TScheduleView => ({
  id: s.id,
  content: s.content,
  media: (s.mediaItemId && media.get(s.mediaItemId)) || null,
  targets: s.targets as TScheduleView["targets"],
  send_at: s.sendAt.toISOString(),
  loop: s.loop,
  every_hours: s.everyHours,
  utc_offset_minutes: s.utcOffsetMinutes,
  next_run_at: s.nextRunAt?.toISOString() ?? null,
  last_run_at: s.lastRunAt?.toISOString() ?? null,
  enabled: s.enabled,
});

/** The views of the library items some schedules of `ownerAccountId` send (deleted ones are left out). */
async function loadMediaViews(ownerAccountId: string, rows: repo.TScheduleRow[], tx?: TDbOrTx) {
  const ids = [...new Set(rows.map((r) => r.mediaItemId).filter((id): id is string => Boolean(id)))];
  const items = await repo.findLibraryItems(ownerAccountId, ids, tx);
  return new Map(items.map((i) => [i.id, toScheduleMedia(i)]));
}

/**
 * The library item the schedule will send: the one named (checked as the owner's picture or video,
 * else not found), none when cleared, or the one it had when the input leaves it out. A message
 * needs words or an item.
 */
async function resolveMedia(ownerAccountId: string, input: TScheduleInput, existing: repo.TScheduleRow | null, tx: TDbOrTx) {
  const mediaItemId = input.media_item_id === undefined ? (existing?.mediaItemId ?? null) : input.media_item_id;
  if (input.media_item_id && !(await repo.findLibraryItems(ownerAccountId, [input.media_item_id], tx)).length) throw new AppError("not_found");
  if (!input.content && !mediaItemId) throw fieldError(["content"], "bots:validation.schedule_content_or_media");
  return mediaItemId;
}

/** Creates or edits a scheduled message; its next run is the first occurrence from now. */
export async function saveSchedule(actor: TActor, input: TScheduleInput): Promise<TScheduleView> {
  const bot = await loadOwnedBot(actor, input.bot_id);
  const now = new Date();
  const sendAt = new Date(input.send_at);
  const rule = { sendAt, loop: input.loop, everyHours: input.loop === "hours" ? input.every_hours : null, utcOffsetMinutes: input.utc_offset_minutes };
  // A one-off must lie ahead (a minute's grace for the time it took to fill the form).
  if (input.loop === "once" && sendAt.getTime() < now.getTime() - 60_000) throw fieldError(["send_at"], "bots:validation.send_at_past");
  const next = input.enabled ? firstRunAtOrAfter(rule, new Date(now.getTime() - 60_000)) : null;
  return withTransaction(async (tx) => {
    await repo.lockBot(bot.id, tx);
    const existing = input.schedule_id ? await repo.findSchedule(bot.id, input.schedule_id, tx) : null;
    if (input.schedule_id && !existing) throw new AppError("not_found");
    if (!input.schedule_id && (await repo.countSchedules(bot.id, tx)) >= SCHEDULES_PER_BOT_MAX) throw fieldError(["content"], "bots:validation.schedules_max");
    const mediaItemId = await resolveMedia(bot.ownerAccountId, input, existing, tx);
    const row = await repo.upsertSchedule(
      input.schedule_id,
      {
        botId: bot.id,
        content: input.content,
        mediaItemId,
        targets: input.targets,
        sendAt,
        loop: input.loop,
        everyHours: rule.everyHours,
        utcOffsetMinutes: input.utc_offset_minutes,
        nextRunAt: next,
        enabled: input.enabled,
      },
      tx,
    );
    return toScheduleView(row, await loadMediaViews(bot.ownerAccountId, [row], tx));
  });
}

export async function deleteSchedule(actor: TActor, botId: string, scheduleId: string) {
  const bot = await loadOwnedBot(actor, botId);
  if (!(await repo.deleteSchedule(bot.id, scheduleId))) throw new AppError("not_found");
}

export async function listSchedules(actor: TActor, botId: string): Promise<TScheduleView[]> {
  const bot = await loadOwnedBot(actor, botId);
  const rows = await repo.listSchedules(bot.id);
  const media = await loadMediaViews(bot.ownerAccountId, rows);
  return rows.map((r) => toScheduleView(r, media));
}

export async function listDeliveries(actor: TActor, botId: string, opts: { before?: string; take?: number } = {}): Promise<TDeliveryView[]> {
  const bot = await loadOwnedBot(actor, botId);
  const rows = await repo.listDeliveries(bot.id, Math.min(100, opts.take ?? 50), opts.before ? new Date(opts.before) : undefined);
  return rows.map((d) => ({
    id: d.id,
    kind: d.kind as "scheduled" | "greeting",
    schedule_id: d.scheduleId,
    target: d.target as { kind: "contact" | "group"; id: string; name?: string },
    content: d.content,
    media_item_id: d.mediaItemId,
    due_at: d.dueAt.toISOString(),
    state: d.state as "sending" | "sent" | "failed",
    error: d.error,
    created_at: d.createdAt.toISOString(),
    sent_at: d.sentAt?.toISOString() ?? null,
  }));
}

export async function listTargets(actor: TActor, botId: string): Promise<TTargetView[]> {
  const bot = await loadOwnedBot(actor, botId);
  return (await repo.listTargets(bot.id)).map((t) => ({
    kind: t.kind as "contact" | "group",
    id: t.externalId,
    name: t.name,
    last_message_at: t.lastMessageAt.toISOString(),
  }));
}
