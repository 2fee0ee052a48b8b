// pullReads (openai-compatible-client.ts): the relay's reads of an upstream body, in order, with
// the body paused while the reader is behind, and a body cut off before its end read as a failure.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { pullReads } from "./openai-compatible-client";

describe("pullReads", () => {
  it("hands each read on in order and null once the body ended", async () => {
    const body = new PassThrough();
    const next = pullReads(body);
    body.write("a");
    body.write("b");
    expect(String(await next())).toBe("a");
    expect(String(await next())).toBe("b");
    const waiting = next();
    body.end("c");
    expect(String(await waiting)).toBe("c");
    expect(await next()).toBeNull();
  });

  it("pauses the body while sixteen reads wait, and resumes it once the reader catches up", async () => {
    const body = new PassThrough();
    const next = pullReads(body);
    for (let i = 0; i < 20; i++) body.write(`r${i}`);
    await new Promise((r) => setImmediate(r));
    expect(body.isPaused()).toBe(true);
    const got: string[] = [];
    for (let i = 0; i < 20; i++) got.push(String(await next()));
    expect(got).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}`));
    expect(body.isPaused()).toBe(false);
  });

  it("throws the body's error, and a premature close when it closes before its end", async () => {
    const failing = new PassThrough();
    const next = pullReads(failing);
    failing.destroy(new Error("socket hang up"));
    await expect(next()).rejects.toThrow("socket hang up");

    const cut = new PassThrough();
    const nextCut = pullReads(cut);
    cut.write("partial");
    cut.destroy();
    expect(String(await nextCut())).toBe("partial");
    await expect(nextCut()).rejects.toMatchObject({ code: "ERR_STREAM_PREMATURE_CLOSE" });
  });
});
