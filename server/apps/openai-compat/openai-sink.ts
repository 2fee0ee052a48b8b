// A turn's sink for OpenAI's chat completion: `chat.completion` JSON once the reply ended, or
// `chat.completion.chunk` server-sent events (role first, content deltas, a finish_reason chunk,
// the usage chunk when asked, then [DONE]). When the agent shows its reasoning, deltas (and the
// JSON message) carry it as `reasoning_content`, as DeepSeek's API does. A refusal before the
// first delta is an HTTP error in OpenAI's shape; one after it, an `error` data line as OpenAI sends.
import type { Response } from "express";
import type { TTurnSink, TTurnUsage } from "../../turns/sink";
import { setEventStreamHeaders } from "../../http/event-stream";
import { envelopeToOpenAiError, sendOpenAiError } from "./openai-errors";
import type { TOpenAiUsage } from "./openai.schema";

type TOpts = { model: string; stream: boolean; includeUsage: boolean };

/** The sink, and `close` for the caller once the turn returned: a response nothing ended is ended. */
export type TOpenAiSink = TTurnSink & { close(): void };

export function createOpenAiSink(res: Response, opts: TOpts): TOpenAiSink {
  const controller = new AbortController();
  const created = Math.floor(Date.now() / 1000);
  let id = `chatcmpl-${created.toString(36)}`;
  let content = "";
  let reasoning: string | null = null;
  let started = false;
  let finished = false;
  res.on("close", () => {
    if (!finished) controller.abort(new Error("client went away"));
  });

  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: opts.model,
    system_fingerprint: null,
    choices,
    ...extra,
  });
  const write = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const startStream = () => {
    if (started) return;
    started = true;
    setEventStreamHeaders(res);
    write(chunk([{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }]));
  };
  const end = (finishReason: "stop" | "content_filter", usage: TOpenAiUsage) => {
    if (finished) return;
    finished = true;
    if (opts.stream) {
      startStream();
      write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }]));
      if (opts.includeUsage) write(chunk([], { usage }));
      res.end("data: [DONE]\n\n");
      return;
    }
    const message = { role: "assistant", content, ...(reasoning !== null ? { reasoning_content: reasoning } : {}), refusal: null };
    res.status(200).json({
      id,
      object: "chat.completion",
      created,
      model: opts.model,
      system_fingerprint: null,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage,
    });
  };
  const toUsage = (u: TTurnUsage | undefined): TOpenAiUsage => ({
    prompt_tokens: u?.prompt_tokens ?? 0,
    completion_tokens: u?.completion_tokens ?? 0,
    total_tokens: (u?.prompt_tokens ?? 0) + (u?.completion_tokens ?? 0),
  });

  return {
    signal: controller.signal,
    begin(reply) {
      id = `chatcmpl-${reply.messageId}`;
      if (reply.showsReasoning) reasoning = "";
    },
    delta(piece) {
      if (finished) return;
      content += piece.content;
      if (piece.reasoning) reasoning = (reasoning ?? "") + piece.reasoning;
      if (!opts.stream) return;
      startStream();
      const delta = { ...(piece.reasoning ? { reasoning_content: piece.reasoning } : {}), ...(piece.content ? { content: piece.content } : {}) };
      if (piece.content || piece.reasoning) write(chunk([{ index: 0, delta, logprobs: null, finish_reason: null }]));
    },
    // Tool steps are the agent's own business: an OpenAI client sees only the answer.
    tool() {},
    finish(endOf) {
      end("stop", toUsage(endOf.usage));
    },
    censor() {
      // What was streamed stays (as OpenAI's content filter does); a non-streamed reply is withheld.
      if (!opts.stream) content = "";
      end("content_filter", toUsage(undefined));
    },
    fail(envelope) {
      if (finished) return;
      finished = true;
      if (!started) return sendOpenAiError(res, envelopeToOpenAiError(envelope));
      write(envelopeToOpenAiError(envelope).body);
      res.end("data: [DONE]\n\n");
    },
    close() {
      if (finished) return;
      finished = true;
      if (!res.headersSent) res.status(499).end();
      else res.end();
    },
  };
}
