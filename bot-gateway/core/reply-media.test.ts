// Which addresses a bot reads from our file store: /files/<key> of a public folder, and the same
// address under PUBLIC_URL; nothing else (another origin, a private folder, a key that climbs out).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../server/env";
import { mediaLink, storedKeyOf } from "./reply-media";

const saved = process.env.PUBLIC_URL;

beforeAll(() => {
  process.env.PUBLIC_URL = "https://zelin.example/";
  resetEnvCache();
});
afterAll(() => {
  if (saved === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = saved;
  resetEnvCache();
});

describe("storedKeyOf", () => {
  it("maps our public files, site-relative or under PUBLIC_URL, to their keys", () => {
    expect(storedKeyOf("/files/media/acc1/abc.png")).toBe("media/acc1/abc.png");
    expect(storedKeyOf("https://zelin.example/files/media/acc1/abc.png")).toBe("media/acc1/abc.png");
    expect(storedKeyOf("/files/images/acc1/x.jpg")).toBe("images/acc1/x.jpg");
  });

  it("refuses other origins, private folders and keys that climb out", () => {
    expect(storedKeyOf("https://elsewhere.example/files/media/acc1/abc.png")).toBeNull();
    expect(storedKeyOf("https://zelin.example.evil/files/media/acc1/abc.png")).toBeNull();
    expect(storedKeyOf("http://127.0.0.1:9/x.png")).toBeNull();
    expect(storedKeyOf("/files/training/acc1/notes.txt")).toBeNull();
    expect(storedKeyOf("/files/media/../training/acc1/notes.txt")).toBeNull();
    expect(storedKeyOf("/api/files/media/acc1/abc.png")).toBeNull();
  });
});

describe("mediaLink", () => {
  it("numbers the item as in the answer and marks videos", () => {
    expect(mediaLink({ kind: "image", url: "/files/media/a.png", mime: "image/png", posterUrl: null }, 0)).toBe("[🖼 1](/files/media/a.png)");
    expect(mediaLink({ kind: "video", url: "/files/media/a.mp4", mime: "video/mp4", posterUrl: null }, 2)).toBe("[▶ 3](/files/media/a.mp4)");
  });
});
