import { describe, expect, it } from "vitest";
import { MEDIA_JOB_STATES } from "./generation.schema";
import { canMove, JOB_TRANSITIONS, sourcesOf } from "./job-states";

describe("media job states", () => {
  it("allows exactly the table's moves", () => {
    const allowed = new Set(Object.entries(JOB_TRANSITIONS).flatMap(([from, tos]) => tos.map((to) => `${from}>${to}`)));
    for (const from of MEDIA_JOB_STATES) for (const to of MEDIA_JOB_STATES) expect(canMove(from, to), `${from} > ${to}`).toBe(allowed.has(`${from}>${to}`));
  });

  it("never leaves a finished state", () => {
    for (const s of ["done", "failed", "failed_review"] as const) expect(JOB_TRANSITIONS[s]).toEqual([]);
  });

  it("reaches done only from a running state, and a queued job can fail without running (timeout, nothing to run on)", () => {
    expect(sourcesOf("done").sort()).toEqual(["background", "generating"]);
    expect(sourcesOf("failed").sort()).toEqual(["background", "generating", "queued"]);
    expect(canMove("background", "generating")).toBe(false);
  });
});
