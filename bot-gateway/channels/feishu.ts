// Feishu (Lark) bots through @larksuiteoapi/node-sdk. By default the bot holds Feishu's long
// connection (the SDK's WSClient: no public address needed); in webhook mode Feishu calls the web
// process (server/bots/platforms/feishu/feishu-webhook.http.ts), which queues the messages, and
// this channel only answers, through the open API with the app's cached tenant token.
// Replies are cards rendering the agent's markdown; while the agent streams, one card is patched
// with the text so far (feishu-stream.ts). Pictures are uploaded and sent as image messages, videos
// as media messages (with their poster as the cover; a file message when there is none).
//
// Reconnecting: once up, the SDK keeps the connection itself, at the pace Feishu's endpoint sets
// (it says how long to wait between attempts); its onReconnecting/onReconnected are our offline
// "reconnecting" and online. When the first connection fails or the SDK gives up, this channel
// starts again with its own backoff (1 s doubling to 60 s, with jitter).
import * as lark from "@larksuiteoapi/node-sdk";
import { getEnv } from "../../server/env";
import { logger } from "../../server/lib/logger";
import type { TTurnMedia } from "../../server/turns/sink";
import { FEISHU_APP_ID, FeishuApiError, feishuApi, sdkLogger, type FeishuApi, type TFeishuReceiver } from "../../server/bots/platforms/feishu/feishu-api";
import { markdownCard, splitCardText } from "../../server/bots/platforms/feishu/feishu-card";
import { createFeishuDispatcher } from "../../server/bots/platforms/feishu/feishu-dispatcher";
import { startFeishuStream } from "../../server/bots/platforms/feishu/feishu-stream";
import type { Channel, StreamingReply, TChannelHealth, TChannelHooks, TChannelSpec, TInboundMessage, TOutbound, TTarget } from "../core/channel";
import { mediaLink } from "../core/reply-media";
import { feishuMediaMessage } from "./feishu-media";

/** How long the first handshake may take before the attempt counts as failed. */
const READY_TIMEOUT_MS = 15_000;
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;
/** Feishu redelivers an event not acknowledged within 3 s. */
const ACK_GRACE_MS = 2_500;

type TFeishuSettings = { appId: string; appSecret: string; mode: "websocket" | "webhook"; streamCard: boolean };

function settingsOf(raw: Record<string, unknown>): TFeishuSettings {
  const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  return {
    appId: str(raw.app_id),
    appSecret: str(raw.app_secret),
    mode: raw.mode === "webhook" ? "webhook" : "websocket",
    streamCard: raw.stream_card !== false,
  };
}

export function createFeishuChannel(spec: TChannelSpec): Channel {
  return new FeishuChannel(spec);
}

class FeishuChannel implements Channel {
  readonly kind = "feishu" as const;
  private readonly settings: TFeishuSettings;
  private readonly api: FeishuApi;
  private hooks: TChannelHooks | null = null;
  private state: TChannelHealth = { state: "deploying" };
  private ws: lark.WSClient | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private stopped = false;

  constructor(private readonly spec: TChannelSpec) {
    this.settings = settingsOf(spec.credentials);
    this.api = feishuApi({ appId: this.settings.appId, appSecret: this.settings.appSecret, domain: getEnv().FEISHU_DOMAIN });
  }

  async connect(hooks: TChannelHooks): Promise<void> {
    this.hooks = hooks;
    this.stopped = false;
    try {
      if (this.settings.mode === "webhook") {
        // Nothing to hold: Feishu calls the web process. The credentials must still be good for replies.
        await this.checkCredentials();
        this.report({ state: "to_be_associated", detail: "detail.waiting_callback" });
        return;
      }
      await this.open();
      this.report({ state: "online" });
    } catch (err) {
      if (this.stopped) return;
      if (isRefusal(err)) {
        this.report({ state: "offline", detail: "detail.credentials_refused" });
        throw err;
      }
      logger.warn({ err: String(err), botId: this.spec.botId }, "feishu: not connected, retrying");
      if (this.settings.mode === "webhook") this.report({ state: "to_be_associated", detail: "detail.waiting_callback" });
      else this.reconnectLater();
    }
  }

