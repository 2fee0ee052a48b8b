// Scheduled messages (send time, targets, loop settings), fired by the gateway holding
// the bot. Each schedule row keeps its next occurrence, so the loop survives restarts; an
// occurrence is claimed (the schedule moved past it and one delivery row per target inserted under
// a unique key) in one transaction before anything is sent, so two gateways, or one that restarts
// midway, never send it twice. A claimed send that dies before it goes out stays "sending": at
// most once, as a chat message must be.
// A schedule may send a picture or video of its owner's library after its text: the channel sends
// it as the platform's own message, or as a link where the platform will not take it. An item
// deleted since the schedule was saved leaves the text to go alone, and the delivery says so.
import { claimOccurrence, findDueSchedules, finishDelivery, insertEvent, loadScheduleMedia, type TDueSchedule } from "../../server/bots/gateway.service";
import { nextRunAfter } from "../../server/bots/schedule-time";
import { DELIVERY_MEDIA_MISSING, type TScheduleLoop } from "../../server/bots/bots.schema";
import { logger } from "../../server/lib/logger";
import type { Channel, TOutbound, TTarget } from "./channel";

export type TFired = { scheduleId: string; dueAt: Date; sent: number; failed: number };

/** What one occurrence sends, and the note its deliveries carry when its item is gone. */
async function outboundOf(s: TDueSchedule): Promise<{ out: TOutbound; missing: boolean }> {
  const media = s.mediaItemId ? await loadScheduleMedia(s.ownerAccountId, s.mediaItemId) : null;
  return { out: { text: s.content, media: media ? [media] : [] }, missing: Boolean(s.mediaItemId) && !media };
}

export async function fireDueSchedules(held: Map<string, Channel>, instanceId: string, now = new Date()): Promise<TFired[]> {
  const due = await findDueSchedules([...held.keys()], now);
  const fired: TFired[] = [];
  for (const s of due) {
    const channel = held.get(s.botId);
    if (!channel) continue;
    const next = nextRunAfter(toRule(s), s.nextRunAt, now);
    // Read before the claim: a failed read leaves the occurrence for the next tick, not claimed and unsent.
    const { out, missing } = await outboundOf(s);
    const claimed = await claimOccurrence(s, next, instanceId);
    if (!claimed.length) continue;
    const result: TFired = { scheduleId: s.id, dueAt: s.nextRunAt, sent: 0, failed: 0 };
    if (missing) await insertEvent(s.botId, "media_missing", {});
    for (const d of claimed) {
      try {
        // Nothing left to say: the message was its item alone.
        if (!out.text.trim() && !out.media?.length) throw new Error(DELIVERY_MEDIA_MISSING);
        await channel.send(d.target as unknown as TTarget, out);
        await finishDelivery(d.id, true, missing ? DELIVERY_MEDIA_MISSING : undefined);
        result.sent++;
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        logger.warn({ err, botId: s.botId, scheduleId: s.id }, "bot: scheduled message not sent");
        await finishDelivery(d.id, false, message);
        if (message !== DELIVERY_MEDIA_MISSING) await insertEvent(s.botId, "send_failed", { error: message.slice(0, 200) });
        result.failed++;
      }
    }
    fired.push(result);
  }
  return fired;
}

const toRule = (s: TDueSchedule) => ({ sendAt: s.sendAt, loop: s.loop as TScheduleLoop, everyHours: s.everyHours, utcOffsetMinutes: s.utcOffsetMinutes });
