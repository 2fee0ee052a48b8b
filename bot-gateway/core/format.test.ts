import { describe, expect, it } from "vitest";
import { markdownToPlain, splitForChannel } from "./format";

describe("splitForChannel", () => {
  it("keeps short text whole and splits long text within a UTF-8 byte limit, at paragraph breaks first", () => {
    expect(splitForChannel("hello", { maxBytes: 2048 })).toEqual(["hello"]);
    const para = "甲".repeat(300);
    const parts = splitForChannel(`${para}\n\n${para}\n\n${para}`, { maxBytes: 2048 });
    expect(parts).toEqual([`${para}\n\n${para}`, para]);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(2048);
  });

  it("cuts a run without breaks at the limit, never inside a character, losing nothing", () => {
    const text = "😀".repeat(1000);
    const parts = splitForChannel(text, { maxBytes: 100 });
    expect(parts.join("")).toBe(text);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(100);
  });

  it("counts characters when the platform does, and prefers sentence ends", () => {
    const parts = splitForChannel("One sentence here. Another one follows here. And a third.", { maxChars: 30 });
    expect(parts[0]).toBe("One sentence here.");
    expect(parts.join(" ")).toBe("One sentence here. Another one follows here. And a third.");
  });
});

describe("markdownToPlain", () => {
  it("drops markdown syntax and keeps link targets", () => {
    expect(markdownToPlain("# Title\n\n**Bold** and *it* with `code` and [Docs](https://e.com/d)\n\n- one\n- two")).toBe(
      "Title\n\nBold and it with code and Docs (https://e.com/d)\n\n• one\n• two",
    );
    expect(markdownToPlain("```js\nconst a = 1;\n```")).toBe("const a = 1;");
  });
});
