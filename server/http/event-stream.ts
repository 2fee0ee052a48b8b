// Server-sent events' response head, shared by every stream this server sends (the chat protocol,
// the OpenAI-compatible API's chunks, generation jobs' progress).
import type { Response } from "express";

/**
 * A 200 event stream that no proxy buffers or transforms. The headers leave with the
 * first event (the ids, or a refusal), one write instead of two: under a burst of streams every
 * write before the first token is time the others wait.
 */
export function setEventStreamHeaders(res: Response) {
  res.status(200);
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache, no-transform");
  res.setHeader("Connection", "keep-alive");
  res.setHeader("X-Accel-Buffering", "no");
  res.socket?.setNoDelay(true);
}
