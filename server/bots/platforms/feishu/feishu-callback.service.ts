// Feishu's calls to a bot's event URL in webhook mode (/api/v1/bots/:botId/feishu): the URL
// verification challenge when the owner saves the address, then the events. Each is checked
// against the bot's verification token (and, with an encrypt key, decrypted and its signature
// checked) before anything is read; a refused call changes nothing. Messages and greeting
// triggers go to the bot gateways through the bots queue (inbound-queue.ts).
import type { IncomingHttpHeaders } from "node:http";
import { getEnv } from "../../../env";
import { logger } from "../../../lib/logger";
import { loadBotForCallback, markBotSeen } from "../../gateway.repository";
import { enqueueGreeting, enqueueInbound } from "../../inbound-queue";
import { feishuApi } from "./feishu-api";
import { readFeishuCallback } from "./feishu-webhook";

export type TFeishuAnswer = { status: number; body: Record<string, unknown> };

const str = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * Queued before we answer, so a failure to queue answers 500 and Feishu calls again (the job id
 * and the gateway's bot_inbound row keep a redelivered message to one answer). Queuing takes
 * milliseconds, well within the 3 seconds Feishu waits.
 */
export async function answerFeishuCallback(botId: string, headers: IncomingHttpHeaders, rawBody: Buffer): Promise<TFeishuAnswer> {
  const bot = await loadBotForCallback(botId, "feishu");
  // A bot on the long connection has no event URL: Feishu has no business calling it.
  if (!bot || bot.credentials.mode !== "webhook") return { status: 404, body: { msg: "not found" } };
  const c = bot.credentials;
  const api = feishuApi({ appId: str(c.app_id), appSecret: str(c.app_secret), domain: getEnv().FEISHU_DOMAIN });
  const read = await readFeishuCallback({ encrypt_key: str(c.encrypt_key), verification_token: str(c.verification_token) }, headers, rawBody, () =>
    api.botOpenId(),
  );
  if (read.kind === "refused") {
    logger.info({ botId, reason: read.reason }, "feishu: callback refused");
    return read.reason === "bad_body" ? { status: 400, body: { msg: "bad request" } } : { status: 403, body: { msg: "forbidden" } };
  }
  if (read.kind === "challenge") {
    await markBotSeen(bot.id);
    return { status: 200, body: { challenge: read.challenge } };
  }
  for (const message of read.messages) await enqueueInbound(bot.id, message);
  for (const trigger of read.greetings) await enqueueGreeting(bot.id, trigger);
  await markBotSeen(bot.id);
  return { status: 200, body: {} };
}
