// Connections to model providers opened before they are needed. A chat's upstream request that
// finds no idle keep-alive connection (the user paused longer than the provider keeps one, 5 s for
// a Node server) waits for a TCP connect, and for TLS a handshake: on loopback 2 to 3 ms of the
// first token, to a provider abroad one to three round trips. So for an origin used in the last
// WARM_WINDOW_MS, one spare connection is kept open, handed to the next request that needs a new
// one, and replaced. A spare that has carried no request is closed and reopened after
// SPARE_MAX_AGE_MS, the same margin undici keeps for an idle keep-alive connection without a hint
// from the server, so the server never closes one as it is handed out.
import type { Socket } from "node:net";
import { buildConnector } from "undici";

/** How long after its last request an origin keeps a spare connection. */
export const WARM_WINDOW_MS = 10 * 60_000;
/** A spare older than this is replaced rather than used. */
export const SPARE_MAX_AGE_MS = 4_000;

/** UPSTREAM_SPARE_CONNECTIONS=off keeps no spares (connections are then made when needed, as before). */
function defaultTiming() {
  return { warmWindowMs: process.env.UPSTREAM_SPARE_CONNECTIONS === "off" ? 0 : WARM_WINDOW_MS, spareMaxAgeMs: SPARE_MAX_AGE_MS };
}

type TSpare = { socket: Socket; at: number; lost: () => void };
type TOrigin = { options: buildConnector.Options; usedAt: number; spare: TSpare | null; opening: boolean; timer: NodeJS.Timeout | null };

export type TWarmConnector = buildConnector.connector & {
  /** Spares open now, per origin (for tests). */
  spares(): string[];
  /** Closes the spares and stops replacing them. */
  close(): void;
};

/** A connector for undici's Agent (`connect`) that keeps a spare connection per origin in use. */
export function createWarmConnector(build: buildConnector.BuildOptions = {}, timing = defaultTiming()): TWarmConnector {
  const connect = buildConnector(build);
  const { warmWindowMs, spareMaxAgeMs } = timing;
  const origins = new Map<string, TOrigin>();
  let closed = false;

  const keyOf = (o: buildConnector.Options) => `${o.protocol}//${o.hostname}:${o.port}|${o.servername ?? ""}`;

  const drop = (origin: TOrigin) => {
    if (origin.timer) clearTimeout(origin.timer);
    origin.timer = null;
    const spare = origin.spare;
    origin.spare = null;
    spare?.socket.destroy();
  };

  const refill = (key: string, origin: TOrigin) => {
    const cold = Date.now() - origin.usedAt > warmWindowMs;
    if (closed || origin.opening || origin.spare || cold) {
      if (cold && !origin.spare && !origin.opening) origins.delete(key);
      return;
    }
    origin.opening = true;
    connect(origin.options, (err, socket) => {
      origin.opening = false;
      // An origin that refuses now (gone, or a guard's refusal) gets no spare until it is used again.
      if (err || !socket) return;
      if (closed) return void socket.destroy();
      // A spare holds no request: it must not keep the process alive, nor outlive its welcome.
      socket.unref();
      const lost = () => {
        if (origin.spare?.socket !== socket) return;
        drop(origin);
      };
      socket.on("error", lost).on("close", lost).on("end", lost);
      origin.spare = { socket, at: Date.now(), lost };
      origin.timer = setTimeout(() => {
        drop(origin);
        refill(key, origin);
      }, spareMaxAgeMs);
      origin.timer.unref();
    });
  };

  const take = (origin: TOrigin): Socket | null => {
    const spare = origin.spare;
    if (!spare) return null;
    if (origin.timer) clearTimeout(origin.timer);
    origin.timer = null;
    origin.spare = null;
    const { socket } = spare;
    socket.off("error", spare.lost).off("close", spare.lost).off("end", spare.lost);
    if (socket.destroyed || socket.readableEnded || !socket.writable || Date.now() - spare.at > spareMaxAgeMs) {
      socket.destroy();
      return null;
    }
    socket.ref();
    return socket;
  };

  const connector = ((options, callback) => {
    const key = keyOf(options);
    let origin = origins.get(key);
    if (!origin) {
      origin = { options, usedAt: 0, spare: null, opening: false, timer: null };
      origins.set(key, origin);
    }
    origin.options = options;
    origin.usedAt = Date.now();
    const socket = take(origin);
    const known = origin;
    if (socket) {
      callback(null, socket);
      // The replacement is opened once this request is written: opening a socket is work the
      // request would otherwise wait for.
      setImmediate(() => refill(key, known));
      return;
    }
    connect(options, (err, fresh) => {
      if (err || !fresh) return callback(err ?? new Error("connection failed"), null);
      callback(null, fresh);
      refill(key, known);
    });
  }) as TWarmConnector;

  connector.spares = () => [...origins.entries()].filter(([, o]) => o.spare).map(([key]) => key);
  connector.close = () => {
    closed = true;
    for (const origin of origins.values()) drop(origin);
    origins.clear();
  };
  return connector;
}
