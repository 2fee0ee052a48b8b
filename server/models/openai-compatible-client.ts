// The one HTTP client of every upstream (DESIGN 7): OpenAI chat completions over fetch, JSON or
// server-sent events. It classifies failures so the gateway can decide between the next channel,
// disabling a banned key, or giving up; it knows nothing of channels or the database.

import type { Readable } from "node:stream";
import { request, type Dispatcher } from "undici";
import { getGuardedDispatcher } from "./guarded-dispatcher";
import { getUpstreamDispatcher } from "./upstream-dispatcher";

/** guarded: connect only to public addresses (an account's own channel, DESIGN 7's SSRF guard). */
export type TUpstream = { baseUrl: string; apiKey: string; guarded?: boolean };
export type TChatChunk = { choices?: Array<{ index?: number; delta?: Record<string, unknown>; finish_reason?: string | null }>; [extra: string]: unknown };
export type TChatCompletion = { choices?: unknown[]; usage?: unknown; [extra: string]: unknown };

/**
 * connect: no answer (refused, reset, DNS); timeout: no headers or first chunk in time; http: an
 * error status; protocol: a 200 that is not what OpenAI sends; aborted: the caller went away.
 */
export type TUpstreamFailureKind = "connect" | "timeout" | "http" | "protocol" | "aborted";

const BAN_PATTERN = /invalid_api_key|account_deactivated|deactivated|banned|suspended|revoked|invalid api key|incorrect api key/i;

export class UpstreamError extends Error {
  constructor(
    readonly kind: TUpstreamFailureKind,
    message: string,
    readonly status: number | null = null,
    readonly upstreamCode: string | null = null,
    opts: { cause?: unknown } = {},
  ) {
    super(message, opts);
    this.name = "UpstreamError";
  }

  /** Worth trying another channel: the fault is the channel's, not the request's. */
  get retryable() {
    if (this.kind === "connect" || this.kind === "timeout" || this.kind === "protocol") return true;
    return this.kind === "http" && this.status !== null && (this.status === 429 || this.status >= 500);
  }

  /** The provider says the key itself is dead: retrying it would only fail again. */
  get keyBanned() {
    if (this.kind !== "http") return false;
    if (this.status === 401) return true;
    return this.status === 403 && BAN_PATTERN.test(`${this.upstreamCode ?? ""} ${this.message}`);
  }
}

export type TRequestOptions = { signal?: AbortSignal; connectTimeoutMs: number };

/** A non-streaming chat completion: the upstream's JSON as it came. */
export async function postChatCompletion(upstream: TUpstream, body: Record<string, unknown>, opts: TRequestOptions): Promise<TChatCompletion> {
  const call = startCall(opts);
  try {
    const res = await send(upstream, { ...body, stream: false }, call);
    // The timeout covers connecting and the first byte; generating a long answer may take longer.
    call.clearTimer();
    const text = await res.body.text().catch((err) => {
      throw call.classify(err);
    });
    try {
      return JSON.parse(text) as TChatCompletion;
    } catch {
      throw new UpstreamError("protocol", "the upstream answered with something that is not JSON", res.statusCode);
    }
  } finally {
    call.dispose();
  }
}

export type TEmbeddingsResponse = { data?: Array<{ index?: number; embedding?: unknown }>; usage?: unknown };

