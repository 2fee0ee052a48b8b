// The fixed-window rate limiter on both of its stores: Postgres (the database under test) and
// Redis where the run names one (REDIS_URL, as CI does; the embedded default has none), the way
// the queue test picks its backend. Hits past the limit are refused with
// the seconds left in the window; a new window starts afresh; keys do not share counts; hits
// racing each other are all counted.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { hitRateLimit, postgresRateStore, redisRateStore, type TRateStore } from "../../server/apps/rate-limit";

const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;

const STORES: [string, () => TRateStore][] = [["postgres", () => postgresRateStore()]];
if (REDIS_URL) STORES.push(["redis", () => redisRateStore(REDIS_URL)]);

for (const [name, makeStore] of STORES) {
  describe(`rate limit on ${name}`, () => {
    it("allows `limit` hits per window, then refuses with Retry-After until the next window", async () => {
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

    it("counts every one of many simultaneous hits", async () => {
      const store = makeStore();
      const key = `race:${crypto.randomUUID()}`;
      const now = Date.now();
      const results = await Promise.all(Array.from({ length: 12 }, () => hitRateLimit(store, key, 5, 60_000, now)));
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
    });
  });
}
