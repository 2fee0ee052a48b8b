import { describe, expect, it } from "vitest";
import { excerptLengthFor } from "./lipsync-clip";

describe("excerptLengthFor", () => {
  it("sends the whole loop when it is short enough, its length unknown, or the speech too long for an excerpt", () => {
    expect(excerptLengthFor(8_000, 3_000)).toBeNull();
    expect(excerptLengthFor(10_000, 3_000)).toBeNull();
    expect(excerptLengthFor(null, 3_000)).toBeNull();
    expect(excerptLengthFor(240_000, 10_001)).toBeNull();
  });

  it("cuts just longer than the speech, in tenths of a second, within 2 to 10 seconds", () => {
    expect(excerptLengthFor(240_000, 3_200)).toBe(3_700);
    expect(excerptLengthFor(240_000, 3_201)).toBe(3_800);
    expect(excerptLengthFor(240_000, 500)).toBe(2_000);
    expect(excerptLengthFor(240_000, 9_800)).toBe(10_000);
    expect(excerptLengthFor(240_000, 10_000)).toBe(10_000);
  });
});
