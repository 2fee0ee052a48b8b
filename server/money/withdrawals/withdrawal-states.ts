// The withdrawal state machine, as a table: a withdrawal is submitted, then an
// administrator marks it arrived (paid out) or abnormal (coins returned). Nothing leaves those.
import { AppError } from "../../errors/app-error";
import type { TWithdrawalState } from "./withdrawals.schema";

export const WITHDRAWAL_TRANSITIONS: Record<TWithdrawalState, readonly TWithdrawalState[]> = {
  submitted: ["arrived", "abnormal"],
  arrived: [],
  abnormal: [],
};

export function mayMoveWithdrawal(from: TWithdrawalState, to: TWithdrawalState) {
  return WITHDRAWAL_TRANSITIONS[from].includes(to);
}

/** withdrawal_state_refused for any move the table does not allow. */
export function assertWithdrawalMove(from: TWithdrawalState, to: TWithdrawalState) {
  if (!mayMoveWithdrawal(from, to)) throw new AppError("withdrawal_state_refused");
}
