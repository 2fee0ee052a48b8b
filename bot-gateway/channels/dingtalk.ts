// The DingTalk robot in stream mode (dingtalk-stream): the robot opens a websocket to DingTalk, so it
// needs no public address. Messages arrive as robot callbacks and are acknowledged (or DingTalk
// delivers them again); answers go through the message's session webhook as markdown, or stream
// in an AI card when the bot has a card template; the robot's own sends (greetings, schedules) and
// answers whose session webhook has lapsed go through the robot OpenAPI with the app's token.
// Pictures go through the robot OpenAPI too, as picture messages of an uploaded media file: a
// session webhook carries no picture message, and a markdown image would need DingTalk to fetch
// the picture from a public address of ours. Videos go as links: the robot's video message needs
// the video's duration, which only probing the file (media work, not the gateway's) would tell.
import type { DWClientDownStream } from "dingtalk-stream";
import { getEnv } from "../../server/env";
import { logger } from "../../server/lib/logger";
import { startAiCardReply, type TCardReply } from "../../server/bots/platforms/dingtalk/ai-card";
import {
  DingtalkApiError,
  markdownTitle,
  postSessionWebhook,
  robotMarkdown,
  robotPicture,
  sendToGroup,
  sendToUsers,
  type TDingtalkApp,
  type TRobotMessage,
} from "../../server/bots/platforms/dingtalk/dingtalk-api";
import { uploadDingtalkMedia } from "../../server/bots/platforms/dingtalk/dingtalk-media";
import { DINGTALK_TOPIC_ROBOT, readReplyContext, readRobotMessage, type TDingtalkReplyContext } from "../../server/bots/platforms/dingtalk/robot-message";
import { CredentialsRefusedError, DingtalkStreamConnection, reconnectDelayMs } from "../../server/bots/platforms/dingtalk/stream-client";
import type { TTurnMedia } from "../../server/turns/sink";
import type { Channel, TChannelHealth, TChannelHooks, TChannelSpec, TInboundMessage, TTarget } from "../core/channel";
import { splitForChannel } from "../core/format";
import { mediaLink, readReplyFile } from "../core/reply-media";

