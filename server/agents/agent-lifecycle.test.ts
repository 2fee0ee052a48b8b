import { describe, expect, it } from "vitest";
import { AGENT_STATES, AGENT_TRANSITIONS, canMoveAgent, moveAgent } from "./agent-lifecycle";

describe("agent lifecycle: every allowed and every forbidden move", () => {
  for (const from of AGENT_STATES) {
    for (const to of AGENT_STATES) {
      const allowed = AGENT_TRANSITIONS[from].includes(to);
      it(`${from} → ${to}: ${allowed ? "allowed" : "refused"}`, () => {
        expect(canMoveAgent(from, to)).toBe(allowed);
        if (allowed) expect(moveAgent(from, to, { reason: "policy" }).state).toBe(to);
        else expect(() => moveAgent(from, to, { reason: "policy" })).toThrow();
      });
    }
  }

  it("a removal needs a reason, and keeps it", () => {
    expect(() => moveAgent("on_shelf", "removed")).toThrow();
    expect(moveAgent("on_shelf", "removed", { reason: " copies another agent " })).toEqual({ state: "removed", reason: "copies another agent" });
  });
});
