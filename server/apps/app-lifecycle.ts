// The app's lifecycle as one table of allowed moves, with a test for each. Each move is
// made by someone: the owner submits, takes down, puts back or edits a listed app; administrators
// approve or remove with a reason. Only on_shelf apps are served to anyone but their owner.
import { AppError } from "../errors/app-error";
import { APP_STATES, type TAppState } from "./apps.schema";

export { APP_STATES, type TAppState };

export const APP_MOVES = {
  /** The owner resubmits a removed app after fixing it. */
  submit: { from: ["removed"], to: "under_review", by: "owner" },
  /** Saving changes to a listed app sends it back to review. */
  edit_listed: { from: ["on_shelf"], to: "under_review", by: "owner" },
  take_down: { from: ["on_shelf"], to: "off_shelf", by: "owner" },
  put_back: { from: ["off_shelf"], to: "under_review", by: "owner" },
  approve: { from: ["under_review"], to: "on_shelf", by: "admin" },
  remove: { from: ["under_review", "on_shelf"], to: "removed", by: "admin" },
} as const satisfies Record<string, { from: readonly TAppState[]; to: TAppState; by: "owner" | "admin" }>;
export type TAppMove = keyof typeof APP_MOVES;

/** The table of allowed state changes, read off the moves. */
export const APP_TRANSITIONS: Record<TAppState, readonly TAppState[]> = Object.fromEntries(
  APP_STATES.map((s) => [
    s,
    [
      ...new Set(
        Object.values(APP_MOVES)
          .filter((m) => (m.from as readonly string[]).includes(s))
          .map((m) => m.to),
      ),
    ],
  ]),
) as unknown as Record<TAppState, readonly TAppState[]>;

export function canMoveApp(from: TAppState, move: TAppMove) {
  return (APP_MOVES[move].from as readonly TAppState[]).includes(from);
}

/** Applies a move or refuses it; a removal needs a reason, which the owner sees. */
export function moveApp(from: TAppState, move: TAppMove, opts: { reason?: string } = {}): { state: TAppState; reason: string | null } {
  const to = APP_MOVES[move].to;
  if (!canMoveApp(from, move)) {
    if (from === to) throw new AppError("repeat_action");
    throw new AppError("app_state_refused", { data: { from, to }, params: { from: `$t:apps:state.${from}`, to: `$t:apps:state.${to}` } });
  }
  if (to === "removed" && !opts.reason?.trim())
    throw new AppError("validation_failed", { data: { fields: [{ path: "reason", message: "validation.reject_reason" }] } });
  return { state: to, reason: to === "removed" ? opts.reason!.trim() : null };
}
