// The run page's state: the run shown (its status and messages, growing as the events arrive),
// starting one from a topic, the person's words when it is their turn, stopping, and reopening an
// earlier run. A broken stream is read again; what was shown stays until the new read replaces it.
import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../../lib/api-client";
import type { TRunMessageView } from "../../../server/workshops/workshops.schema";
import { followRun, mergeMessage, postRunMessage, startRun, stopRun, type TRunHead, type TRunMode } from "./run-api";

export type TRunState = { head: TRunHead | null; messages: TRunMessageView[] };
type TRefusal = { text: string; status: number | null };

const RETRY_MS = 1500;
const RETRIES = 5;

export function useWorkshopRun(mode: TRunMode, openRunId: string | null, onOpened: (runId: string | null) => void) {
  const [runId, setRunId] = useState<string | null>(openRunId);
  const [state, setState] = useState<TRunState>({ head: null, messages: [] });
  const [busy, setBusy] = useState<"start" | "send" | "stop" | null>(null);
  const [refusal, setRefusal] = useState<TRefusal | null>(null);
  const modeRef = useRef(mode);
  modeRef.current = mode;

  useEffect(() => {
    setState({ head: null, messages: [] });
    if (!runId) return;
    const controller = new AbortController();
    void follow(modeRef.current, runId, controller.signal, setState, setRefusal);
    return () => controller.abort();
  }, [runId]);

  const open = useCallback(
    (id: string | null) => {
      setRefusal(null);
      setRunId(id);
      onOpened(id);
    },
    [onOpened],
  );

  /** Runs a call of the page; a refusal is kept to show, with its platform code. */
  const attempt = async <T>(what: "start" | "send" | "stop", call: () => Promise<T>): Promise<T | undefined> => {
    setBusy(what);
    setRefusal(null);
    try {
      return await call();
    } catch (err) {
      setRefusal({ text: errorText(err), status: (err as { status?: number }).status ?? null });
      return undefined;
    } finally {
      setBusy(null);
    }
  };

  const start = async (topic: string) => {
    const started = await attempt("start", () => startRun(modeRef.current, topic));
    if (started) open(started.id);
    return Boolean(started);
  };
  const send = async (content: string) => {
    if (!runId) return false;
    const view = await attempt("send", () => postRunMessage(modeRef.current, runId, content));
    if (view) setState(({ messages }) => ({ head: headOf(view), messages: view.messages.reduce(mergeMessage, messages) }));
    return Boolean(view);
  };
  const stop = async () => {
    if (!runId) return;
    const view = await attempt("stop", () => stopRun(modeRef.current, runId));
    if (view) setState(({ messages }) => ({ head: headOf(view), messages: view.messages.reduce(mergeMessage, messages) }));
  };

  return { runId, state, busy, refusal, open, start, send, stop, clearRefusal: () => setRefusal(null) };
}

const headOf = ({ messages: _m, ...head }: TRunHead & { messages: unknown }): TRunHead => head;

/** Reads the run's events into the state, again after a break, until it ends or the page moves on. */
async function follow(
  mode: TRunMode,
  runId: string,
  signal: AbortSignal,
  setState: (update: (s: TRunState) => TRunState) => void,
  setRefusal: (r: TRefusal | null) => void,
) {
  for (let attempt = 0; attempt < RETRIES && !signal.aborted; attempt++) {
    try {
      const closed = await followRun(
        mode,
        runId,
        {
          onStatus: (head) => setState((s) => ({ ...s, head })),
          onMessage: (message) => setState((s) => ({ ...s, messages: mergeMessage(s.messages, message) })),
        },
        signal,
      );
      if (closed) return;
      attempt = -1;
    } catch (err) {
      if (signal.aborted) return;
      const status = (err as { status?: number }).status;
      // A refusal (not found, not signed in) does not change by asking again.
      if (typeof status === "number") return setRefusal({ text: errorText(err), status });
    }
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}
