// The chunks of a streaming chat completion, parsed from the upstream body's server-sent events as
// each read arrives. Two ways to take them: pulled one at a time (async iteration, for the
// gateway's first chunk and for any consumer), or pushed (`pump`) to a handler called in the very
// read that carried them. A relay pumps: a chunk then costs no promise, generator step or queue on
// its way from the upstream's socket to the client's, which at hundreds of streams was most of the
// web's work per chunk after the system calls themselves.
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { TChatChunk } from "./openai-compatible-client";

/** What the source needs from its request: how to name failures, and when its timer and wiring end. */
export type TSourceHooks = {
  /** A failure of the body (reset, abort, timeout) as the caller should see it. */
  classify(err: unknown): Error;
  /** A `data:` that is not JSON. */
  notJson(): Error;
  /** An `{error}` chunk instead of a completion chunk. */
  errorChunk(chunk: TChatChunk): Error;
  /** The body ended before `data: [DONE]`. */
  cutShort(): Error;
  /** The first chunk came: no more first-byte timeout. */
  clearTimer(): void;
  /** The stream is over, however it ended. */
  dispose(): void;
};

/** Called with each chunk in the read it came in; false stops the stream (the request is cancelled). */
export type TChunkHandler = (chunk: TChatChunk) => boolean | void;

export type TChunkSource = AsyncIterableIterator<TChatChunk> & {
  return(): Promise<IteratorResult<TChatChunk>>;
  /**
   * Hands every chunk (those already pulled and waiting first) to `onChunk` as it is parsed.
   * Resolves at `[DONE]` or when the handler stopped it; rejects with the stream's failure or the
   * handler's own throw.
   */
  pump(onChunk: TChunkHandler): Promise<void>;
};

/** While pulled, the body pauses once this many chunks wait, and resumes below a quarter of it. */
const PULL_QUEUE_MAX = 16;

export function readChunks(body: Readable, hooks: TSourceHooks): TChunkSource {
  // StringDecoder, not TextDecoder: a streaming TextDecoder goes through an ICU converter on every
  // read, a measurable share of a relayed chunk's cost; both keep a character split across reads.
  const decoder = new StringDecoder("utf8");
  let buffer = "";
  let first = true;
  const queue: TChatChunk[] = [];
  // done: [DONE] came; over: nothing more will be handed on (done, failed or stopped).
  let done = false;
  let over = false;
  let failure: Error | null = null;
  let listening = false;
  let handler: TChunkHandler | null = null;
  let wake: (() => void) | null = null;
  let settlePump: { resolve: () => void; reject: (err: unknown) => void } | null = null;

  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
    if (!over || !settlePump) return;
    const s = settlePump;
    settlePump = null;
    if (failure) s.reject(failure);
    else s.resolve();
  };
  /** Ends the stream. After [DONE] the rest is read so the connection goes back to the pool; otherwise it is dropped, so nothing goes on generating (and billing) for nobody. */
  const finish = (err: Error | null) => {
    if (over) return;
    over = true;
    failure = err;
    if (done) body.resume();
    else body.destroy();
    hooks.dispose();
    notify();
  };
  const hand = (chunk: TChatChunk) => {
    if (handler) {
      if (handler(chunk) === false) finish(null);
      return;
    }
    queue.push(chunk);
    if (queue.length >= PULL_QUEUE_MAX) body.pause();
    notify();
  };
  const parse = (read: Buffer) => {
    let text = decoder.write(read);
    if (first && text) {
      // As TextDecoder did: a byte-order mark before the first event is not part of it.
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    buffer += text;
    let newline: number;
    while (!over && (newline = buffer.indexOf("\n")) >= 0) {
      let line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      // SSE comments (": keep-alive") and event/id fields carry nothing for chat completions.
      if (!line.startsWith("data:")) continue;
      const data = line.slice(5).trim();
      if (data === "[DONE]") {
        done = true;
        return finish(null);
      }
      let chunk: TChatChunk;
      try {
        chunk = JSON.parse(data) as TChatChunk;
      } catch {
        return finish(hooks.notJson());
      }
      if (chunk && typeof chunk === "object" && "error" in chunk && !chunk.choices) return finish(hooks.errorChunk(chunk));
      hooks.clearTimer();
      hand(chunk);
    }
  };
  const listen = () => {
    if (listening) return;
    listening = true;
    body.on("data", (read: Buffer) => {
      if (over) return;
      try {
        parse(read);
      } catch (err) {
        // The handler threw: the stream ends with its error.
        finish(err instanceof Error ? err : new Error(String(err)));
      }
    });
    body.on("end", () => finish(done ? null : hooks.cutShort()));
    body.on("error", (err) => finish(hooks.classify(err)));
    body.on("close", () => {
      if (!over) finish(hooks.classify(Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" })));
    });
  };
  const ended = { done: true, value: undefined } as IteratorReturnResult<undefined>;
  // A failure is thrown once, to whoever takes the stream next; after it the stream is just over.
  const takeFailure = () => {
    const err = failure;
    failure = null;
    return err;
  };

  const source: TChunkSource = {
    [Symbol.asyncIterator]: () => source,
    async next() {
      if (handler && !over) throw new Error("chunk source: pulled while pumped");
      listen();
      for (;;) {
        const chunk = queue.shift();
        if (chunk) {
          if (queue.length < PULL_QUEUE_MAX / 4 && body.isPaused() && !over) body.resume();
          return { done: false, value: chunk };
        }
        if (over) {
          const err = takeFailure();
          if (err) throw err;
          return ended;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return() {
      queue.length = 0;
      finish(null);
      takeFailure();
      return ended;
    },
    async throw(err: unknown) {
      queue.length = 0;
      finish(null);
      takeFailure();
      throw err;
    },
    pump(onChunk) {
      if (handler) return Promise.reject(new Error("chunk source: pumped twice"));
      handler = onChunk;
      try {
        // What was parsed ahead of the pump goes first, in order (all of it may have come, [DONE] too).
        for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
          if (onChunk(chunk) !== false) continue;
          finish(null);
          break;
        }
      } catch (err) {
        finish(err instanceof Error ? err : new Error(String(err)));
      }
      queue.length = 0;
      if (over) {
        const err = takeFailure();
        return err ? Promise.reject(err) : Promise.resolve();
      }
      if (body.isPaused()) body.resume();
      listen();
      return new Promise<void>((resolve, reject) => {
        settlePump = { resolve, reject: (err) => reject(takeFailure() ?? err) };
      });
    },
  };
  return source;
}