  async reply(to: TInboundMessage, out: TOutbound): Promise<void> {
    const messageId = replyTarget(to);
    // The uuid (with the text: one message may get two different replies) makes a retried call send its card once.
    const say = (text: string, key: string) => this.api.replyCard(messageId, markdownCard(text), `${to.externalId}:reply:${key}:${text}`);
    if (out.text.trim()) for (const [i, part] of splitCardText(out.text).entries()) await say(part, String(i));
    for (const [i, item] of (out.media ?? []).entries()) {
      const message = await this.mediaMessage(item);
      if (message) await this.api.replyMessage(messageId, message, `${to.externalId}:media:${i}:${item.url}`);
      else await say(mediaLink(item, i), `link${i}`);
    }
  }

  async startStreamingReply(to: TInboundMessage): Promise<StreamingReply | null> {
    if (!this.settings.streamCard) return null;
    try {
      return await startFeishuStream(this.api, { messageId: replyTarget(to), key: to.externalId });
    } catch (err) {
      // No card to stream into: the answer goes as a card of its own when it is done.
      logger.warn({ err: String(err), botId: this.spec.botId }, "feishu: streaming card not started");
      return null;
    }
  }

  async send(target: TTarget, out: TOutbound): Promise<void> {
    const to: TFeishuReceiver = target.kind === "group" ? { idType: "chat_id", id: target.id } : { idType: "open_id", id: target.id };
    if (out.text.trim()) for (const part of splitCardText(out.text)) await this.api.sendCard(to, markdownCard(part));
    for (const [i, item] of (out.media ?? []).entries()) {
      const message = await this.mediaMessage(item);
      await (message ? this.api.sendMessage(to, message) : this.api.sendCard(to, markdownCard(mediaLink(item, i))));
    }
  }

  /** The item uploaded and ready to send; null (with the reason logged) when it goes as its link. */
  private async mediaMessage(item: TTurnMedia) {
    try {
      return await feishuMediaMessage(this.api, item);
    } catch (err) {
      logger.warn({ err: String(err), botId: this.spec.botId }, "feishu: a picture or video was not uploaded; sending its link");
      return null;
    }
  }

  health(): TChannelHealth {
    return this.state;
  }

  async disconnect(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.ws?.close({ force: true });
    this.ws = null;
  }

  private async checkCredentials() {
    if (!FEISHU_APP_ID.test(this.settings.appId)) throw new FeishuApiError("not a Feishu app id (cli_ and 16 hex digits)", 10003, null);
    await this.api.checkCredentials();
  }

