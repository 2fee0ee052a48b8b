// A training set's states (training, done, failed, stopped or disabled) as one table of
// what each move does from each state. "unavailable" is not a state here: it is read from the
// owner's paused storage service and checked beside this table (training-sets.service.ts).
import { AppError } from "../errors/app-error";

export const TRAINING_SET_STATES = ["training", "done", "failed", "stopped", "disabled"] as const;
export type TTrainingSetState = (typeof TRAINING_SET_STATES)[number];

/**
 * The moves: `edit` (content changed: Q&A items, documents), the owner's `stop`, `disable`,
 * `enable` and `retrain`, and the indexing job's `finish_done` / `finish_failed`.
 */
export const TRAINING_SET_MOVES = ["edit", "stop", "disable", "enable", "retrain", "finish_done", "finish_failed"] as const;
export type TTrainingSetMove = (typeof TRAINING_SET_MOVES)[number];

export const TRAINING_SET_TRANSITIONS: Record<TTrainingSetState, Partial<Record<TTrainingSetMove, TTrainingSetState>>> = {
  // A newer edit supersedes the running job; stopping keeps the set out of retrieval until it is
  // trained again; the job ends in done or failed.
  training: { edit: "training", stop: "stopped", disable: "disabled", finish_done: "done", finish_failed: "failed" },
  done: { edit: "training", retrain: "training", disable: "disabled" },
  failed: { edit: "training", retrain: "training", disable: "disabled" },
  stopped: { edit: "training", retrain: "training", disable: "disabled" },
  // A disabled set is read-only until enabled; enabling trains it again from what it holds.
  disabled: { enable: "training" },
};

export function canMoveTrainingSet(from: TTrainingSetState, move: TTrainingSetMove) {
  return TRAINING_SET_TRANSITIONS[from][move] !== undefined;
}

/** The state a move leads to, or the refusal that names the state and the move. */
export function moveTrainingSet(from: TTrainingSetState, move: TTrainingSetMove): TTrainingSetState {
  const to = TRAINING_SET_TRANSITIONS[from][move];
  if (!to)
    throw new AppError("training_set_state_refused", {
      params: { state: `$t:train:state.${from}`, action: `$t:train:move.${move}` },
      data: { state: from, move },
    });
  return to;
}
