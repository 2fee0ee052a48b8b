// The media job's state machine, one table for every kind. A move not in the table is a bug or a
// race lost (a callback and a poll finishing the same job): the repository applies moves with the
// expected state in its WHERE clause, so only one of two racing writers wins.
import type { TMediaJobState } from "./generation.schema";

export const JOB_TRANSITIONS: Record<TMediaJobState, readonly TMediaJobState[]> = {
  // Waiting for its turn in the fair queue; the user may leave (background) before it starts.
  queued: ["generating", "background", "failed"],
  generating: ["background", "done", "failed", "failed_review"],
  // Still generating, with nobody watching.
  background: ["done", "failed", "failed_review"],
  done: [],
  failed: [],
  failed_review: [],
};

export function canMove(from: TMediaJobState, to: TMediaJobState) {
  return JOB_TRANSITIONS[from].includes(to);
}

/** The states a move to `to` may come from. */
export function sourcesOf(to: TMediaJobState): TMediaJobState[] {
  return (Object.keys(JOB_TRANSITIONS) as TMediaJobState[]).filter((from) => canMove(from, to));
}

/** Running at a provider (or about to be): what counts against an account's concurrency. */
export const RUNNING_STATES: readonly TMediaJobState[] = ["generating", "background"];
