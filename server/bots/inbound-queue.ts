// Webhook platforms (WeCom callbacks, Feishu in webhook mode) call the web process; it verifies
// the call and hands the message to the bot gateways through the `bots` queue. The job id is the
// message's own, so a platform that calls twice queues it once (the gateway dedupes again by
// bot_inbound). One attempt only: an answer is never given twice.
import { JOBS } from "../jobs/jobs";
import { getQueue } from "../jobs/queue";
import type { TGreetingTrigger, TInboundMessage } from "../../bot-gateway/core/channel";

const jobKey = (s: string) => s.replace(/[^\w.\-@]/g, "_").slice(0, 180);
const OPTS = { attempts: 1, removeOnComplete: 1000, removeOnFail: 5000 };

/**
 * The queue's name: "bots", unless BOTS_QUEUE names another (test files each use their own, so
 * one file's gateways never answer another's bots through another fake platform).
 */
export const botsQueueName = () => process.env.BOTS_QUEUE || JOBS["bots.inbound"].queue;

export async function enqueueInbound(botId: string, message: TInboundMessage) {
  const data = JOBS["bots.inbound"].payload.parse({ botId, message: { ...message, receivedAt: message.receivedAt.toISOString() } });
  await getQueue(botsQueueName()).add("bots.inbound", data, { ...OPTS, jobId: jobKey(`in_${botId}_${message.externalId}`) });
}

export async function enqueueGreeting(botId: string, trigger: TGreetingTrigger) {
  const data = JOBS["bots.greeting"].payload.parse({ botId, trigger: trigger as unknown as Record<string, unknown> });
  await getQueue(botsQueueName()).add("bots.greeting", data, { ...OPTS, jobId: jobKey(`gr_${botId}_${trigger.externalId}`) });
}

/** A queued message as the channel made it (dates back from ISO strings). */
export function readQueuedMessage(raw: Record<string, unknown>): TInboundMessage {
  return { ...(raw as unknown as TInboundMessage), receivedAt: new Date(String(raw.receivedAt)) };
}
