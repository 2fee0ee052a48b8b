import { describe, expect, it } from "vitest";
import { displayFileName, splitFileName } from "./file-name";

describe("displayFileName", () => {
  it("keeps names whose base is at most 18 characters", () => {
    expect(displayFileName("short.png")).toBe("short.png");
    expect(displayFileName("exactly-eighteen-c.docx")).toBe("exactly-eighteen-c.docx");
    expect(displayFileName("没有扩展名")).toBe("没有扩展名");
  });

  it("shows the first 10 characters, an ellipsis and the extension past 18", () => {
    expect(displayFileName("nineteen-characters.pdf")).toBe("nineteen-c….pdf");
    expect(displayFileName("2026年第一季度产品发布会现场照片合集终版.jpg")).toBe("2026年第一季度产….jpg");
    expect(displayFileName("a.very.long.name.with.many.dots.mp4")).toBe("a.very.lon….mp4");
    expect(displayFileName("a-long-name-without-any-extension")).toBe("a-long-nam…");
    // Characters, not UTF-16 units: an emoji is one.
    expect(displayFileName("😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀.png")).toBe("😀😀😀😀😀😀😀😀😀😀….png");
  });

  it("splits at the last dot, and a leading dot is not an extension", () => {
    expect(splitFileName("report.final.docx")).toEqual({ base: "report.final", ext: "docx" });
    expect(splitFileName(".env")).toEqual({ base: ".env", ext: "" });
    expect(splitFileName("trailing.")).toEqual({ base: "trailing.", ext: "" });
  });
});
