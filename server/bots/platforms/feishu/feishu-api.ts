// Feishu's open API for one app, through the SDK's Client (which fetches the tenant access token
// and keeps it until shortly before it expires). One client per app id, secret and domain, kept
// for the process: the gateway builds a webhook bot's channel per job, and each must not fetch a
// fresh token. A token Feishu no longer accepts (secret reset) is dropped and fetched again once.
import crypto from "node:crypto";
import * as lark from "@larksuiteoapi/node-sdk";
import { logger } from "../../../lib/logger";
import { cardContent, type TFeishuCard } from "./feishu-card";

export type TFeishuApp = { appId: string; appSecret: string; domain: string };
export type TFeishuReceiver = { idType: "open_id" | "chat_id"; id: string };

/** Feishu app ids: what the long connection insists on before it even tries. */
export const FEISHU_APP_ID = /^cli_[0-9a-fA-F]{16}$/;

/** Codes meaning the tenant access token itself was not accepted (expired early, secret reset). */
const TOKEN_INVALID = new Set([99991661, 99991663, 99991664, 99991668]);
/** Codes that are Feishu being busy, not a refusal of the app. */
const TRANSIENT = new Set([99991400, 1000040343, 230020]);

export class FeishuApiError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly httpStatus: number | null,
  ) {
    super(message);
    this.name = "FeishuApiError";
  }
  /** Feishu answered and refused (as opposed to being unreachable or failing on its side). */
  get refused() {
    return this.code !== null && !TRANSIENT.has(this.code) && (this.httpStatus === null || this.httpStatus < 500);
  }
}

/** The SDK's logger, quietened: its own messages at debug, without request objects (they carry tokens). */
export const sdkLogger = (() => {
  const log = logger.child({ mod: "feishu-sdk" });
  const words = (m: unknown): string => (typeof m === "string" ? m : m instanceof Error ? m.message : Array.isArray(m) ? text(m) : "");
  const text = (msg: unknown[]): string => msg.map(words).filter(Boolean).join(" ").slice(0, 500);
  return {
    error: (...m: unknown[]) => log.debug(text(m)),
    warn: (...m: unknown[]) => log.debug(text(m)),
    info: (...m: unknown[]) => log.trace(text(m)),
    debug: (...m: unknown[]) => log.trace(text(m)),
    trace: () => {},
  };
})();

/** The SDK's key type, as its Cache interface declares it. */
type TCacheKey = Parameters<lark.Cache["set"]>[0];

/** The SDK's token cache, one per client, so a refused token can be forgotten. */
class TokenCache {
  private values = new Map<string, { value: unknown; expiresAt?: number }>();
  async set(key: TCacheKey, value: unknown, expiresAt?: number, options?: { namespace?: string }) {
    this.values.set(`${options?.namespace ?? ""}:${String(key)}`, { value, expiresAt });
    return true;
  }
  async get(key: TCacheKey, options?: { namespace?: string }) {
    const hit = this.values.get(`${options?.namespace ?? ""}:${String(key)}`);
    if (!hit || (hit.expiresAt !== undefined && hit.expiresAt < Date.now())) return undefined;
    return hit.value;
  }
  clear() {
    this.values.clear();
  }
}

type TApiAnswer<T = Record<string, unknown>> = { code?: number; msg?: string; data?: T };

/** A message's type and its content, as the message API takes them (content is JSON text). */
export type TFeishuMessage = { msgType: "interactive" | "image" | "media" | "file"; content: string };

/** The SDK's uploads answer the data alone (null when Feishu said no more): as an answer with code 0. */
const withCode = <T extends object>(data: T | null) => ({ code: 0, ...data }) as TApiAnswer<unknown> & Partial<T>;

export class FeishuApi {
  private readonly cache = new TokenCache();
  private readonly client: lark.Client;
  private botOpenIdValue: string | null = null;

  constructor(readonly app: TFeishuApp) {
    this.client = new lark.Client({
      appId: app.appId,
      appSecret: app.appSecret,
      domain: app.domain,
      appType: lark.AppType.SelfBuild,
      cache: this.cache,
      logger: sdkLogger,
      loggerLevel: lark.LoggerLevel.warn,
    });
  }

  /** Fetches a fresh tenant access token: throws a FeishuApiError (refused or not) when Feishu will not give one. */
  async checkCredentials(): Promise<void> {
    this.cache.clear();
    try {
      await this.client.tokenManager.getTenantAccessToken();
    } catch (err) {
      throw toApiError(err);
    }
  }

  /** The bot's own open_id (to tell its mentions from other people's), or null when Feishu does not say. */
  async botOpenId(): Promise<string | null> {
    if (this.botOpenIdValue) return this.botOpenIdValue;
    try {
      const res = await this.call(() => this.client.request<TApiAnswer & { bot?: { open_id?: string } }>({ url: "/open-apis/bot/v3/info", method: "GET" }));
      this.botOpenIdValue = res.bot?.open_id ?? null;
    } catch (err) {
      logger.warn({ err: String(err), appId: this.app.appId }, "feishu: bot info unavailable");
    }
    return this.botOpenIdValue;
  }

