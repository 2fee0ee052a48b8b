import { describe, expect, it } from "vitest";
import { APP_MOVES, APP_STATES, APP_TRANSITIONS, canMoveApp, moveApp, type TAppMove } from "./app-lifecycle";

describe("app lifecycle: every move from every state", () => {
  for (const move of Object.keys(APP_MOVES) as TAppMove[]) {
    for (const from of APP_STATES) {
      const allowed = (APP_MOVES[move].from as readonly string[]).includes(from);
      it(`${move} from ${from}: ${allowed ? `to ${APP_MOVES[move].to}` : "refused"}`, () => {
        expect(canMoveApp(from, move)).toBe(allowed);
        if (allowed) expect(moveApp(from, move, { reason: "copies another app" }).state).toBe(APP_MOVES[move].to);
        else expect(() => moveApp(from, move, { reason: "copies another app" })).toThrow();
      });
    }
  }

  it("the transition table allows exactly these moves", () => {
    expect(APP_TRANSITIONS).toEqual({
      under_review: ["on_shelf", "removed"],
      on_shelf: ["under_review", "off_shelf", "removed"],
      off_shelf: ["under_review"],
      removed: ["under_review"],
    });
  });

  it("a state pair outside the table has no move", () => {
    for (const from of APP_STATES)
      for (const to of APP_STATES) {
        const viaMove = Object.values(APP_MOVES).some((m) => (m.from as readonly string[]).includes(from) && m.to === to);
        expect(APP_TRANSITIONS[from].includes(to)).toBe(viaMove);
      }
  });

  it("a removal needs a reason and keeps it trimmed; repeating a move answers repeat_action", () => {
    expect(() => moveApp("on_shelf", "remove")).toThrow();
    expect(moveApp("on_shelf", "remove", { reason: " copies another app " })).toEqual({ state: "removed", reason: "copies another app" });
    expect(() => moveApp("off_shelf", "take_down")).toThrow(expect.objectContaining({ code: "repeat_action" }));
    expect(() => moveApp("removed", "approve")).toThrow(expect.objectContaining({ code: "app_state_refused" }));
  });
});
