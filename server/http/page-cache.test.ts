// The market's page micro-cache over real HTTP: one render shared by signed-out visitors of the
// same URL and language, never for a signed-in reader or an answer that set a cookie.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gunzipSync } from "node:zlib";
import http from "node:http";
import { clearPageCache, configurePageCache, pageCache, servePageCache } from "./page-cache";
import { SESSION_COOKIE } from "../auth/session.service";

let server: Server;
let base = "";
let renders = 0;

beforeAll(async () => {
  const app = express();
  app.use(
    servePageCache((_req, res, next) => {
      res.cookie("zl_csrf", "t");
      next();
    }),
  );
  app.use(pageCache);
  app.get(["/app_store", "/mobi/app_store", "/search"], async (req, res) => {
    renders++;
    await new Promise((r) => setTimeout(r, 30));
    res.type("html");
    res.write(`<p>${req.originalUrl} `);
    res.end(`render ${renders} lang=${req.headers.cookie ?? ""}</p>`);
  });
  app.get("/detail", (_req, res) => {
    renders++;
    res.cookie("zl_visitor", "v1");
    res.type("html").send(`<p>render ${renders}</p>`);
  });
  app.get("/customer", (_req, res) => {
    renders++;
    res.status(404).send("gone");
  });
  app.get("/setting", (_req, res) => {
    renders++;
    res.send(`render ${renders}`);
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((r) => server.close(r)));

beforeEach(() => {
  clearPageCache();
  renders = 0;
});

const get = async (path: string, cookie?: string) => {
  const res = await fetch(base + path, { headers: cookie ? { cookie } : {} });
  return { status: res.status, body: await res.text(), cache: res.headers.get("x-page-cache"), type: res.headers.get("content-type") };
};

describe("page cache", () => {
  it("renders a public page once for fifty signed-out visitors asking at the same time", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => get("/app_store?category=2")));
    expect(renders).toBe(1);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.every((a) => a.status === 200 && a.type?.startsWith("text/html"))).toBe(true);
    const again = await get("/app_store?category=2");
    expect(again.cache).toBe("hit");
    expect(renders).toBe(1);
  });

  it("while one visitor's request renders a stale page afresh, the others get the stale page at once", async () => {
    configurePageCache({ ttlMs: 60, staleMs: 10_000 });
    try {
      const first = await get("/app_store?sort=newest");
      await new Promise((r) => setTimeout(r, 100));
      // Stale now: this request renders (30 ms); those asking meanwhile are not kept waiting.
      const renewing = get("/app_store?sort=newest");
      await new Promise((r) => setTimeout(r, 5));
      const meanwhile = await Promise.all(Array.from({ length: 10 }, () => get("/app_store?sort=newest")));
      expect(meanwhile.every((a) => a.body === first.body && a.cache === "hit")).toBe(true);
      const renewed = await renewing;
      expect(renewed.body).not.toBe(first.body);
      expect(renders).toBe(2);
      expect((await get("/app_store?sort=newest")).body).toBe(renewed.body);
    } finally {
      configurePageCache({ ttlMs: 5_000, staleMs: 30_000 });
    }
  });

  it("keys by the whole URL, the language cookie and the /mobi form", async () => {
    await get("/search?q=a");
    await get("/search?q=b");
    await get("/search?q=a", "lang=en");
    await get("/mobi/app_store");
    expect(renders).toBe(4);
    expect((await get("/search?q=a", "lang=en")).body).toContain("lang=en");
    expect(renders).toBe(4);
  });

  it("serves a kept page gzipped as stored, with the early middleware's cookies", async () => {
    const raw = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${base}/app_store?g=1`, { headers: { "accept-encoding": encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c) => chunks.push(c));
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
    const first = await raw("identity");
    expect(first.headers["x-page-cache"]).toBe("miss");
    const zipped = await raw("gzip, br");
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["x-page-cache"]).toBe("hit");
    expect(String(zipped.headers["set-cookie"])).toContain("zl_csrf=t");
    expect(gunzipSync(zipped.body).toString()).toBe(first.body.toString());
    const plain = await raw("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(first.body.toString());
    expect(renders).toBe(1);
  });

  it("never serves a signed-in reader from the cache", async () => {
    await get("/app_store");
    const signedIn = await get("/app_store", `${SESSION_COOKIE}=abc`);
    expect(signedIn.cache).toBeNull();
    expect(renders).toBe(2);
  });

  it("keeps nothing that set a cookie, failed, or is not a market page", async () => {
    await get("/detail?id=1");
    await get("/detail?id=1");
    await get("/customer?id=1");
    await get("/customer?id=1");
    await get("/setting");
    await get("/setting");
    expect(renders).toBe(6);
  });
});
