import { describe, expect, it } from "vitest";
import { isAppError } from "../errors/app-error";
import { canMoveTrainingSet, moveTrainingSet, TRAINING_SET_MOVES, TRAINING_SET_STATES, TRAINING_SET_TRANSITIONS } from "./training-set-lifecycle";

describe("training set lifecycle: every allowed and every forbidden move", () => {
  for (const from of TRAINING_SET_STATES) {
    for (const move of TRAINING_SET_MOVES) {
      const to = TRAINING_SET_TRANSITIONS[from][move];
      it(`${from} --${move}--> ${to ?? "refused"}`, () => {
        expect(canMoveTrainingSet(from, move)).toBe(Boolean(to));
        if (to) expect(moveTrainingSet(from, move)).toBe(to);
        else {
          const err = (() => {
            try {
              moveTrainingSet(from, move);
            } catch (e) {
              return e;
            }
          })();
          expect(isAppError(err) && err.code).toBe("training_set_state_refused");
        }
      });
    }
  }

  it("a disabled set only comes back by enabling, which trains it again", () => {
    expect(Object.entries(TRAINING_SET_TRANSITIONS.disabled)).toEqual([["enable", "training"]]);
  });
});
