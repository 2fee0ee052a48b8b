import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import { assertWithdrawalMove, mayMoveWithdrawal } from "./withdrawal-states";
import { WITHDRAWAL_STATES } from "./withdrawals.schema";

const ALLOWED = new Set(["submitted>arrived", "submitted>abnormal"]);

describe("withdrawal states", () => {
  for (const from of WITHDRAWAL_STATES) {
    for (const to of WITHDRAWAL_STATES) {
      const allowed = ALLOWED.has(`${from}>${to}`);
      it(`${from} → ${to} is ${allowed ? "allowed" : "refused"}`, () => {
        expect(mayMoveWithdrawal(from, to)).toBe(allowed);
        if (allowed) expect(() => assertWithdrawalMove(from, to)).not.toThrow();
        else expect(() => assertWithdrawalMove(from, to)).toThrow(AppError);
      });
    }
  }
});
