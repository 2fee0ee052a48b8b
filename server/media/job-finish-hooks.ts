// What other areas do when a job of theirs ends: a figure's avatar training makes the figure
// trained, a voice clone makes the voice ready, a render's lip-sync starts its composite. The media
// pipeline knows nothing of figures or renders; their services register here when their process
// starts (the worker's wiring), and a job's ending runs them inside its own transaction, so the
// job's final state and what depends on it change together or not at all.
import type { TMediaJobKind, TMediaJobState } from "./generation.schema";
import type { TTx } from "../db/transaction";

export type TEndedJob = {
  id: string;
  kind: TMediaJobKind;
  ownerAccountId: string;
  state: Extract<TMediaJobState, "done" | "failed" | "failed_review">;
  /** The checked request the job was made with (its own area's fields included). */
  params: unknown;
  /** Stored results: [{fileKey, mime, size, width, height, durationMs, mediaItemId}]. */
  outputs: unknown;
  /** What a training made at its provider (an avatar's id, a voice's id), when it made one. */
  result: Record<string, string> | null;
  errorCode: string | null;
};

export type TJobEndHook = (job: TEndedJob, tx: TTx) => Promise<void>;

const hooks = new Map<TMediaJobKind, TJobEndHook[]>();

/** Registers `hook` for jobs of `kinds` (idempotent for the same function). */
export function onMediaJobEnded(kinds: readonly TMediaJobKind[], hook: TJobEndHook) {
  for (const kind of kinds) {
    const list = hooks.get(kind) ?? [];
    if (!list.includes(hook)) list.push(hook);
    hooks.set(kind, list);
  }
}

/** Runs the hooks of the job's kind, in the transaction that ended it. */
export async function runJobEndHooks(job: TEndedJob, tx: TTx) {
  for (const hook of hooks.get(job.kind) ?? []) await hook(job, tx);
}

/** Forgets every hook (tests). */
export function clearJobEndHooks() {
  hooks.clear();
}
