// WeCom (enterprise WeChat) self-built app. WeCom calls the web process (callback URL:
// server/bots/platforms/wecom/wecom-callback.*), which queues each message for the gateways; this
// channel only answers, through WeCom's API with the app's cached access token, so any gateway
// instance can reply or send for the bot with its credentials alone, connected or not.
import type { Channel, TChannelHealth, TChannelHooks, TChannelSpec, TInboundMessage, TOutbound, TTarget } from "../core/channel";
import { splitForChannel } from "../core/format";
import { getWecomAccessToken, sendWecomAppChat, sendWecomMessage, WecomApiError, type TWecomApp } from "../../server/bots/platforms/wecom/wecom-api";

/** WeCom's limit for a markdown message, in UTF-8 bytes. */
export const WECOM_MAX_BYTES = 2048;
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

  async function deliver(target: TTarget, out: TOutbound) {
    for (const content of splitForChannel(out.text, { maxBytes: WECOM_MAX_BYTES })) {
      if (target.kind === "group") await sendWecomAppChat(app, { chatid: target.id, msgtype: "markdown", content });
      else await sendWecomMessage(app, { touser: target.id, msgtype: "markdown", content });
    }
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
