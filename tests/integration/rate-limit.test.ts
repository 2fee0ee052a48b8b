// The fixed-window rate limiter on both of its stores: Postgres (the database under test) and
// Redis (127.0.0.1:6379 here, as REDIS_URL would name it). Hits past the limit are refused with
// the seconds left in the window; a new window starts afresh; keys do not share counts; hits
// racing each other are all counted.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { hitRateLimit, postgresRateStore, redisRateStore, type TRateStore } from "../../server/apps/rate-limit";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/5";

async function redisReachable() {
  const store = redisRateStore(REDIS_URL);
  return Promise.race([store.hit(`probe:${crypto.randomUUID()}`, 0, 1000).then(() => true, () => false), new Promise<boolean>((r) => setTimeout(() => r(false), 1500))]);
}

for (const [name, makeStore] of [
  ["postgres", () => postgresRateStore()],
  ["redis", () => redisRateStore(REDIS_URL)],
] as [string, () => TRateStore][]) {
  describe(`rate limit on ${name}`, () => {
    it("allows `limit` hits per window, then refuses with Retry-After until the next window", async (ctx) => {
      if (name === "redis" && !(await redisReachable())) return ctx.skip();
      const store = makeStore();
      const key = `test:${crypto.randomUUID()}`;
      const windowStart = Math.floor(Date.now() / 60_000) * 60_000;
      const at = windowStart + 45_000;
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await hitRateLimit(store, key, 3, 60_000, at));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
      expect(results[3].retryAfterSeconds).toBe(15);
      // Another key has its own count; the next window starts afresh.
      expect((await hitRateLimit(store, `${key}:other`, 3, 60_000, at)).allowed).toBe(true);
      expect((await hitRateLimit(store, key, 3, 60_000, windowStart + 60_000)).allowed).toBe(true);
    });

    it("counts every one of many simultaneous hits", async (ctx) => {
      if (name === "redis" && !(await redisReachable())) return ctx.skip();
      const store = makeStore();
      const key = `race:${crypto.randomUUID()}`;
      const now = Date.now();
      const results = await Promise.all(Array.from({ length: 12 }, () => hitRateLimit(store, key, 5, 60_000, now)));
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
    });
  });
}
