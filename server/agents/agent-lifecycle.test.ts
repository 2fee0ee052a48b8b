import { describe, expect, it } from "vitest";
import { AGENT_STATES, AGENT_TRANSITIONS, LIVE_AGENT_STATES, canMoveAgent, moveAgent } from "./agent-lifecycle";

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

  it("submits a published version to the market as it is, and keeps it live for its owner meanwhile", () => {
    expect(moveAgent("published", "published_in_review").state).toBe("published_in_review");
    expect(LIVE_AGENT_STATES).toContain("published_in_review");
    // A submission never takes the owner's own use away: no way from published into plain review.
    expect(canMoveAgent("published", "under_review")).toBe(false);
    // Approved: on the shelf. Refused or withdrawn: published again, never removed nor back to draft.
    expect(moveAgent("published_in_review", "on_shelf").state).toBe("on_shelf");
    expect(moveAgent("published_in_review", "published").state).toBe("published");
    expect(canMoveAgent("published_in_review", "removed")).toBe(false);
    expect(canMoveAgent("published_in_review", "draft")).toBe(false);
  });

  it("a removal needs a reason, and keeps it", () => {
    expect(() => moveAgent("on_shelf", "removed")).toThrow();
    expect(moveAgent("on_shelf", "removed", { reason: " copies another agent " })).toEqual({ state: "removed", reason: "copies another agent" });
  });
});
