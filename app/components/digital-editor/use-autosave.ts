// The autosave (autosave.ts) for a component: its state to show, and the leave guard while changes
// wait ("unsaved changes, confirm leaving").
import { useEffect, useRef, useState } from "react";
import { errorText } from "../../lib/api-client";
import { useLeaveGuard } from "../agent-editor/use-leave-guard";
import { createAutosave, type TAutosave, type TSaveState } from "./autosave";

export const AUTOSAVE_DELAY_MS = 800;

export function useAutosave<P extends object>(save: (patch: Partial<P>) => Promise<void>, onSaved?: () => void) {
  const [state, setState] = useState<TSaveState>("saved");
  const [error, setError] = useState<string | null>(null);
  const latest = useRef({ save, onSaved });
  latest.current = { save, onSaved };
  const ref = useRef<TAutosave<P> | null>(null);
  ref.current ??= createAutosave<P>({
    delayMs: AUTOSAVE_DELAY_MS,
    save: (patch) => latest.current.save(patch),
    onState: (next, err) => {
      setState(next);
      setError(err ? errorText(err) : null);
      if (next === "saved") latest.current.onSaved?.();
    },
  });
  const autosave = ref.current;
  useEffect(() => () => autosave.dispose(), [autosave]);
  useLeaveGuard(state !== "saved");
  return { queue: autosave.queue, flush: autosave.flush, state, error };
}
