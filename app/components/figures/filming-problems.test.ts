import { describe, expect, it } from "vitest";
import type { TFilmingFacts } from "../../../server/digital/digital.schema";
import { describeProblem } from "./filming-problems";

const facts: TFilmingFacts = {
  durationMs: 5_000,
  width: 854,
  height: 480,
  fps: 14.985,
  hasAudio: true,
  faceFound: false,
  greenShare: 0.123,
  keyColor: "#808080",
};

describe("filming problems in words", () => {
  it("puts the measured value beside the limit of the purpose", () => {
    expect(describeProblem("low_resolution", facts, "figure")).toEqual({ key: "filming.problems.low_resolution", values: { value: 480, min: 720 } });
    expect(describeProblem("too_short", facts, "figure").values).toEqual({ value: "5", min: "10" });
    expect(describeProblem("too_short", facts, "greeting").values).toEqual({ value: "5", min: "1" });
    expect(describeProblem("low_frame_rate", facts, "figure").values).toEqual({ value: 15, min: 24 });
    expect(describeProblem("not_green_screen", facts, "figure").values).toEqual({ value: 12, min: 30 });
    expect(describeProblem("too_long", { ...facts, durationMs: 12.5 * 60_000 }, "figure").values).toEqual({ value: "12.5", max: "10" });
    expect(describeProblem("no_face", facts, "figure")).toEqual({ key: "filming.problems.no_face", values: {} });
  });
});
