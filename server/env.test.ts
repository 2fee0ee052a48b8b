import { describe, expect, it } from "vitest";
import os from "node:os";
import { appReviewPolicy, parseEnv, webWorkerCount } from "./env";

describe("settings", () => {
  it("has embedded defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, MARKET: "zelinai", PAY_ENABLE: true });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.DATA_DIR.endsWith(".data")).toBe(true);
  });

  it("fails fast with a sentence that names the bad setting", () => {
    expect(() => parseEnv({ PORT: "eighty", REDIS_URL: "localhost:6379" })).toThrowError(
      /Zelin cannot start: bad settings[\s\S]*PORT[\s\S]*REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => parseEnv({ MARKET: "mars" })).toThrowError(/MARKET/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrowError(/DATABASE_URL: must be a postgresql:\/\/ URL/);
  });

  it("reads booleans and lists", () => {
    expect(parseEnv({ PAY_ENABLE: "0", OWN_HOSTS: "A.com, b.com" })).toMatchObject({ PAY_ENABLE: false, OWN_HOSTS: ["a.com", "b.com"] });
  });

  it("runs one web process unless told how many workers, a number or one per CPU", () => {
    expect(webWorkerCount(parseEnv({}))).toBe(1);
    expect(webWorkerCount(parseEnv({ WEB_CONCURRENCY: "3" }))).toBe(3);
    expect(webWorkerCount(parseEnv({ WEB_CONCURRENCY: "auto" }))).toBe(os.availableParallelism());
    for (const bad of ["0", "65", "2.5", "many"])
      expect(() => parseEnv({ WEB_CONCURRENCY: bad })).toThrowError(/WEB_CONCURRENCY: must be a whole number from 1 to 64, or "auto"/);
  });

  it("lets an app's own link work before review on the embedded install, and reviews first on a production configuration", () => {
    expect(appReviewPolicy(parseEnv({}))).toBe("listing");
    expect(appReviewPolicy(parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgresql://db/zelin", ZELIN_EMBEDDED_DB: "1" }))).toBe("listing");
    expect(appReviewPolicy(parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgresql://db/zelin" }))).toBe("review_first");
    expect(appReviewPolicy(parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgresql://db/zelin", APP_REVIEW_POLICY: "listing" }))).toBe("listing");
    expect(appReviewPolicy(parseEnv({ APP_REVIEW_POLICY: "review_first" }))).toBe("review_first");
    expect(() => parseEnv({ APP_REVIEW_POLICY: "share" })).toThrowError(
      /APP_REVIEW_POLICY: must be "listing" \(review gates only the market listing\) or "review_first"/,
    );
  });

  it("keeps an idle client connection past a load balancer's minute unless told otherwise", () => {
    expect(parseEnv({}).HTTP_KEEP_ALIVE_MS).toBe(65_000);
    expect(parseEnv({ HTTP_KEEP_ALIVE_MS: "120000" }).HTTP_KEEP_ALIVE_MS).toBe(120_000);
    for (const bad of ["999", "1.5", "forever", "3600001"])
      expect(() => parseEnv({ HTTP_KEEP_ALIVE_MS: bad })).toThrowError(/HTTP_KEEP_ALIVE_MS: must be whole milliseconds from 1000 to 3600000/);
  });
});
