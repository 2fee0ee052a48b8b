// The one HTTP client of every upstream: OpenAI chat completions over fetch, JSON or
// server-sent events. It classifies failures so the gateway can decide between the next channel,
// disabling a banned key, or giving up; it knows nothing of channels or the database.

import { request, type Dispatcher } from "undici";
import { readChunks, type TChunkSource } from "./chunk-source";
import { getGuardedDispatcher } from "./guarded-dispatcher";
import { getUpstreamDispatcher } from "./upstream-dispatcher";

/** guarded: connect only to public addresses (an account's own channel; guarded-dispatcher.ts). */
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
export async function streamChatCompletion(upstream: TUpstream, body: Record<string, unknown>, opts: TRequestOptions): Promise<TChunkSource> {
  const call = startCall(opts);
  let res: Dispatcher.ResponseData;
  try {
    res = await send(upstream, { ...body, stream: true }, call);
  } catch (err) {
    call.dispose();
    throw err;
  }
  return readChunks(res.body, {
    classify: (err) => call.classify(err),
    notJson: () => new UpstreamError("protocol", "the upstream sent an event that is not JSON"),
    errorChunk: (chunk) => toHttpError(200, chunk),
    cutShort: () => new UpstreamError("connect", "the upstream closed the stream before [DONE]"),
    clearTimer: call.clearTimer,
    dispose: call.dispose,
  });
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
      headers: {
        "content-type": "application/json",
        accept: body.stream ? "text/event-stream" : "application/json",
        authorization: `Bearer ${upstream.apiKey}`,
      },
      body: JSON.stringify(body),
      signal: call.signal,
      dispatcher: upstream.guarded ? getGuardedDispatcher(upstream.baseUrl) : getUpstreamDispatcher(),
    });
  } catch (err) {
    throw call.classify(err);
  }
  if (res.statusCode >= 200 && res.statusCode < 300) return res;
  const text = await res.body.text().catch(() => "");
  let parsed: unknown;
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
