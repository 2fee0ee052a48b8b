// Saving as the creator works: changes gather into one patch and go to the server a moment after the
// last one, one save at a time, the newest value of each field winning. A failed save keeps its
// changes (under any made since) for the next try, so nothing typed is lost to a dropped connection.
export type TSaveState = "saved" | "pending" | "saving" | "failed";

export type TAutosave<P extends object> = {
  /** Adds changes to the next save and restarts the wait. */
  queue: (patch: Partial<P>) => void;
  /** Saves what waits now (and waits for a save in flight); answers whether everything is saved. */
  flush: () => Promise<boolean>;
  state: () => TSaveState;
  /** Stops the timer (the page went away). */
  dispose: () => void;
};

export function createAutosave<P extends object>(opts: {
  save: (patch: Partial<P>) => Promise<void>;
  delayMs: number;
  onState: (state: TSaveState, error?: unknown) => void;
}): TAutosave<P> {
  let pending: Partial<P> = {};
  let state: TSaveState = "saved";
  let timer: ReturnType<typeof setTimeout> | undefined;

  const hasPending = () => Object.keys(pending).length > 0;
  const set = (next: TSaveState, error?: unknown) => {
    state = next;
    opts.onState(next, error);
  };

  const saveOnce = async (): Promise<boolean> => {
    const patch = pending;
    pending = {};
    set("saving");
    try {
      await opts.save(patch);
    } catch (err) {
      pending = { ...patch, ...pending };
      set("failed", err);
      return false;
    }
    if (hasPending()) set("pending");
    else set("saved");
    return true;
  };

  // Saves run one after another on this chain: a flush asked for while one runs waits its turn.
  let chain: Promise<unknown> = Promise.resolve();
  const flush = (): Promise<boolean> => {
    clearTimeout(timer);
    const run = chain.then(async () => {
      while (hasPending()) if (!(await saveOnce())) return false;
      return state !== "failed";
    });
    chain = run.catch(() => undefined);
    return run;
  };

  return {
    queue(patch) {
      pending = { ...pending, ...patch };
      if (state !== "saving") set("pending");
      clearTimeout(timer);
      timer = setTimeout(() => void flush(), opts.delayMs);
    },
    flush,
    state: () => state,
    dispose: () => clearTimeout(timer),
  };
}