  /** One attempt at the long connection: resolves once it is up. */
  private async open(): Promise<void> {
    await this.checkCredentials();
    await this.api.botOpenId();
    if (this.stopped) throw new Error("feishu channel disconnected");
    let settle: ((err?: unknown) => void) | null = null;
    const ready = new Promise<void>((resolve, reject) => {
      settle = (err) => (err ? reject(err) : resolve());
    });
    ready.catch(() => {}); // awaited below; this only keeps an early failure from counting as unhandled
    const done = (err?: unknown) => {
      const s = settle;
      settle = null;
      s?.(err);
    };
    const ws: lark.WSClient = new lark.WSClient({
      appId: this.settings.appId,
      appSecret: this.settings.appSecret,
      domain: getEnv().FEISHU_DOMAIN,
      logger: sdkLogger,
      loggerLevel: lark.LoggerLevel.warn,
      handshakeTimeoutMs: 10_000,
      onReady: () => done(),
      onError: (err) => (settle ? done(wsError(err)) : this.lost(ws, err)),
      onReconnecting: () => this.ws === ws && this.report({ state: "offline", detail: "detail.reconnecting" }),
      onReconnected: () => this.ws === ws && this.report({ state: "online" }),
    });
    this.ws?.close({ force: true });
    this.ws = ws;
    const timer = setTimeout(() => done(new Error("feishu long connection not ready in time")), READY_TIMEOUT_MS);
    // A first attempt that fails (endpoint busy, socket refused) makes the SDK wait and retry
    // quietly; the next attempt it schedules is our sign to take over with our own backoff.
    const watch = setInterval(() => {
      const status = ws.getConnectionStatus();
      if (status.state !== "connected" && status.nextConnectTime) done(new Error("feishu long connection failed"));
    }, 100);
    const sink = createFeishuDispatcher({
      botOpenId: () => this.api.botOpenId(),
      onMessage: (m) => this.hand(() => this.hooks?.onMessage(m)),
      onGreeting: (g) => this.hand(() => this.hooks?.onGreeting(g)),
    });
    try {
      await ws.start({ eventDispatcher: sink });
      await ready;
      this.attempt = 0;
      if (this.stopped) throw new Error("feishu channel disconnected");
    } catch (err) {
      ws.close({ force: true });
      if (this.ws === ws) this.ws = null;
      throw err;
    } finally {
      clearTimeout(timer);
      clearInterval(watch);
    }
  }

  /** The SDK gave up on a connection that was up (retries exhausted, endpoint refused): start again. */
  private lost(ws: lark.WSClient, err: Error) {
    if (this.ws !== ws) return;
    logger.warn({ err: err.message, botId: this.spec.botId }, "feishu: long connection lost");
    ws.close({ force: true });
    this.ws = null;
    const refused = isRefusal(wsError(err));
    this.report({ state: "offline", detail: refused ? "detail.credentials_refused" : "detail.reconnecting" });
    this.reconnectLater();
  }

  private reconnectLater() {
    if (this.stopped || this.retryTimer) return;
    if (this.state.state !== "offline") this.report({ state: "offline", detail: "detail.reconnecting" });
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.stopped) return;
      this.open().then(
        () => this.report({ state: "online" }),
        (err) => {
          if (this.stopped) return;
          this.report({ state: "offline", detail: isRefusal(err) ? "detail.credentials_refused" : "detail.reconnecting" });
          this.reconnectLater();
        },
      );
    }, delay);
  }

  /**
   * Hands an event to the core. Feishu wants its ACK within 3 s, and an answer takes longer: the
   * event is acknowledged when the core is done or after ACK_GRACE_MS, whichever comes first. A
   * core that fails at once (database away) makes the SDK answer 500, and Feishu sends it again.
   */
  private async hand(fn: () => Promise<void> | undefined): Promise<void> {
    const run = Promise.resolve().then(fn);
    run.catch((err) => logger.error({ err, botId: this.spec.botId }, "feishu: event not handled"));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((r) => (timer = setTimeout(r, ACK_GRACE_MS)));
    try {
      await Promise.race([run, grace]);
    } finally {
      clearTimeout(timer);
    }
  }

  private report(h: TChannelHealth) {
    if (h.state === this.state.state && h.detail === this.state.detail) return;
    this.state = h;
    this.hooks?.onHealth(h);
  }
}

const replyTarget = (to: TInboundMessage) => (to.replyContext as { message_id?: string } | undefined)?.message_id ?? to.externalId;

const isRefusal = (err: unknown) => err instanceof FeishuApiError && err.refused;

/** The SDK's "pullConnectConfig failed: code=514, msg=..." is Feishu refusing the app the long connection. */
function wsError(err: Error): Error {
  const m = /pullConnectConfig failed: code=(-?\d+), msg=(.*)$/.exec(err.message);
  return m ? new FeishuApiError(`feishu ${m[1]}: ${m[2]}`, Number(m[1]), null) : err;
}
