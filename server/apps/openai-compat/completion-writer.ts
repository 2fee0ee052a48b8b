// Writes a chat turn (runTurn's events) as OpenAI's chat completion: `chat.completion` JSON once
// the reply ended, or `chat.completion.chunk` server-sent events (role first, content deltas, a
// finish_reason chunk, the usage chunk when asked, then [DONE]). A refusal before the first
// delta is an HTTP error in OpenAI's shape; one after it, an `error` data line as OpenAI sends.
import type { Response } from "express";
import { setEventStreamHeaders, type TSseWriter } from "../../runtime/sse-writer";
import { envelopeToOpenAiError, sendOpenAiError } from "./openai-errors";
import type { TOpenAiUsage } from "./openai.schema";

type TOpts = { model: string; stream: boolean; includeUsage: boolean; lng?: string };

export type TCompletionWriter = TSseWriter & { finish(): void };

export function createCompletionWriter(res: Response, opts: TOpts): TCompletionWriter {
  const controller = new AbortController();
  const created = Math.floor(Date.now() / 1000);
  let id = `chatcmpl-${created.toString(36)}`;
  let content = "";
  let started = false;
  let finished = false;
  res.on("close", () => {
    if (!finished) controller.abort(new Error("client went away"));
  });

  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: "chat.completion.chunk", created, model: opts.model, system_fingerprint: null, choices, ...extra });
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
    res.status(200).json({
      id,
      object: "chat.completion",
      created,
      model: opts.model,
      system_fingerprint: null,
      choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: finishReason }],
      usage,
    });
  };
  const toUsage = (u: { prompt_tokens: number; completion_tokens: number } | undefined): TOpenAiUsage => ({
    prompt_tokens: u?.prompt_tokens ?? 0,
    completion_tokens: u?.completion_tokens ?? 0,
    total_tokens: (u?.prompt_tokens ?? 0) + (u?.completion_tokens ?? 0),
  });

  return {
    signal: controller.signal,
    get closed() {
      return finished;
    },
    setMeta(meta) {
      if (typeof meta.id === "string") id = `chatcmpl-${meta.id}`;
    },
    message(delta) {
      if (finished) return;
      const text = delta.content ?? "";
      content += text;
      if (!opts.stream) return;
      startStream();
      if (text) write(chunk([{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }]));
    },
    // Tool steps are the agent's own business: an OpenAI client sees only the answer.
    fn() {},
    censor() {
      // What was streamed stays (as OpenAI's content filter does); a non-streamed reply is withheld.
      if (!opts.stream) content = "";
      end("content_filter", toUsage(undefined));
    },
    error(envelope) {
      if (finished) return;
      finished = true;
      if (!started) return sendOpenAiError(res, envelopeToOpenAiError(envelope));
      const e = envelopeToOpenAiError(envelope);
      write(e.body);
      res.end("data: [DONE]\n\n");
    },
    close(event) {
      end("stop", toUsage(event.usage as { prompt_tokens: number; completion_tokens: number } | undefined));
    },
    finish() {
      if (!finished) {
        finished = true;
        if (!res.headersSent) res.status(499).end();
        else res.end();
      }
    },
  };
}
