// The agent's lifecycle as one table of allowed moves (docs/decisions/0004-agent-versions.md). A
// published version is immutable: editing makes a new draft; an upgrade publishes a new version and
// cannot be undone.
import { AppError } from "../errors/app-error";

export const AGENT_STATES = ["draft", "under_review", "on_shelf", "removed", "published", "published_in_review", "upgraded", "invalid"] as const;
export type TAgentState = (typeof AGENT_STATES)[number];

/**
 * The states whose version is what the agent runs outside its owner's debug chat (apps, bots, API,
 * the market). A published version submitted to the market keeps running while it is reviewed.
 */
export const LIVE_AGENT_STATES = ["published", "published_in_review", "on_shelf", "invalid"] as const satisfies readonly TAgentState[];

export const AGENT_TRANSITIONS: Record<TAgentState, readonly TAgentState[]> = {
  // A draft is submitted for review, or published for its owner's own use (not the market).
  draft: ["under_review", "published"],
  // Reviewers put it on the market's shelf, or remove it with a reason; the owner may withdraw.
  under_review: ["on_shelf", "removed", "draft"],
  // Listed agents can be taken down by an administrator (with a reason), or go invalid when a
  // training set they depend on fails or is paused.
  // A live version is replaced by a newer live version ("upgraded"), which cannot be rolled back.
  on_shelf: ["removed", "invalid", "upgraded"],
  // A published version is submitted to the market as it is, with no new version to invent.
  published: ["published_in_review", "invalid", "upgraded"],
  // It stays live for its owner meanwhile. Approved, it goes on the shelf; refused (with a reason)
  // or withdrawn, it is simply published again: a refused listing never stops the owner's own use.
  published_in_review: ["on_shelf", "published", "invalid", "upgraded"],
  // A removed agent's owner fixes it in a new draft; the removed version itself never returns.
  removed: [],
  upgraded: [],
  // Invalid recovers when its dependency recovers.
  invalid: ["on_shelf", "published", "upgraded"],
};

export function canMoveAgent(from: TAgentState, to: TAgentState) {
  return AGENT_TRANSITIONS[from].includes(to);
}

/** Applies a move or refuses it; removals need a reason. */
export function moveAgent(from: TAgentState, to: TAgentState, opts: { reason?: string } = {}): { state: TAgentState; reason: string | null } {
  if (!canMoveAgent(from, to))
    throw new AppError("invalid_state_transition", {
      data: { from, to },
      params: { from: `$t:common:agent_state.${from}`, to: `$t:common:agent_state.${to}` },
    });
  if (to === "removed" && !opts.reason?.trim())
    throw new AppError("validation_failed", { data: { fields: [{ path: "reason", message: "validation.required" }] } });
  return { state: to, reason: to === "removed" ? opts.reason!.trim() : null };
}
