// The agent's lifecycle (SPEC 4) as one table of allowed moves (DESIGN 6). A published version is
// immutable: editing makes a new draft; an upgrade publishes a new version and cannot be undone.
import { AppError } from "../errors/app-error";

export const AGENT_STATES = ["draft", "under_review", "on_shelf", "removed", "published", "invalid"] as const;
export type TAgentState = (typeof AGENT_STATES)[number];

export const AGENT_TRANSITIONS: Record<TAgentState, readonly TAgentState[]> = {
  // A draft is submitted for review, or published for its owner's own use (not the market).
  draft: ["under_review", "published"],
  // Reviewers put it on the market's shelf, or remove it with a reason; the owner may withdraw.
  under_review: ["on_shelf", "removed", "draft"],
  // Listed agents can be taken down by an administrator (with a reason), or go invalid when a
  // training set they depend on fails or is paused.
  on_shelf: ["removed", "invalid"],
  published: ["under_review", "invalid"],
  // A removed agent's owner fixes it in a new draft; the removed version itself never returns.
  removed: [],
  // Invalid recovers when its dependency recovers.
  invalid: ["on_shelf", "published"],
};

export function canMoveAgent(from: TAgentState, to: TAgentState) {
  return AGENT_TRANSITIONS[from].includes(to);
}

/** Applies a move or refuses it; removals need a reason. */
export function moveAgent(from: TAgentState, to: TAgentState, opts: { reason?: string } = {}): { state: TAgentState; reason: string | null } {
  if (!canMoveAgent(from, to)) throw new AppError("repeat_action", { data: { from, to } });
  if (to === "removed" && !opts.reason?.trim()) throw new AppError("validation_failed", { data: { fields: [{ path: "reason", message: "validation.required" }] } });
  return { state: to, reason: to === "removed" ? opts.reason!.trim() : null };
}
