import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyErrors, jsonBody } from "./json-body";

// A real server on loopback: the reader works on the request stream as Node delivers it.
let base = "";
let reached = 0;
let server: http.Server;

beforeAll(async () => {
  const app = express();
  app.post("/echo", jsonBody(64), express.urlencoded({ extended: true, limit: 64 }), bodyErrors, (req: express.Request, res: express.Response) => {
    reached++;
    res.json({ body: req.body });
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function post(body: string | Uint8Array | ReadableStream<Uint8Array>, headers: Record<string, string> = { "content-type": "application/json" }) {
  const before = reached;
  const res = await fetch(`${base}/echo`, { method: "POST", headers: { cookie: "lang=en", ...headers }, body, duplex: "half" } as RequestInit);
  return { http: res.status, json: (await res.json()) as { body?: unknown; status?: number; description?: string }, reached: reached > before };
}

/** A body sent in pieces with no length declared (chunked), as a streaming client sends it. */
function chunked(text: string) {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 10) controller.enqueue(bytes.slice(i, i + 10));
      controller.close();
    },
  });
}

describe("JSON request bodies", () => {
  it("parses an object or an array, in one piece or many", async () => {
    expect(await post(JSON.stringify({ content: "你好", n: 1 }))).toEqual({ http: 200, json: { body: { content: "你好", n: 1 } }, reached: true });
    expect((await post("[1,2]", { "content-type": "application/json; charset=UTF-8" })).json.body).toEqual([1, 2]);
    expect((await post(chunked(JSON.stringify({ a: "0123456789abcdef" })))).json.body).toEqual({ a: "0123456789abcdef" });
    expect((await post('{"x":1}', { "content-type": "application/vnd.api+json" })).json.body).toEqual({ x: 1 });
  });

  it("leaves other bodies to their own parsers", async () => {
    expect((await post("a=1&b=2", { "content-type": "application/x-www-form-urlencoded" })).json.body).toEqual({ a: "1", b: "2" });
    expect((await post("plain", { "content-type": "text/plain" })).json.body).toEqual({});
  });

  it("refuses a body that is not JSON with the localized envelope, and the route never runs", async () => {
    for (const bad of ['{"content": "unterminated', '"a string"', "42", "not json"]) {
      const res = await post(bad);
      expect(res).toMatchObject({
        http: 400,
        json: { status: 400002, description: "The request could not be read: its body is not valid JSON" },
        reached: false,
      });
    }
    const zh = await post("{oops", { "content-type": "application/json", cookie: "lang=zh_hans" });
    expect(zh.json).toMatchObject({ status: 400002, description: "无法读取请求：请求体不是有效的 JSON" });
    expect(await post('{"a":1}', { "content-type": "application/json; charset=latin1" })).toMatchObject({
      http: 400,
      json: { status: 400002 },
      reached: false,
    });
  });

  it("refuses a body over the limit, declared or not, and the form parser's too", async () => {
    const big = JSON.stringify({ content: "x".repeat(100) });
    expect(await post(big)).toMatchObject({ http: 413, json: { status: 413001, description: "The request is too large" }, reached: false });
    expect(await post(chunked(big))).toMatchObject({ http: 413, json: { status: 413001 }, reached: false });
    expect(await post(`a=${"x".repeat(100)}`, { "content-type": "application/x-www-form-urlencoded" })).toMatchObject({
      http: 413,
      json: { status: 413001 },
      reached: false,
    });
    // The server is still well after refusals.
    expect((await post('{"ok":true}')).json.body).toEqual({ ok: true });
  });

  it("reads an empty body as an empty object", async () => {
    expect((await post("")).json.body).toEqual({});
    expect((await post("  ")).json.body).toEqual({});
  });
});
