// WeCom (enterprise WeChat) self-built app. WeCom calls the web process (callback URL:
// server/bots/platforms/wecom/wecom-callback.*), which queues each message for the gateways; this
// channel only answers, through WeCom's API with the app's cached access token, so any gateway
// instance can reply or send for the bot with its credentials alone, connected or not.
// Pictures and videos are uploaded as temporary media and sent as WeCom's image and video messages.
import { logger } from "../../server/lib/logger";
import type { TTurnMedia } from "../../server/turns/sink";
import type { Channel, TChannelHealth, TChannelHooks, TChannelSpec, TInboundMessage, TOutbound, TTarget } from "../core/channel";
import { splitForChannel } from "../core/format";
import { mediaLink, readReplyFile } from "../core/reply-media";
import {
  getWecomAccessToken,
  sendWecomAppChat,
  sendWecomMessage,
  uploadWecomMedia,
  WecomApiError,
  type TWecomApp,
  type TWecomContent,
} from "../../server/bots/platforms/wecom/wecom-api";

/** WeCom's limit for a markdown message, in UTF-8 bytes. */
export const WECOM_MAX_BYTES = 2048;
/** What temporary media takes: pictures in JPG or PNG and MP4 videos, each at most 10 MB. */
const MEDIA_MAX_BYTES = 10 * 1024 * 1024;
const MEDIA_MIMES = { image: ["image/png", "image/jpeg"], video: ["video/mp4"] } as const;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60_000;

export function createWecomChannel(spec: TChannelSpec): Channel {
  const c = spec.credentials;
  const app: TWecomApp = { corpId: String(c.corp_id ?? ""), agentId: String(c.agent_id ?? ""), secret: String(c.secret ?? "") };
  let health: TChannelHealth = { state: "deploying" };
  let hooks: TChannelHooks | null = null;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const report = (h: TChannelHealth) => {
    health = h;
    hooks?.onHealth(h);
  };

  /** Resolves once WeCom gave a token (credentials good) or could not be reached; rejects when it refused them. */
  async function checkCredentials(attempt: number): Promise<void> {
    try {
      await getWecomAccessToken(app);
    } catch (err) {
      // errcode -1: WeCom busy or unreachable, so nothing is known about the credentials yet: retry with backoff.
      if (err instanceof WecomApiError && err.errcode !== -1) throw err;
      if (closed) return;
      report({ state: "offline", detail: "detail.reconnecting" });
      const base = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** attempt);
      retry = setTimeout(
        () => {
          checkCredentials(attempt + 1).catch((e: unknown) =>
            report({ state: "offline", detail: e instanceof WecomApiError ? e.errmsg : "detail.credentials_refused" }),
          );
        },
        base / 2 + Math.random() * (base / 2),
      );
      return;
    }
    if (closed) return;
    // The token is good; the bot is online once WeCom calls its callback URL (the core sees that through markBotSeen).
    report({ state: "to_be_associated", detail: "detail.waiting_callback" });
  }

  async function post(target: TTarget, content: TWecomContent) {
    if (target.kind === "group") await sendWecomAppChat(app, { chatid: target.id, ...content });
    else await sendWecomMessage(app, { touser: target.id, ...content });
  }

  /** A picture or video as WeCom's own message; its link when WeCom will not take it as one. */
  async function deliverMedia(target: TTarget, item: TTurnMedia, index: number) {
    const file = await readReplyFile(item, { maxBytes: MEDIA_MAX_BYTES, mimes: MEDIA_MIMES[item.kind] });
    if (file) {
      try {
        return await post(target, { msgtype: item.kind, mediaId: await uploadWecomMedia(app, item.kind, file) });
      } catch (err) {
        logger.warn({ err, botId: spec.botId }, "wecom: a picture or video was not sent; sending its link");
      }
    }
    await post(target, { msgtype: "markdown", content: mediaLink(item, index) });
  }

  async function deliver(target: TTarget, out: TOutbound) {
    for (const content of splitForChannel(out.text, { maxBytes: WECOM_MAX_BYTES })) await post(target, { msgtype: "markdown", content });
    for (const [i, item] of (out.media ?? []).entries()) await deliverMedia(target, item, i);
  }

  return {
    kind: "wecom",
    async connect(h) {
      hooks = h;
      closed = false;
      await checkCredentials(0);
    },
    // A self-built app's callbacks are members writing to the app: the answer goes to the sender.
    async reply(to: TInboundMessage, out) {
      await deliver(to.conversation.kind === "group" ? to.conversation : { kind: "contact", id: to.sender.id }, out);
    },
    send: deliver,
    health: () => health,
    async disconnect() {
      closed = true;
      clearTimeout(retry);
      hooks = null;
    },
  };
}