  /** Answers a message with a card; `uuid` makes a retried call send it once (Feishu keeps it an hour). */
  replyCard(messageId: string, card: TFeishuCard, uuid?: string): Promise<string> {
    return this.replyMessage(messageId, { msgType: "interactive", content: cardContent(card) }, uuid);
  }

  sendCard(to: TFeishuReceiver, card: TFeishuCard, uuid?: string): Promise<string> {
    return this.sendMessage(to, { msgType: "interactive", content: cardContent(card) }, uuid);
  }

  /** Answers a message with any message (a card, a picture by image_key, a video or file by file_key). */
  async replyMessage(messageId: string, m: TFeishuMessage, uuid?: string): Promise<string> {
    const res = await this.call(() =>
      this.client.im.message.reply({
        path: { message_id: messageId },
        data: { msg_type: m.msgType, content: m.content, ...(uuid ? { uuid: feishuUuid(uuid) } : {}) },
      }),
    );
    return res.data?.message_id ?? "";
  }

  async sendMessage(to: TFeishuReceiver, m: TFeishuMessage, uuid?: string): Promise<string> {
    const res = await this.call(() =>
      this.client.im.message.create({
        params: { receive_id_type: to.idType },
        data: { receive_id: to.id, msg_type: m.msgType, content: m.content, ...(uuid ? { uuid: feishuUuid(uuid) } : {}) },
      }),
    );
    return res.data?.message_id ?? "";
  }

  /** Uploads a picture to send in messages (image_type message); answers its image_key. */
  async uploadImage(bytes: Buffer): Promise<string> {
    const res = await this.call(async () => withCode(await this.client.im.image.create({ data: { image_type: "message", image: bytes } })));
    if (!res.image_key) throw new FeishuApiError("feishu: image upload answered no image_key", null, 200);
    return res.image_key;
  }

  /** Uploads a file (an MP4 video: file_type mp4, its length in ms when known); answers its file_key. */
  async uploadFile(file: { bytes: Buffer; name: string; type: "mp4" | "stream"; durationMs?: number }): Promise<string> {
    const data = { file_type: file.type, file_name: file.name, file: file.bytes, ...(file.durationMs ? { duration: file.durationMs } : {}) };
    const res = await this.call(async () => withCode(await this.client.im.file.create({ data })));
    if (!res.file_key) throw new FeishuApiError("feishu: file upload answered no file_key", null, 200);
    return res.file_key;
  }

  /** Replaces a card the bot sent (a shared card: everyone in the chat sees the new one). */
  async patchCard(messageId: string, card: TFeishuCard): Promise<void> {
    await this.call(() => this.client.im.message.patch({ path: { message_id: messageId }, data: { content: cardContent(card) } }));
  }

  private async call<T extends TApiAnswer<unknown>>(fn: () => Promise<T>, retried = false): Promise<T> {
    let res: T;
    try {
      res = await fn();
    } catch (err) {
      const e = toApiError(err);
      if (!retried && e.code !== null && TOKEN_INVALID.has(e.code)) {
        this.cache.clear();
        return this.call(fn, true);
      }
      throw e;
    }
    if (res && typeof res.code === "number" && res.code !== 0) {
      if (!retried && TOKEN_INVALID.has(res.code)) {
        this.cache.clear();
        return this.call(fn, true);
      }
      throw new FeishuApiError(`feishu ${res.code}: ${res.msg ?? ""}`, res.code, 200);
    }
    return res;
  }
}

const clients = new Map<string, FeishuApi>();

/** The process's client for this app (the secret is part of the key: a changed secret gets a new one). */
export function feishuApi(app: TFeishuApp): FeishuApi {
  const key = `${app.domain}|${app.appId}|${crypto.createHash("sha256").update(app.appSecret).digest("hex")}`;
  let api = clients.get(key);
  if (!api) {
    if (clients.size > 500) clients.delete(clients.keys().next().value!);
    api = new FeishuApi(app);
    clients.set(key, api);
  }
  return api;
}

/** Feishu's uuid field is at most 50 characters: ours are hashed to 32. */
const feishuUuid = (key: string) => crypto.createHash("sha256").update(key).digest("hex").slice(0, 32);

/** An SDK or HTTP failure as a FeishuApiError with Feishu's code when it answered. */
export function toApiError(err: unknown): FeishuApiError {
  if (err instanceof FeishuApiError) return err;
  const ax = err as { response?: { status?: number; data?: { code?: unknown; msg?: unknown } }; message?: string };
  if (ax?.response) {
    const code = typeof ax.response.data?.code === "number" ? ax.response.data.code : null;
    const status = ax.response.status ?? null;
    return new FeishuApiError(`feishu ${code ?? status}: ${String(ax.response.data?.msg ?? ax.message ?? "")}`, code, status);
  }
  // The token manager's own refusal: "failed to get tenant_access_token, code: 10014, msg: ...".
  const m = /code: (-?\d+), msg: (.*)$/.exec(ax?.message ?? "");
  if (m) return new FeishuApiError(`feishu ${m[1]}: ${m[2]}`, Number(m[1]), null);
  return new FeishuApiError(String(ax?.message ?? err), null, null);
}
