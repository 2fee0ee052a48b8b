// The browser's reader for our POST event streams. EventSource can only GET, so this
// posts with fetch and parses the text/event-stream body itself, byte chunks as they arrive.
import { getBrowserEnv, handlePlatformStatus, type TBrowserEnv, type TEnvelope } from "./api-client";
import { withTouser } from "./carry-query";
import { readCsrfToken } from "./post-form-data";

export type TSseEvent = { event: string; data: string };

/**
 * An incremental parser of the event-stream format (WHATWG HTML 9.2.6): lines end in LF, CRLF or
 * CR; a blank line dispatches; `data:` lines join with LF; lines starting with ":" are comments.
 * Chunks may split anywhere, even inside a UTF-8 character or between CR and LF.
 */
export function createSseParser(onEvent: (e: TSseEvent) => void) {
  const decoder = new TextDecoder();
  let buffer = "";
  let eventType = "";
  let data: string[] = [];

  const dispatch = () => {
    if (data.length) onEvent({ event: eventType || "message", data: data.join("\n") });
    eventType = "";
    data = [];
  };

  const readLine = (line: string) => {
    if (line === "") return dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") eventType = value;
    else if (field === "data") data.push(value);
  };

  const drain = (final: boolean) => {
    for (;;) {
      const i = buffer.search(/[\r\n]/);
      if (i === -1) break;
      // A CR at the very end may be the first half of a CRLF still in flight.
      if (buffer[i] === "\r" && i === buffer.length - 1 && !final) break;
      readLine(buffer.slice(0, i));
      buffer = buffer.slice(buffer[i] === "\r" && buffer[i + 1] === "\n" ? i + 2 : i + 1);
    }
  };

  return {
    push(chunk: Uint8Array | string) {
      buffer += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      drain(false);
    },
    /** The stream ended: an event the server did not close with a blank line is still delivered. */
    end() {
      buffer += decoder.decode();
      drain(true);
      if (buffer) readLine(buffer);
      buffer = "";
      dispatch();
    },
  };
}

export type TStreamOptions = {
  body: Record<string, unknown>;
  signal?: AbortSignal;
  onEvent: (e: TSseEvent) => void;
  env?: TBrowserEnv;
  fetchImpl?: typeof fetch;
};

/** The envelope a refused stream carries in its `error` event (or as a plain JSON answer). */
export function readErrorEnvelope(data: string): TEnvelope {
  try {
    const parsed = JSON.parse(data) as Partial<TEnvelope>;
    return { status: Number(parsed.status ?? 500), description: String(parsed.description ?? ""), data: parsed.data ?? null };
  } catch {
    return { status: 500, description: data, data: null };
  }
}

/**
 * Posts JSON and hands each event to onEvent as it arrives. A refusal answered as a JSON envelope
 * (not logged in, bad input) comes out as one `error` event, so callers have a single path.
 * Platform codes (110003 → login) are acted on here, like apiRequest does. Aborting the signal
 * ends the read quietly; the promise rejects with the AbortError.
 */
export async function streamSse(path: string, opts: TStreamOptions): Promise<void> {
  const env = opts.env ?? getBrowserEnv();
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "text/event-stream" };
  const csrf = readCsrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const res = await (opts.fetchImpl ?? fetch)(withTouser(path, env.touser()), {
    method: "POST",
    headers,
    body: JSON.stringify(opts.body),
    credentials: "same-origin",
    signal: opts.signal,
  });
  const deliver = (e: TSseEvent) => {
    if (e.event === "error") handlePlatformStatus(readErrorEnvelope(e.data), env);
    opts.onEvent(e);
  };
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream") || !res.body) {
    const text = await res.text();
    deliver({ event: "error", data: text || JSON.stringify({ status: res.status, description: res.statusText, data: null }) });
    return;
  }
  await readSseBody(res.body, deliver);
}

/** Reads an event stream's body to its end, handing each event to `onEvent`. */
export async function readSseBody(body: ReadableStream<Uint8Array>, onEvent: (e: TSseEvent) => void) {
  const parser = createSseParser(onEvent);
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  parser.end();
}
