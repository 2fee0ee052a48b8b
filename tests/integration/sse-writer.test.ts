// The stream reaches the client event by event (not buffered, not compressed), in the protocol's
// shapes, and the upstream side learns at once when the client goes away.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSseEvents, startSse, type TSseEvent } from "../../server/turns/sinks/sse-sink";

let server: Server;
let base: string;
let aborted = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  const app = express();
  // Same filter as the web app: compression must leave streams alone.
  app.use(compression({ filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").includes("text/event-stream") && compression.filter(req, res) }));
  app.get("/stream", async (_req, res) => {
    const sse = startSse(res);
    sse.signal.addEventListener("abort", () => aborted++);
    sse.message({ reasoning_content: "思考" });
    for (let i = 0; i < 5 && !sse.signal.aborted; i++) {
      await sleep(100);
      sse.message({ content: `片段${i}` });
    }
    sse.fn({ name: "python_interpreter", type: "response", params: { code: "print(1)" } });
    sse.close({ retrieve: [{ title: "doc" }], audio: null });
  });
  app.get("/censor", (_req, res) => {
    const sse = startSse(res);
    sse.message({ content: "ok" });
    sse.censor("output failed review");
    sse.message({ content: "never sent" });
  });
  app.get("/meta", (_req, res) => {
    const sse = startSse(res);
    sse.message({ content: "" });
    sse.setMeta({ id: "m1", dialogue_id: 'd"1' });
    sse.message({ content: "a\nb", reasoning_content: "想" });
    sse.close({ retrieve: [] });
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((r) => server.close(r));
});

describe("server-sent events", () => {
  it("delivers each event as it is made, uncompressed, in the protocol's shapes", async () => {
    const res = await fetch(`${base}/stream`, { headers: { "accept-encoding": "gzip, br" } });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.headers.get("content-encoding")).toBeNull();
    const events: TSseEvent[] = [];
    for await (const e of readSseEvents(res.body!)) events.push(e);
    expect(events.map((e) => e.event)).toEqual(["message", "message", "message", "message", "message", "message", "function", "close"]);
    expect(events[0].data).toEqual({ choices: [{ message: { reasoning_content: "思考" } }] });
    expect(events[1].data).toEqual({ choices: [{ message: { content: "片段0" } }] });
    expect(events[6].data).toEqual({ name: "python_interpreter", type: "response", params: { code: "print(1)" } });
    expect(events[7].data).toEqual({ retrieve: [{ title: "doc" }], audio: null });
    // Flushed one by one: the 100 ms gaps the server made are visible at the client.
    const gaps = events.slice(1, 6).map((e, i) => e.at - events[i].at);
    expect(Math.min(...gaps.slice(1))).toBeGreaterThanOrEqual(50);
  });

  it("puts the turn's ids first in every message, byte for byte as the whole event serialized", async () => {
    const text = await (await fetch(`${base}/meta`)).text();
    const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    const meta = { id: "m1", dialogue_id: 'd"1' };
    expect(text).toBe(
      event("message", { choices: [{ message: { content: "" } }] }) +
        event("message", { ...meta, choices: [{ message: { content: "a\nb", reasoning_content: "想" } }] }) +
        event("close", { ...meta, retrieve: [] }),
    );
  });

  it("censor ends the stream; nothing after it is sent", async () => {
    const res = await fetch(`${base}/censor`);
    const events: TSseEvent[] = [];
    for await (const e of readSseEvents(res.body!)) events.push(e);
    expect(events).toMatchObject([{ event: "message" }, { event: "censor", data: { censor_msg: "output failed review" } }]);
  });

  it("aborts the producer's signal when the client goes away", async () => {
    const before = aborted;
    const controller = new AbortController();
    const res = await fetch(`${base}/stream`, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await sleep(300);
    expect(aborted).toBe(before + 1);
  });
});