/** DingTalk's markdown messages hold up to 5000 characters. */
const MARKDOWN_MAX_CHARS = 5000;
/** A session webhook this close to lapsing is not trusted with an answer. */
const WEBHOOK_MARGIN_MS = 10_000;
/** A message still being handled after this long is acknowledged anyway (DingTalk redelivers after about a minute). */
const ACK_GRACE_MS = 10_000;
/** What a media file of type image takes: at most 20 MB of JPG, PNG, GIF or BMP. */
const PICTURE_MAX_BYTES = 20 * 1024 * 1024;
const PICTURE_MIMES = ["image/png", "image/jpeg", "image/gif", "image/bmp"];

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export function createDingtalkChannel(spec: TChannelSpec): Channel {
  const app: TDingtalkApp = { clientId: str(spec.credentials.client_id), clientSecret: str(spec.credentials.client_secret) };
  const templateId = str(spec.credentials.card_template_id);
  const log = logger.child({ botId: spec.botId, channel: "dingtalk" });

  let hooks: TChannelHooks | null = null;
  let current: DingtalkStreamConnection | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let attempt = 0;
  let stopped = true;
  let health: TChannelHealth = { state: "deploying", detail: "detail.connecting" };

  function setHealth(next: TChannelHealth) {
    if (next.state === health.state && next.detail === health.detail) return;
    health = next;
    hooks?.onHealth(next);
  }

  async function openConnection() {
    if (!app.clientId || !app.clientSecret) throw new CredentialsRefusedError("no Client ID or Client Secret");
    const conn = new DingtalkStreamConnection(app, getEnv().DINGTALK_API_BASE, [DINGTALK_TOPIC_ROBOT]);
    conn.registerCallbackListener(DINGTALK_TOPIC_ROBOT, (frame: DWClientDownStream) => void onRobotFrame(conn, frame));
    await conn.open(() => onLost(conn));
    if (stopped) return conn.close();
    current = conn;
    attempt = 0;
    setHealth({ state: "online" });
  }

  function onLost(conn: DingtalkStreamConnection) {
    if (conn !== current || stopped) return;
    current = null;
    // DingTalk moving the connection is routine: reconnect at once, and only report if that fails.
    if (conn.movedByServer) return retryIn(0);
    setHealth({ state: "offline", detail: "detail.reconnecting" });
    retryIn(reconnectDelayMs(attempt++));
  }

  function retryIn(ms: number) {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (stopped) return;
      openConnection().catch((err) => {
        if (stopped) return;
        const refused = err instanceof CredentialsRefusedError;
        log.warn({ err, attempt }, "dingtalk: reconnect failed");
        setHealth({ state: "offline", detail: refused ? "detail.credentials_refused" : "detail.reconnecting" });
        retryIn(reconnectDelayMs(attempt++));
      });
    }, ms);
  }

  async function onRobotFrame(conn: DingtalkStreamConnection, frame: DWClientDownStream) {
    const messageId = frame.headers.messageId;
    let acked = false;
    const ack = () => {
      if (!acked) acked = conn.ack(messageId);
    };
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      return ack();
    }
    const message = readRobotMessage(data, spec.name);
    // Pictures, files and empty messages are acknowledged and left unanswered.
    if (!message || !hooks) return ack();
    const grace = setTimeout(ack, ACK_GRACE_MS);
    try {
      await hooks.onMessage(message);
      ack();
    } catch (err) {
      // Not acknowledged: DingTalk delivers it again, and the core answers a message once.
      log.warn({ err, msgId: message.externalId }, "dingtalk: a message was not handled");
    } finally {
      clearTimeout(grace);
    }
  }

  /** Where the robot OpenAPI sends an answer to `to` (when its session webhook cannot be used). */
  function targetOf(to: TInboundMessage, ctx: TDingtalkReplyContext | null): TTarget {
    if (to.conversation.kind === "group") return { kind: "group", id: ctx?.conversationId || to.conversation.id };
    return { kind: "contact", id: ctx?.senderStaffId || to.conversation.id };
  }

  async function sendRobot(target: TTarget, message: TRobotMessage) {
    if (target.kind === "group") await sendToGroup(app, target.id, message);
    else await sendToUsers(app, [target.id], message);
  }

  const sendPiece = (target: TTarget, text: string) => sendRobot(target, robotMarkdown({ title: markdownTitle(text, spec.name), text }));

  /** Each picture as a picture message; a video, or a picture DingTalk will not take, as its link through `say`. */
  async function sendMedia(target: TTarget, items: TTurnMedia[], say: (text: string) => Promise<void>) {
    for (const [i, item] of items.entries()) {
      const file = item.kind === "image" ? await readReplyFile(item, { maxBytes: PICTURE_MAX_BYTES, mimes: PICTURE_MIMES }) : null;
      if (file) {
        try {
          await sendRobot(target, robotPicture(await uploadDingtalkMedia(app, "image", file)));
          continue;
        } catch (err) {
          log.warn({ err }, "dingtalk: a picture was not sent; sending its link");
        }
      }
      await say(mediaLink(item, i));
    }
  }

  /** Says texts in answer to `to`: through its session webhook while DingTalk takes it, else through the OpenAPI. */
  function replier(to: TInboundMessage, ctx: TDingtalkReplyContext | null) {
    let webhook = ctx && ctx.sessionWebhook && ctx.sessionWebhookExpiredTime > Date.now() + WEBHOOK_MARGIN_MS ? ctx.sessionWebhook : null;
    return async (text: string) => {
      if (webhook) {
        try {
          return await postSessionWebhook(webhook, { title: markdownTitle(text, spec.name), text });
        } catch (err) {
          // DingTalk refused it (lapsed early): the OpenAPI still reaches the chat. A network
          // failure is not retried another way, as the first may have arrived.
          if (!(err instanceof DingtalkApiError) || err.status === 0 || err.status >= 500) throw err;
          log.warn({ err }, "dingtalk: session webhook refused, answering through the OpenAPI");
          webhook = null;
        }
      }
      await sendPiece(targetOf(to, ctx), text);
    };
  }

  const channel: Channel = {
    kind: "dingtalk",

    async connect(h) {
      hooks = h;
      stopped = false;
      attempt = 0;
      try {
        await openConnection();
      } catch (err) {
        if (err instanceof CredentialsRefusedError) {
          stopped = true;
          setHealth({ state: "offline", detail: "detail.credentials_refused" });
          throw err;
        }
        // DingTalk unreachable for now: not the owner's fault; keep trying in the background.
        log.warn({ err }, "dingtalk: connect failed, retrying");
        setHealth({ state: "offline", detail: "detail.reconnecting" });
        retryIn(reconnectDelayMs(attempt++));
      }
    },

    async reply(to, out) {
      const ctx = readReplyContext(to.replyContext);
      const say = replier(to, ctx);
      for (const text of splitForChannel(out.text, { maxChars: MARKDOWN_MAX_CHARS })) await say(text);
      await sendMedia(targetOf(to, ctx), out.media ?? [], say);
    },

    async send(target, out) {
      const say = (text: string) => sendPiece(target, text);
      for (const text of splitForChannel(out.text, { maxChars: MARKDOWN_MAX_CHARS })) await say(text);
      await sendMedia(target, out.media ?? [], say);
    },

    async startStreamingReply(to) {
      if (!templateId) return null;
      const ctx = readReplyContext(to.replyContext);
      const target = targetOf(to, ctx);
      const space = target.kind === "group" ? { kind: "group" as const, openConversationId: target.id } : { kind: "contact" as const, userId: target.id };
      let card: TCardReply;
      try {
        card = await startAiCardReply(app, { templateId, space });
      } catch (err) {
        // No card (a wrong template, a missing permission): the answer goes out as markdown instead.
        log.warn({ err }, "dingtalk: AI card could not be created");
        return null;
      }
      // A card DingTalk refuses to finish (deleted, recalled) must not leave the sender without the
      // answer: it goes as markdown. Not after a network failure: the final update may have arrived.
      const finish = async (text: string) => {
        try {
          await card.finish(text);
        } catch (err) {
          if (!(err instanceof DingtalkApiError) || err.status === 0 || err.status >= 500) throw err;
          log.warn({ err }, "dingtalk: AI card refused its final update; answering as markdown");
          await channel.reply(to, { text });
        }
      };
      return { ...card, finish };
    },

    health: () => health,

    async disconnect() {
      stopped = true;
      hooks = null;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      current?.close();
      current = null;
      health = { state: "offline" };
    },
  };
  return channel;
}
