// Scheduled messages (send time, targets, loop settings), fired by the gateway holding
// the bot. Each schedule row keeps its next occurrence, so the loop survives restarts; an
// occurrence is claimed (the schedule moved past it and one delivery row per target inserted under
// a unique key) in one transaction before anything is sent, so two gateways, or one that restarts
// midway, never send it twice. A claimed send that dies before it goes out stays "sending": at
// most once, as a chat message must be.
import { claimOccurrence, findDueSchedules, finishDelivery, insertEvent, type TDueSchedule } from "../../server/bots/gateway.service";
import { nextRunAfter } from "../../server/bots/schedule-time";
import type { TScheduleLoop } from "../../server/bots/bots.schema";
import { logger } from "../../server/lib/logger";
import type { Channel, TTarget } from "./channel";

export type TFired = { scheduleId: string; dueAt: Date; sent: number; failed: number };

export async function fireDueSchedules(held: Map<string, Channel>, instanceId: string, now = new Date()): Promise<TFired[]> {
  const due = await findDueSchedules([...held.keys()], now);
  const fired: TFired[] = [];
  for (const s of due) {
    const channel = held.get(s.botId);
    if (!channel) continue;
    const next = nextRunAfter(toRule(s), s.nextRunAt, now);
    const claimed = await claimOccurrence(s, next, instanceId);
    if (!claimed.length) continue;
    const result: TFired = { scheduleId: s.id, dueAt: s.nextRunAt, sent: 0, failed: 0 };
    for (const d of claimed) {
      try {
        await channel.send(d.target as unknown as TTarget, { text: s.content });
        await finishDelivery(d.id, true);
        result.sent++;
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        logger.warn({ err, botId: s.botId, scheduleId: s.id }, "bot: scheduled message not sent");
        await finishDelivery(d.id, false, message);
        await insertEvent(s.botId, "send_failed", { error: message.slice(0, 200) });
        result.failed++;
      }
    }
    fired.push(result);
  }
  return fired;
}

const toRule = (s: TDueSchedule) => ({ sendAt: s.sendAt, loop: s.loop as TScheduleLoop, everyHours: s.everyHours, utcOffsetMinutes: s.utcOffsetMinutes });
