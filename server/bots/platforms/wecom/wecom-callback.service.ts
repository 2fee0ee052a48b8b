// What a WeCom callback means (the web process side of a WeCom bot): the URL verification WeCom
// makes when the owner saves the callback URL, and the members' messages and events. Each is
// checked against the bot's token (signature), EncodingAESKey and corp id (decryption) before
// anything is read; a refused callback changes nothing. Messages go to the bot gateways through
// the bots queue (inbound-queue.ts).
import type { TGreetingTrigger, TInboundMessage } from "../../../../bot-gateway/core/channel";
import { logger } from "../../../lib/logger";
import { loadBotForCallback, markBotSeen } from "../../gateway.repository";
import { enqueueGreeting, enqueueInbound } from "../../inbound-queue";
import { decryptWecom, parseWecomXml, verifyWecomSignature, WecomCryptoError } from "./wecom-crypto";

export type TWecomAnswer = { status: number; body: string };
export type TWecomQuery = Record<string, unknown>;

type TKeys = { token: string; aesKey: string; corpId: string };

const OK: TWecomAnswer = { status: 200, body: "" };
const NOT_FOUND: TWecomAnswer = { status: 404, body: "not found" };
const REFUSED: TWecomAnswer = { status: 403, body: "forbidden" };
const BAD: TWecomAnswer = { status: 400, body: "bad request" };

const str = (v: unknown) => (typeof v === "string" ? v : "");

async function keysOf(botId: string): Promise<{ botId: string; keys: TKeys } | null> {
  const bot = await loadBotForCallback(botId, "wecom");
  if (!bot) return null;
  const c = bot.credentials;
  return { botId: bot.id, keys: { token: str(c.token), aesKey: str(c.encoding_aes_key), corpId: str(c.corp_id) } };
}

/** Signature checked over `encrypt`, then decrypted for the bot's corp; null when either fails. */
function open(keys: TKeys, query: TWecomQuery, encrypt: string): string | null {
  const signed = { signature: str(query.msg_signature), timestamp: str(query.timestamp), nonce: str(query.nonce), encrypt };
  if (!signed.signature || !signed.timestamp || !signed.nonce || !verifyWecomSignature(keys.token, signed)) return null;
  try {
    return decryptWecom(keys.aesKey, encrypt, keys.corpId);
  } catch (err) {
    // Signed with the bot's token but not sealed with its key for its corp: a misconfigured bot, or a forgery.
    if (err instanceof WecomCryptoError) return null;
    throw err;
  }
}

/** GET: WeCom checks the URL by asking us to decrypt its echostr; the plain echostr is the answer. */
export async function answerWecomVerification(botId: string, query: TWecomQuery): Promise<TWecomAnswer> {
  const bot = await keysOf(botId);
  if (!bot) return NOT_FOUND;
  // echostr comes URL-encoded; a "+" left unencoded by a proxy arrives as a space (base64 has none).
  const echostr = str(query.echostr).replace(/ /g, "+");
  if (!echostr) return BAD;
  const plain = open(bot.keys, query, echostr);
  if (plain === null) return REFUSED;
  await markBotSeen(bot.botId);
  return { status: 200, body: plain };
}

/**
 * POST: a member's message or an event. Queued before we answer, so a failure to queue answers
 * 500 and WeCom calls again (it retries an unanswered callback three times; the job id and the
 * gateway's bot_inbound row keep a retried message to one answer). Queuing takes milliseconds,
 * well within WeCom's 5 seconds.
 */
export async function answerWecomCallback(botId: string, query: TWecomQuery, rawBody: string): Promise<TWecomAnswer> {
  const bot = await keysOf(botId);
  if (!bot) return NOT_FOUND;
  let envelope: Record<string, string>;
  try {
    envelope = parseWecomXml(rawBody);
  } catch {
    return BAD;
  }
  if (!envelope.Encrypt) return BAD;
  const plain = open(bot.keys, query, envelope.Encrypt);
  if (plain === null) return REFUSED;
  let fields: Record<string, string>;
  try {
    fields = parseWecomXml(plain);
  } catch {
    return BAD;
  }
  const event = readWecomEvent(fields);
  if (event?.kind === "message") await enqueueInbound(bot.botId, event.message);
  else if (event?.kind === "greeting") await enqueueGreeting(bot.botId, event.trigger);
  else logger.debug({ botId, msgType: fields.MsgType, event: fields.Event }, "wecom: callback ignored");
  await markBotSeen(bot.botId);
  return OK;
}

/**
 * A decrypted callback as the gateway core's message or greeting trigger; null for what the bot
 * does not answer (pictures, voice, other events). A self-built app's callbacks are one member
 * talking to the app, so every message is a direct one (no mention needed).
 */
export function readWecomEvent(
  f: Record<string, string>,
): { kind: "message"; message: TInboundMessage } | { kind: "greeting"; trigger: TGreetingTrigger } | null {
  const from = f.FromUserName;
  if (!from) return null;
  const who = { id: from, name: from };
  if (f.MsgType === "text" && f.MsgId && f.Content?.trim()) {
    const created = Number(f.CreateTime);
    return {
      kind: "message",
      message: {
        externalId: f.MsgId,
        sender: who,
        conversation: { kind: "contact", id: from, name: from },
        text: f.Content.trim(),
        mentionedBot: true,
        receivedAt: Number.isFinite(created) && created > 0 ? new Date(created * 1000) : new Date(),
      },
    };
  }
  // Following the app (subscribe) and opening it (enter_agent, sent on every visit) share one
  // trigger id per member, so a member is greeted once, the first time.
  if (f.MsgType === "event" && (f.Event === "subscribe" || f.Event === "enter_agent")) {
    return { kind: "greeting", trigger: { externalId: `wecom:welcome:${from}`, target: { kind: "contact", id: from, name: from }, who } };
  }
  return null;
}
