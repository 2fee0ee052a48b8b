// A small fixed-window rate limiter (the API app's requests per key per minute): on Redis when
// REDIS_URL is set (INCR and PEXPIRE, shared by every instance), else in Postgres (one upserted
// row per key and window). A hit is counted whether or not it is allowed, so a client hammering
// past its limit does not get through at the window's edge any sooner.
import IORedis from "ioredis";
import { logger } from "../lib/logger";
import { singleton } from "../lib/singleton";
import * as repo from "./rate-limit.repository";

export type TRateStore = {
  /** Counts a hit of `key` in the window starting at `windowStart` and answers the window's hits. */
  hit(key: string, windowStart: number, windowMs: number): Promise<number>;
};

export type TRateDecision = { allowed: boolean; limit: number; remaining: number; retryAfterSeconds: number };

export function redisRateStore(url: string): TRateStore {
  const redis = singleton(`rate-limit-redis:${url}`, () => {
    const r = new IORedis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    r.on("error", (err) => logger.warn({ err }, "rate limit: redis error"));
    return r;
  });
  return {
    async hit(key, windowStart, windowMs) {
      const k = `zl:rl:${key}:${windowStart}`;
      const results = await redis
        .multi()
        .incr(k)
        .pexpire(k, windowMs * 2)
        .exec();
      const [err, hits] = results?.[0] ?? [new Error("no reply"), 0];
      if (err) throw err;
      return Number(hits);
    },
  };
}

let lastSweep = 0;
export function postgresRateStore(): TRateStore {
  return {
    async hit(key, windowStart, windowMs) {
      const now = Date.now();
      // Old windows are swept now and then, never on every hit.
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        repo.deleteExpiredWindows(new Date(now)).catch((err) => logger.warn({ err }, "rate limit: sweep failed"));
      }
      return repo.incrementWindow(key, windowStart, new Date(windowStart + windowMs * 2));
    },
  };
}

/** The store this process uses: Redis when REDIS_URL is set, else Postgres. */
export function defaultRateStore(): TRateStore {
  const url = process.env.REDIS_URL;
  return url ? redisRateStore(url) : postgresRateStore();
}

/** One hit of `key` against `limit` per `windowMs`. */
export async function hitRateLimit(store: TRateStore, key: string, limit: number, windowMs = 60_000, now = Date.now()): Promise<TRateDecision> {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const hits = await store.hit(key, windowStart, windowMs);
  const allowed = hits <= limit;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - hits),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
  };
}
