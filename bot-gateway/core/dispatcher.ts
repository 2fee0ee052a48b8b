// An inbound chat message becomes an agent run and one answer. The same turn pipeline and
// entitlement rules as the H5 app: the bot's BOT app is the app, the sender an anonymous consumer
// of it (their uses count against the app's free count, trial or plans), and the app's owner pays
// the channel fee. Each conversation keeps its own dialogue: a contact's own, and in a group each
// sender's own (people in one group do not share context).
//
// One message, one answer: the message id is claimed first (platforms redeliver), the agent is
// asked once, and whatever happens the sender hears something: the answer, the refusal in words
// (times exhausted, trial count 0...), or a polite "cannot answer now" when the agent fails.
import crypto from "node:crypto";
import { prepareAppTurn } from "../../server/apps/app-turn.service";
import { mapError } from "../../server/errors/map-error";
import { isAppError } from "../../server/errors/app-error";
import { getT } from "../../server/i18n/translate";
import { logger } from "../../server/lib/logger";
import { runTurn } from "../../server/turns/index";
import { ZSendMessageInput } from "../../server/dialogues/chat.schema";
import { createBotSink } from "./bot-sink";
import {
  claimDelivery,
  claimInbound,
  dialogueExists,
  finishDelivery,
  setConversationDialogue,
  touchConversation,
  type TGatewayBot,
} from "../../server/bots/gateway.service";
import type { Channel, StreamingReply, TGreetingTrigger, TInboundMessage, TOutbound } from "./channel";

/** The anonymous consumer a platform user is to the bot's app (stable per bot and user). */
export function botVisitorId(botId: string, senderId: string) {
  return `bot_${crypto.createHash("sha256").update(`${botId}\n${senderId}`).digest("base64url").slice(0, 24)}`;
}

const sessionKeyOf = (m: TInboundMessage) => (m.conversation.kind === "group" ? `group:${m.conversation.id}:${m.sender.id}` : `contact:${m.conversation.id}`);

export type TDispatchResult = "answered" | "refused" | "failed" | "ignored" | "duplicate";

export async function dispatchInbound(bot: TGatewayBot, channel: Channel, msg: TInboundMessage): Promise<TDispatchResult> {
  if (!(await claimInbound(bot.id, msg.externalId))) return "duplicate";
  const group = msg.conversation.kind === "group";
  const sessionKey = sessionKeyOf(msg);
  const stored = await touchConversation({
    botId: bot.id,
    sessionKey,
    kind: msg.conversation.kind,
    externalId: msg.conversation.id,
    name: msg.conversation.name ?? (group ? "" : msg.sender.name),
  });
  if (group && bot.groupReply === "mention" && !msg.mentionedBot) return "ignored";
  const text = msg.text.trim();
  if (!text) return "ignored";

  const lng = bot.ownerLanguage;
  const dialogueId = stored && (await dialogueExists(stored)) ? stored : undefined;
  let prepared: Awaited<ReturnType<typeof prepareAppTurn>>;
  try {
    const input = ZSendMessageInput.parse({ app_id: bot.appId, content: text, dialogue_id: dialogueId });
    prepared = await prepareAppTurn(input, { consumer: { account: null, visitorId: botVisitorId(bot.id, msg.sender.id) }, source: "bot" });
  } catch (err) {
    // Refusals the sender can act on are said in words; anything else is the polite failure.
    const words = isAppError(err) || (err as Error)?.name === "ZodError" ? mapError(err, lng).envelope.description : politeFailure(lng);
    if (!isAppError(err)) logger.warn({ err, botId: bot.id }, "bot: turn could not start");
    await answer(channel, msg, null, { text: words }, bot.id, lng);
    return "refused";
  }

  let streaming: StreamingReply | null = null;
  try {
    streaming = channel.startStreamingReply ? await channel.startStreamingReply(msg) : null;
  } catch (err) {
    logger.warn({ err, botId: bot.id }, "bot: streaming reply could not start; answering at the end");
  }
  const sink = createBotSink(streaming, lng);
  try {
    await runTurn(prepared.turn, sink, lng);
  } catch (err) {
    logger.error({ err, botId: bot.id }, "bot: agent run failed");
    sink.failPolitely();
  }
  const reply = await sink.answer();
  if (reply.dialogueId && reply.dialogueId !== dialogueId)
    await setConversationDialogue(bot.id, sessionKey, reply.dialogueId).catch((err) => logger.warn({ err }, "bot: dialogue not kept"));
  await answer(channel, msg, streaming, { text: reply.text, media: reply.media }, bot.id, lng);
  return reply.answered ? "answered" : "failed";
}

/** Someone added the bot or joined its group: the greeting, once per trigger, recorded as sent. */
export async function dispatchGreeting(bot: TGatewayBot, channel: Channel, trigger: TGreetingTrigger, instanceId: string): Promise<boolean> {
  if (!bot.greeting.trim()) return false;
  const sessionKey = trigger.target.kind === "group" ? `group:${trigger.target.id}:${trigger.who.id}` : `contact:${trigger.target.id}`;
  await touchConversation({
    botId: bot.id,
    sessionKey,
    kind: trigger.target.kind,
    externalId: trigger.target.id,
    name: trigger.target.name ?? (trigger.target.kind === "contact" ? trigger.who.name : ""),
  });
  const id = await claimDelivery({
    botId: bot.id,
    kind: "greeting",
    occurrenceKey: `g:${bot.id}:${trigger.externalId}`,
    target: trigger.target as unknown as Record<string, unknown>,
    content: bot.greeting,
    dueAt: new Date(),
    sentBy: instanceId,
  });
  if (!id) return false;
  try {
    await channel.send(trigger.target, { text: bot.greeting });
    await finishDelivery(id, true);
    return true;
  } catch (err) {
    logger.warn({ err, botId: bot.id }, "bot: greeting not sent");
    await finishDelivery(id, false, (err as Error).message);
    return false;
  }
}

const politeFailure = (lng: string) => getT(lng, "bots")("reply.failed");

/**
 * Delivers the answer. A streaming card ends with the answer's text; an answer made of pictures or
 * videos ends it with a short line saying they follow, and they go as messages of their own.
 */
async function answer(channel: Channel, msg: TInboundMessage, streaming: StreamingReply | null, out: TOutbound, botId: string, lng: string) {
  const media = out.media ?? [];
  try {
    if (!streaming) return await channel.reply(msg, out);
    await streaming.finish(out.text.trim() || !media.length ? out.text : getT(lng, "bots")("reply.media_ready"));
    if (media.length) await channel.reply(msg, { text: "", media });
  } catch (err) {
    // The platform refused the answer: logged, never retried (a retry could answer twice).
    logger.warn({ err, botId }, "bot: answer not delivered");
  }
}
