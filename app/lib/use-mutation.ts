// One way for a component to run a call the server may refuse: `busy` while it runs (the button's
// spinner and disabled state), the refusal's localized sentence shown in antd's message bar or kept
// in `error` for the form to show, and never an unhandled rejection.
import { App } from "antd";
import { useCallback, useRef, useState } from "react";
import { errorText } from "./api-client";

export type TMutationOptions<A extends unknown[]> = {
  /** Sees a failure first (to put field errors on their fields, say); answers true when it has said all there is to say. */
  onError?: (err: unknown, ...args: A) => boolean | void;
  /** "toast" (the default) shows the sentence in the message bar; "inline" only keeps it in `error`. */
  report?: "toast" | "inline";
  /** The sentence for a failure that is not a refusal (a lost connection); the error's own text otherwise. */
  fallback?: string;
};

export type TMutationSinks = { start: () => void; finish: () => void; fail: (text: string) => void };

/** Runs `fn` between start and finish; a failure goes to onError, then (unless it took it) to fail. Answers undefined on failure. */
export async function runMutation<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
  args: A,
  opts: TMutationOptions<A>,
  sinks: TMutationSinks,
): Promise<R | undefined> {
  sinks.start();
  try {
    return await fn(...args);
  } catch (err) {
    if (!opts.onError?.(err, ...args)) sinks.fail(errorText(err, opts.fallback));
    return undefined;
  } finally {
    sinks.finish();
  }
}

/**
 * `run(...args)` calls `fn` and answers its result, or undefined when it failed (the failure already
 * reported). `busyKey` is the first argument of the call in flight, for lists that spin one row.
 */
export function useMutation<A extends unknown[], R>(fn: (...args: A) => Promise<R>, opts: TMutationOptions<A> = {}) {
  const { message } = App.useApp();
  const [running, setRunning] = useState(0);
  const [busyKey, setBusyKey] = useState<A[0] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // `run` stays the same function across renders but always calls the latest `fn` and options.
  const latest = useRef({ fn, opts, message });
  latest.current = { fn, opts, message };

  const run = useCallback((...args: A) => {
    const current = latest.current;
    return runMutation(current.fn, args, current.opts, {
      start: () => {
        setRunning((n) => n + 1);
        // Wrapped, because a first argument that is itself a function must be kept, not called.
        setBusyKey(() => args[0] ?? null);
        setError(null);
      },
      finish: () => {
        setRunning((n) => n - 1);
        setBusyKey(null);
      },
      fail: (text) => {
        setError(text);
        if (current.opts.report !== "inline") void current.message.error(text);
      },
    });
  }, []);
  const clearError = useCallback(() => setError(null), []);

  return { run, busy: running > 0, busyKey, error, setError, clearError };
}
