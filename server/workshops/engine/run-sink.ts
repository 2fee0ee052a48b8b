// Where a workshop turn's reply goes: into its message row, which the run view reads while it
// grows (the text is written at most every FLUSH_MS, and whole at the end). The turn is cancelled
// when the run is stopped (read from the run's row, so a stop served by any web process reaches
// the worker) or runs past its time.
import type { TEnvelope } from "../../errors/map-error";
import type { TTurnSink } from "../../turns/index";
import type { TStoredReply, TTurnRowStore } from "../../turns/turn";
import * as runs from "../runs.repository";

const FLUSH_MS = 250;
const STOP_POLL_MS = 1000;

export type TTurnOutcome =
  | { kind: "finished"; content: string; stopped: boolean }
  | { kind: "censored"; words: string }
  | { kind: "failed"; error: TEnvelope }
  /** The turn ended without a word to the sink: it was cancelled (a stop, the run's time). */
  | { kind: "cancelled" };

export function createRunSink(runId: string, messageId: string, deadline: number) {
  const controller = new AbortController();
  let content = "";
  let flushed = "";
  let resolve!: (o: TTurnOutcome) => void;
  const outcome = new Promise<TTurnOutcome>((r) => (resolve = r));
  const flush = () => {
    if (content === flushed) return;
    flushed = content;
    runs.writeMessageContent(messageId, content).catch(() => undefined);
  };
  const flusher = setInterval(flush, FLUSH_MS);
  const watcher = setInterval(() => {
    if (Date.now() > deadline) return controller.abort(new Error("time"));
    runs
      .readStopRequested(runId)
      .then((stop) => stop && controller.abort(new Error("stopped")))
      .catch(() => undefined);
  }, STOP_POLL_MS);
  const done = (o: TTurnOutcome) => {
    clearInterval(flusher);
    clearInterval(watcher);
    resolve(o);
  };
  const sink: TTurnSink = {
    signal: controller.signal,
    begin: () => undefined,
    delta: (piece) => {
      content += piece.content;
    },
    tool: () => undefined,
    finish: (end) => done({ kind: "finished", content: end.content, stopped: end.stopped }),
    censor: (words) => done({ kind: "censored", words }),
    fail: (error) => done({ kind: "failed", error }),
  };
  return {
    sink,
    /** How the turn ended; a cancelled turn's pipeline returns without telling the sink. */
    outcome: async (ran: Promise<void>) => {
      await ran;
      done({ kind: "cancelled" });
      return outcome;
    },
    cancelled: () => controller.signal.aborted,
  };
}

/**
 * The turn's rows are the message row the engine inserted; the pipeline fills in the reply, and
 * `tell` names the roles told of it (the node's notification scope reads its @mentions).
 */
export function runRowStore(tell: (content: string) => string[]): TTurnRowStore {
  return {
    write: async () => undefined,
    finish: async (id: string, r: TStoredReply) => {
      await runs.finishMessage(id, {
        content: r.content,
        status: r.outcome,
        promptTokens: r.usage.prompt_tokens,
        completionTokens: r.usage.completion_tokens,
        visibleTo: r.outcome === "done" || r.outcome === "stopped" ? tell(r.content) : [],
      });
    },
  };
}
