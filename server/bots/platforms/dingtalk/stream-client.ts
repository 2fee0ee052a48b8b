// One DingTalk stream-mode connection, on dingtalk-stream's DWClient. What we change, and why:
// - the gateway address is a constant in the SDK; `getEndpoint()` here asks DINGTALK_API_BASE (tests
//   point it at a loopback fake) and tells refused credentials (401) apart from other failures;
// - the SDK's own reconnect (autoReconnect) retries every second for ever, never gives up on bad
//   credentials, and after a socket error can schedule two reconnects at once; it is turned off, and
//   the channel reconnects with backoff by opening a fresh connection (this class serves one socket);
// - a `disconnect` system frame (DingTalk moving the connection) ends this connection at once, so the
//   channel opens the next one instead of waiting for DingTalk to drop it.
// The SDK answers DingTalk's `ping` frames itself and, with keepAlive, pings the socket every 8 s and
// drops it when a pong does not come back.
import { DWClient, type DWClientDownStream } from "dingtalk-stream";
import type WebSocket from "ws";
import { logger } from "../../../lib/logger";

const OPEN_TIMEOUT_MS = 15_000;
const WS_OPEN = 1;

export type TStreamApp = { clientId: string; clientSecret: string };

/** How long to wait before reconnect attempt `attempt` (0-based): 1 s doubling to 60 s, ±20 % jitter. */
export function reconnectDelayMs(attempt: number, random = Math.random): number {
  const base = Math.min(60_000, 1000 * 2 ** Math.min(attempt, 16));
  return Math.min(60_000, Math.round(base * (0.8 + 0.4 * random())));
}

/** DingTalk refused the app's Client ID and Secret. */
export class CredentialsRefusedError extends Error {
  readonly code = "credentials_refused";
  constructor(message: string) {
    super(message);
    this.name = "CredentialsRefusedError";
  }
}

/** The SDK's private fields this class has to reach (it keeps them private but plain JavaScript). */
type TInternals = { socket?: WebSocket; dw_url?: string; heartbeatIntervallId?: NodeJS.Timeout; userDisconnect: boolean };

export class DingtalkStreamConnection extends DWClient {
  private closed = false;
  private onClosed: (() => void) | null = null;
  /** DingTalk asked us to move (a `disconnect` frame): the next connection may open at once. */
  movedByServer = false;

  constructor(
    app: TStreamApp,
    private readonly apiBase: string,
    topics: string[],
  ) {
    super({
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      keepAlive: true,
      debug: false,
      ua: "zelin-bot-gateway",
      subscriptions: topics.map((topic) => ({ type: "CALLBACK", topic })),
    } as ConstructorParameters<typeof DWClient>[0]);
    this.config.autoReconnect = false;
  }

  private get internals() {
    return this as unknown as TInternals;
  }

  /** Asks DingTalk for a connection ticket (POST /v1.0/gateway/connections/open). */
  override async getEndpoint(): Promise<this> {
    const path = "/v1.0/gateway/connections/open";
    const res = await fetch(`${this.apiBase}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        clientId: this.config.clientId,
        clientSecret: this.config.clientSecret,
        ua: this.config.ua,
        subscriptions: this.config.subscriptions,
      }),
      signal: AbortSignal.timeout(OPEN_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: { endpoint?: string; ticket?: string; code?: string; message?: string } = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      // An HTML error page from a proxy: a failure like any other.
    }
    if (res.status === 401 || res.status === 403) throw new CredentialsRefusedError(`${res.status} ${json.code ?? ""} ${json.message ?? ""}`.trim());
    if (!res.ok) throw new Error(`dingtalk ${path}: ${res.status} ${json.code ?? ""} ${json.message ?? text.slice(0, 200)}`);
    if (!json.endpoint || !json.ticket) throw new Error(`dingtalk ${path}: no endpoint or ticket in the answer`);
    this.internals.dw_url = `${json.endpoint}?ticket=${encodeURIComponent(json.ticket)}`;
    return this;
  }

  /** Opens the connection; `onClosed` is called once when it ends for any reason but `close()`. */
  async open(onClosed: () => void): Promise<void> {
    await this.getEndpoint();
    const opening = this._connect();
    const socket = this.internals.socket;
    const timer = setTimeout(() => socket?.terminate(), OPEN_TIMEOUT_MS);
    try {
      await opening;
    } catch (err) {
      this.close();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    if (this.closed || !socket || socket.readyState !== WS_OPEN) {
      this.close();
      throw new Error("dingtalk stream: the socket closed while opening");
    }
    this.onClosed = onClosed;
    socket.once("close", () => this.ended());
  }

  // The SDK parses frames inside the socket's event handler: a frame that is not JSON would throw
  // out of it and take the process down.
  override onDownStream(data: string): void {
    try {
      super.onDownStream(data);
    } catch (err) {
      logger.warn({ err }, "dingtalk stream: a frame that could not be read");
    }
  }

  override onSystem(downstream: DWClientDownStream): void {
    super.onSystem(downstream);
    if (downstream.headers.topic === "disconnect") {
      this.movedByServer = true;
      this.internals.socket?.terminate();
    }
  }

  /** Acknowledges a callback frame so DingTalk does not deliver it again; false when the socket is gone. */
  ack(messageId: string): boolean {
    const socket = this.internals.socket;
    if (this.closed || !socket || socket.readyState !== WS_OPEN) return false;
    this.socketCallBackResponse(messageId, "OK");
    return true;
  }

  /** Ends the connection on our side (no onClosed call). */
  close() {
    this.onClosed = null;
    this.ended();
    this.internals.userDisconnect = true;
    const socket = this.internals.socket;
    if (socket && socket.readyState !== 3) socket.terminate();
  }

  private ended() {
    if (this.closed) return;
    this.closed = true;
    this.connected = false;
    clearInterval(this.internals.heartbeatIntervallId);
    const notify = this.onClosed;
    this.onClosed = null;
    notify?.();
  }
}
