import { describe, expect, it } from "vitest";
import { createSseParser, streamSse, type TSseEvent } from "./sse-client";
import type { TBrowserEnv } from "./api-client";

function parseInPieces(pieces: (string | Uint8Array)[]) {
  const out: TSseEvent[] = [];
  const parser = createSseParser((e) => out.push(e));
  for (const p of pieces) parser.push(p);
  parser.end();
  return out;
}

/** Every way of cutting the bytes in two must give the same events. */
function everySplit(bytes: Uint8Array) {
  const results: TSseEvent[][] = [];
  for (let i = 0; i <= bytes.length; i++) results.push(parseInPieces([bytes.slice(0, i), bytes.slice(i)]));
  return results;
}

const STREAM =
  'event: message\ndata: {"id":"m1","choices":[{"message":{"content":"","reasoning_content":"想"}}]}\n\n' +
  'event: function\r\ndata: {"name":"current_time"}\r\n\r\n' +
  ": keep-alive comment\r\r" +
  'event: close\ndata: {"id":"m1",\ndata: "retrieve":[]}\n\n';

const EXPECTED: TSseEvent[] = [
  { event: "message", data: '{"id":"m1","choices":[{"message":{"content":"","reasoning_content":"想"}}]}' },
  { event: "function", data: '{"name":"current_time"}' },
  { event: "close", data: '{"id":"m1",\n"retrieve":[]}' },
];

describe("createSseParser", () => {
  it("reads LF, CRLF and CR line ends, comments and multi-line data", () => {
    expect(parseInPieces([STREAM])).toEqual(EXPECTED);
  });

  it("gives the same events wherever the bytes are cut, even inside a UTF-8 character or a CRLF", () => {
    const bytes = new TextEncoder().encode(STREAM);
    for (const result of everySplit(bytes)) expect(result).toEqual(EXPECTED);
  });

  it("survives one byte at a time", () => {
    const bytes = new TextEncoder().encode(STREAM);
    expect(parseInPieces([...bytes].map((b) => new Uint8Array([b])))).toEqual(EXPECTED);
  });

  it("delivers a last event the server did not end with a blank line", () => {
    expect(parseInPieces(["event: close\ndata: {}"])).toEqual([{ event: "close", data: "{}" }]);
  });

  it("names an event without an event line 'message', strips one space only, and skips empty events", () => {
    expect(parseInPieces(["data:  two spaces\n\n", "event: ping\n\n", "data\n\n"])).toEqual([
      { event: "message", data: " two spaces" },
      { event: "message", data: "" },
    ]);
  });
});

describe("streamSse", () => {
  const env = (touser: string | null = null, assigned: string[] = []): TBrowserEnv => ({
    location: { href: "http://zelin.test/dialogue", hostname: "zelin.test", pathname: "/dialogue", search: "", assign: (u) => assigned.push(u) },
    ownHosts: ["zelin.test"],
    dispatch: () => {},
    touser: () => touser,
  });

  it("posts JSON with touser and reads events from the body as chunks arrive", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        const bytes = new TextEncoder().encode(STREAM);
        c.enqueue(bytes.slice(0, 7));
        c.enqueue(bytes.slice(7, 90));
        c.enqueue(bytes.slice(90));
        c.close();
      },
    });
    const fetchImpl = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8" } });
    }) as unknown as typeof fetch;
    const events: TSseEvent[] = [];
    await streamSse("/api/v1/ai_message/send_message/sse", {
      body: { agent_id: "a1", content: "hi" },
      onEvent: (e) => events.push(e),
      env: env("u7"),
      fetchImpl,
    });
    expect(events).toEqual(EXPECTED);
    expect(calls[0].url).toBe("/api/v1/ai_message/send_message/sse?touser=u7");
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ agent_id: "a1", content: "hi" });
    expect((calls[0].init.headers as Record<string, string>)["Content-Type"]).toBe("application/json");
  });

  it("turns a JSON refusal into one error event and sends a logged-out user to log in", async () => {
    const assigned: string[] = [];
    const fetchImpl = (async () => Response.json({ status: 110003, description: "Please log in", data: null })) as unknown as typeof fetch;
    const events: TSseEvent[] = [];
    await streamSse("/api/v1/ai_message/send_message/sse", { body: {}, onEvent: (e) => events.push(e), env: env(null, assigned), fetchImpl });
    expect(events).toHaveLength(1);
    expect(events[0].event).toBe("error");
    expect(JSON.parse(events[0].data).description).toBe("Please log in");
    expect(assigned).toEqual(["/login?redirect=%2Fdialogue"]);
  });
});
