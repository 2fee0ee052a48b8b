// The chat pages' stream protocol as server-sent events: `message` (choices[0].message with content
// or reasoning_content), `function` (name, type, params), `censor`, `error` and `close` (retrieve
// list, audio). The debug and app chats take a turn through startSseSink; the database set's query
// test speaks the same protocol through startSse. Each event is flushed in the turn of the event loop it is made in; proxies are
// told not to buffer and the compression middleware skips text/event-stream.
import type { Response } from "express";
import { setEventStreamHeaders } from "../../http/event-stream";
import type { TTurnSink } from "../sink";

export type TFunctionEvent = { name: string; type: string; params: unknown };
export type TCloseEvent = { retrieve: unknown[]; audio?: string | null; [k: string]: unknown };

export type TSseWriter = {
  message(delta: { content?: string; reasoning_content?: string }): void;
  fn(event: TFunctionEvent): void;
  censor(censorMsg: string): void;
  error(error: { status: number; description: string }): void;
  close(event: TCloseEvent): void;
  /** Fields put first in every later message, function, censor and close event (the ids of a turn). */
  setMeta(meta: Record<string, unknown>): void;
  /** Aborted when the client goes away before the stream closes: pass it to the upstream call. */
  readonly signal: AbortSignal;
  readonly closed: boolean;
};

const KEEPALIVE_MS = 15_000;

export function startSse(res: Response): TSseWriter {
  const controller = new AbortController();
  let finished = false;
  setEventStreamHeaders(res);

  const keepalive = setInterval(() => !finished && res.write(": keepalive\n\n"), KEEPALIVE_MS);
  keepalive.unref();
  const finish = () => {
    finished = true;
    clearInterval(keepalive);
  };
  res.on("close", () => {
    if (!finished) controller.abort(new Error("client went away"));
    finish();
  });

  let meta: Record<string, unknown> = {};
  // A message event is the meta, then the delta: the meta's part serialized once per turn, not per
  // chunk (the same bytes as JSON.stringify({ ...meta, choices: [{ message: delta }] })).
  let messageHead = `{"choices":[{"message":`;
  // Events made in the same turn of the event loop (the upstream's chunks that came in one read)
  // leave in one write: under many streams a system call per event is the relay's largest cost.
  // Kept as one string and written on the next tick (cheaper than corking the socket).
  let pending = "";
  const format = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  const flush = () => {
    if (!pending) return;
    const text = pending;
    pending = "";
    if (!finished && !res.writableEnded) res.write(text);
  };
  const sendText = (text: string) => {
    if (finished || res.writableEnded) return;
    if (!pending) process.nextTick(flush);
    pending += text;
  };
  const send = (event: string, data: unknown) => sendText(format(event, data));
  const end = (event: string, data: unknown) => {
    if (finished || res.writableEnded) return;
    const text = pending + format(event, data);
    pending = "";
    finish();
    res.end(text);
  };

  return {
    message: (delta) => sendText(`event: message\ndata: ${messageHead}${JSON.stringify(delta)}}]}\n\n`),
    fn: (event) => send("function", { ...meta, ...event }),
    censor: (censorMsg) => end("censor", { ...meta, censor_msg: censorMsg }),
    error: (error) => end("error", error),
    close: (event) => end("close", { ...meta, ...event }),
    setMeta: (next) => {
      meta = { ...next };
      const head = JSON.stringify(meta);
      messageHead = head === "{}" ? `{"choices":[{"message":` : `${head.slice(0, -1)},"choices":[{"message":`;
    },
    get signal() {
      return controller.signal;
    },
    get closed() {
      return finished;
    },
  };
}

/**
 * Speaks a finished reply and answers the URL of its audio, or null when there is none (it never
 * throws: the reply's text is already with the reader). `signal` aborts when the reader goes away.
 */
export type TReplySpeaker = (reply: { messageId: string; content: string; signal: AbortSignal }) => Promise<string | null>;

/**
 * A turn's sink on the chat protocol: the ids go first in every later event. With `speakReply`
 * (an app that reads its replies aloud), `close` waits for the finished reply's audio and carries
 * its URL; a stopped reply, or one whose reader left, is not spoken.
 */
export function startSseSink(res: Response, opts: { speakReply?: TReplySpeaker } = {}): TTurnSink {
  const sse = startSse(res);
  let messageId = "";
  return {
    get signal() {
      return sse.signal;
    },
    begin({ messageId: id, dialogueId, showsReasoning }) {
      messageId = id;
      sse.setMeta({ id, dialogue_id: dialogueId });
      sse.message(showsReasoning ? { content: "", reasoning_content: "" } : { content: "" });
    },
    delta: ({ content, reasoning }) => sse.message(reasoning ? { content, reasoning_content: reasoning } : { content }),
    tool: (step) => sse.fn(step),
    finish: ({ userMessageId, content, passages, usage, stopped, media }) => {
      // Generated pictures and videos ride on close as `media`, and the pictures' addresses as `image`.
      const made = media?.length ? { media, image: media.filter((m) => m.kind === "image").map((m) => m.url) } : {};
      const close = (audio: string | null) => sse.close({ user_message_id: userMessageId, retrieve: passages, audio, usage, ...made });
      if (!opts.speakReply || stopped || !content || media?.length || sse.signal.aborted) return close(null);
      void opts.speakReply({ messageId, content, signal: sse.signal }).then(close, () => close(null));
    },
    censor: (words) => sse.censor(words),
    fail: (envelope) => sse.error(envelope),
  };
}

/** Reads an SSE body into events (for tests and server-side consumers). */
export type TSseEvent = { event: string; data: unknown; at: number };

async function* chunksOf(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>) {
  if (!("getReader" in body)) return yield* body;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

export async function* readSseEvents(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<TSseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of chunksOf(body)) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (block.startsWith(":")) continue;
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = /^data: (.*)$/m.exec(block)?.[1];
      yield { event, data: data === undefined ? null : JSON.parse(data), at: Date.now() };
    }
  }
}
