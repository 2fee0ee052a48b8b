// readChunks (chunk-source.ts): an upstream body's SSE chunks pulled, pushed, or pulled then pushed,
// in order, with the body paused while a puller is behind, and every way a stream ends: [DONE]
// (the connection kept), a failure, a cut-off body, a handler that stops or throws (the body dropped).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readChunks, type TSourceHooks } from "./chunk-source";
import type { TChatChunk } from "./openai-compatible-client";

const event = (text: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`;
const textOf = (c: TChatChunk) => String(c.choices?.[0]?.delta?.content);

function source() {
  const body = new PassThrough();
  const seen = { cleared: 0, disposed: 0 };
  const hooks: TSourceHooks = {
    classify: (err) => Object.assign(new Error(`classified: ${(err as Error).message}`), { cause: err }),
    notJson: () => new Error("not json"),
    errorChunk: (chunk) => new Error(`error chunk: ${JSON.stringify(chunk.error)}`),
    cutShort: () => new Error("cut short"),
    clearTimer: () => void seen.cleared++,
    dispose: () => void seen.disposed++,
  };
  return { body, seen, chunks: readChunks(body, hooks) };
}

describe("readChunks", () => {
  it("pulls chunks in order across reads that split and join events, and ends at [DONE] keeping the connection", async () => {
    const { body, seen, chunks } = source();
    const all = event("a") + ": keep-alive\r\n\r\n" + event("b") + event("c") + "data: [DONE]\n\n";
    body.write(all.slice(0, 10));
    body.write(all.slice(10, 80));
    body.write(all.slice(80));
    const got: string[] = [];
    for await (const c of chunks) got.push(textOf(c));
    expect(got).toEqual(["a", "b", "c"]);
    expect(seen).toEqual({ cleared: 3, disposed: 1 });
    // After [DONE] the body is read to its end, not destroyed: undici reuses the connection.
    expect(body.destroyed).toBe(false);
  });

  it("keeps a character whose bytes two reads split, and drops a byte-order mark before the first event", async () => {
    const { body, chunks } = source();
    const bytes = Buffer.from("\ufeff" + event("智能体") + event("é") + "data: [DONE]\n\n");
    // Cut inside the first CJK character's three bytes (the BOM is three, "data: " six, and so on).
    const cut = bytes.indexOf(Buffer.from("智")) + 1;
    body.write(bytes.subarray(0, cut));
    body.write(bytes.subarray(cut, cut + 1));
    body.write(bytes.subarray(cut + 1));
    const got: string[] = [];
    for await (const c of chunks) got.push(textOf(c));
    expect(got).toEqual(["智能体", "é"]);
  });

  it("pauses the body while sixteen chunks wait to be pulled, and resumes it once the puller catches up", async () => {
    const { body, chunks } = source();
    for (let i = 0; i < 20; i++) body.write(event(`r${i}`));
    await chunks.next();
    await new Promise((r) => setImmediate(r));
    expect(body.isPaused()).toBe(true);
    const got: string[] = [];
    for (let i = 1; i < 20; i++) got.push(textOf((await chunks.next()).value as TChatChunk));
    expect(got).toEqual(Array.from({ length: 19 }, (_, i) => `r${i + 1}`));
    expect(body.isPaused()).toBe(false);
  });

  it("pumps the chunks pulled ahead first, then each as its read comes, and resolves at [DONE]", async () => {
    const { body, chunks } = source();
    body.write(event("first") + event("second"));
    expect(textOf((await chunks.next()).value as TChatChunk)).toBe("first");
    const got: string[] = [];
    const pumped = chunks.pump((c) => void got.push(textOf(c)));
    expect(got).toEqual(["second"]);
    body.write(event("third"));
    await new Promise((r) => setImmediate(r));
    // Handed on in the read that carried it, before any later turn of the event loop.
    expect(got).toEqual(["second", "third"]);
    body.end("data: [DONE]\n\n");
    await pumped;
    await expect(chunks.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it("pumps a stream that ended while nobody was reading: every chunk, then resolves", async () => {
    const { body, chunks } = source();
    body.end(event("a") + event("b") + "data: [DONE]\n\n");
    await chunks.next();
    await new Promise((r) => setImmediate(r));
    const got: string[] = [];
    await chunks.pump((c) => void got.push(textOf(c)));
    expect(got).toEqual(["b"]);
  });

  it("stops when the handler says so: the body is dropped and nothing more is handed on", async () => {
    const { body, seen, chunks } = source();
    const got: string[] = [];
    const pumped = chunks.pump((c) => {
      got.push(textOf(c));
      return got.length < 2;
    });
    body.write(event("a") + event("b") + event("c"));
    await pumped;
    expect(got).toEqual(["a", "b"]);
    expect(body.destroyed).toBe(true);
    expect(seen.disposed).toBe(1);
  });

  it("rejects the pump with the body's failure, classified, and with a handler's own throw", async () => {
    const failing = source();
    const pumped = failing.chunks.pump(() => undefined);
    failing.body.destroy(new Error("socket hang up"));
    await expect(pumped).rejects.toThrow("classified: socket hang up");

    const throwing = source();
    const thrown = throwing.chunks.pump(() => {
      throw new Error("handler broke");
    });
    throwing.body.write(event("x"));
    await expect(thrown).rejects.toThrow("handler broke");
    expect(throwing.body.destroyed).toBe(true);
  });

  it("names a stream cut short, an event that is not JSON and an error chunk, after the chunks before them", async () => {
    const cut = source();
    cut.body.end(event("partial"));
    expect(textOf((await cut.chunks.next()).value as TChatChunk)).toBe("partial");
    await expect(cut.chunks.next()).rejects.toThrow("cut short");
    await expect(cut.chunks.next()).resolves.toMatchObject({ done: true });

    const garbled = source();
    garbled.body.write("data: {oops\n\n");
    await expect(garbled.chunks.pump(() => undefined)).rejects.toThrow("not json");

    const refused = source();
    refused.body.write(`data: ${JSON.stringify({ error: { message: "quota", code: "insufficient_quota" } })}\n\n`);
    await expect(refused.chunks.next()).rejects.toThrow('error chunk: {"message":"quota","code":"insufficient_quota"}');
  });

  it("return() drops a stream nobody will read", async () => {
    const { body, seen, chunks } = source();
    body.write(event("a"));
    await chunks.next();
    await chunks.return();
    expect(body.destroyed).toBe(true);
    expect(seen.disposed).toBe(1);
  });
});
