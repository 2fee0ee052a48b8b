import { describe, expect, it } from "vitest";
import { safeReturnPath, withChoice } from "./return-path";

describe("the picker's return path", () => {
  it("follows only paths of this site", () => {
    expect(safeReturnPath("/agentDetail?id=7")).toBe("/agentDetail?id=7");
    expect(safeReturnPath("/create_app")).toBe("/create_app");
    for (const bad of [null, "", "agentDetail", "//evil.example/x", "/\\evil.example", "https://evil.example/", "javascript:alert(1)", "/%2F%2Fevil"]) {
      const answer = safeReturnPath(bad);
      if (answer !== null) expect(answer.startsWith("/") && !answer.startsWith("//")).toBe(true);
      else expect(answer).toBeNull();
    }
    expect(safeReturnPath("//evil.example/x")).toBeNull();
    expect(safeReturnPath("https://evil.example/")).toBeNull();
  });

  it("adds the chosen item to the return path's own query", () => {
    expect(withChoice("/create_app?id=3", { id: "m1", url: "/files/media/a/b.png" })).toBe(
      "/create_app?id=3&media_id=m1&media_url=%2Ffiles%2Fmedia%2Fa%2Fb.png",
    );
  });
});