/** OpenAI's POST /embeddings: one vector per input, in input order. */
export async function postEmbeddings(upstream: TUpstream, body: { model: string; input: string[] }, opts: TRequestOptions): Promise<number[][]> {
  const call = startCall(opts);
  try {
    const res = await send(upstream, body, call, "/embeddings");
    call.clearTimer();
    const text = await res.body.text().catch((err) => {
      throw call.classify(err);
    });
    let parsed: TEmbeddingsResponse;
    try {
      parsed = JSON.parse(text) as TEmbeddingsResponse;
    } catch {
      throw new UpstreamError("protocol", "the upstream answered with something that is not JSON", res.statusCode);
    }
    const data = [...(parsed.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    if (data.length !== body.input.length || !data.every((d) => Array.isArray(d.embedding) && d.embedding.every((x) => typeof x === "number"))) {
      throw new UpstreamError("protocol", "the upstream's embeddings do not match the inputs", res.statusCode);
    }
    return data.map((d) => d.embedding as number[]);
  } finally {
    call.dispose();
  }
}

/**
 * A streaming chat completion. Resolves once the upstream accepted the request (status 200);
 * the iterator yields each `data:` chunk as it arrives, untouched (reasoning_content and tool_calls
 * deltas included), and ends at `data: [DONE]`. Breaking out of the loop, or aborting the
 * signal, cancels the upstream request.
 */
export async function streamChatCompletion(upstream: TUpstream, body: Record<string, unknown>, opts: TRequestOptions): Promise<AsyncGenerator<TChatChunk>> {
  const call = startCall(opts);
  let res: Dispatcher.ResponseData;
  try {
    res = await send(upstream, { ...body, stream: true }, call);
  } catch (err) {
    call.dispose();
    throw err;
  }
  return readEvents(res.body, call);
}

/**
 * The reads of a body, one at a time: the 'data' events queued (the body paused while the reader
 * is behind), lighter per read than a Readable's async iterator, which is most of a relay's work
 * per chunk. Null once the body ended; throws when it failed or closed before its end.
 */
export function pullReads(body: Readable): () => Promise<Buffer | null> {
  const queue: Buffer[] = [];
  let ended = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  body.on("data", (b: Buffer) => {
    queue.push(b);
    if (queue.length >= 16) body.pause();
    notify();
  });
  body.on("end", () => {
    ended = true;
    notify();
  });
  body.on("error", (err) => {
    failure ??= err;
    notify();
  });
  body.on("close", () => {
    if (!ended) failure ??= Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
    notify();
  });
  return async () => {
    for (;;) {
      const next = queue.shift();
      if (next) {
        if (queue.length < 4 && body.isPaused()) body.resume();
        return next;
      }
      if (failure) throw failure;
      if (ended) return null;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
}

async function* readEvents(body: Readable, call: TCall): AsyncGenerator<TChatChunk> {
  const nextRead = pullReads(body);
  const decoder = new TextDecoder();
  let buffer = "";
  let done = false;
  try {
    while (!done) {
      let read: Buffer | null;
      try {
        read = await nextRead();
      } catch (err) {
        throw call.classify(err);
      }
      if (!read) break;
      buffer += decoder.decode(read, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, "");
        buffer = buffer.slice(newline + 1);
        // SSE comments (": keep-alive") and event/id fields carry nothing for chat completions.
        if (!line.startsWith("data:")) continue;
        const data = line.slice(5).trim();
        if (data === "[DONE]") {
          done = true;
          break;
        }
        let chunk: TChatChunk;
        try {
          chunk = JSON.parse(data) as TChatChunk;
        } catch {
          throw new UpstreamError("protocol", "the upstream sent an event that is not JSON");
        }
        if (chunk && typeof chunk === "object" && "error" in chunk && !chunk.choices) throw toHttpError(200, chunk);
        call.clearTimer();
        yield chunk;
      }
    }
    if (!done) throw new UpstreamError("connect", "the upstream closed the stream before [DONE]");
  } finally {
    // Reached on [DONE], on an error, and when the consumer stops early: the last two must drop
    // the upstream connection so nothing keeps generating (and billing) for nobody. After [DONE]
    // the rest is read so the connection goes back to the pool.
    if (!done) body.destroy();
    else body.resume();
    call.dispose();
  }
}

type TCall = ReturnType<typeof startCall>;

/** One request's abort wiring: the caller's signal and the connect/first-byte timer. */
function startCall(opts: TRequestOptions) {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) controller.abort(opts.signal.reason);
  else opts.signal?.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("timeout"));
  }, opts.connectTimeoutMs);
  const clearTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal: controller.signal,
    clearTimer,
    dispose() {
      clearTimer();
      opts.signal?.removeEventListener("abort", onAbort);
    },
    classify(err: unknown): UpstreamError {
      if (err instanceof UpstreamError) return err;
      if (opts.signal?.aborted) return new UpstreamError("aborted", "the caller cancelled the request", null, null, { cause: err });
      if (timedOut) return new UpstreamError("timeout", `no answer within ${opts.connectTimeoutMs} ms`, null, null, { cause: err });
      const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
      return new UpstreamError("connect", e?.cause?.code ?? e?.code ?? e?.cause?.message ?? e?.message ?? "connection failed", null, null, { cause: err });
    },
  };
}

async function send(upstream: TUpstream, body: Record<string, unknown>, call: TCall, path = "/chat/completions"): Promise<Dispatcher.ResponseData> {
  let res: Dispatcher.ResponseData;
  try {
    // undici's request (node streams) rather than fetch (web streams): far less work per chunk
    // relayed; connections are kept alive per origin by the dispatcher.
    res = await request(`${upstream.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: body.stream ? "text/event-stream" : "application/json", authorization: `Bearer ${upstream.apiKey}` },
      body: JSON.stringify(body),
      signal: call.signal,
      dispatcher: upstream.guarded ? getGuardedDispatcher(upstream.baseUrl) : getUpstreamDispatcher(),
    });
  } catch (err) {
    throw call.classify(err);
  }
  if (res.statusCode >= 200 && res.statusCode < 300) return res;
  const text = await res.body.text().catch(() => "");
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { error: { message: text.slice(0, 500) } };
  }
  throw toHttpError(res.statusCode, parsed);
}

/** OpenAI's `{error: {message, code, type}}`, and the `{error: "..."}` some servers send. */
function toHttpError(status: number, body: unknown): UpstreamError {
  const error = (body as { error?: unknown })?.error;
  const detail = typeof error === "string" ? { message: error } : ((error ?? {}) as { message?: unknown; code?: unknown; type?: unknown });
  const code = detail.code ?? detail.type;
  return new UpstreamError("http", String(detail.message ?? `HTTP ${status}`).slice(0, 500), status, code == null ? null : String(code));
}
