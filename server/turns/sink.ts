// Where a turn's reply goes. Every channel implements this: the chat page's event stream
// (sinks/sse-sink.ts), the OpenAI-compatible API's chunks (apps/openai-compat/openai-sink.ts), a
// bot's reply on its chat platform (bot-gateway/core/bot-sink.ts). The stream phase calls, in
// order: `begin` once the reply's rows exist, then `delta` and `tool` as the reply grows, then
// exactly one of `finish`, `censor` or `fail`. A turn refused before it streams gets only `fail`.
import type { TEnvelope } from "../errors/map-error";
import type { TFunctionStep } from "../dialogues/chat.schema";
import type { TPassage } from "./prompt-assembly";

export type TTurnUsage = { prompt_tokens: number; completion_tokens: number };
/** A picture or video the reply is made of (an agent on a generation model), at an address readers can open. */
export type TTurnMedia = { kind: "image" | "video"; url: string; mime: string; posterUrl: string | null };

export type TTurnSink = {
  /** Aborted when whoever waits for the reply went away: the turn stops asking the model. */
  readonly signal: AbortSignal;
  /** The reply has ids and rows: nothing is shown before this (the charge is in). */
  begin(reply: { messageId: string; dialogueId: string; showsReasoning: boolean }): void;
  /** A piece of the reply; `reasoning` only when the agent shows its reasoning. */
  delta(piece: { content: string; reasoning?: string }): void;
  /** A tool the agent called, with what it was given and what it answered. */
  tool(step: TFunctionStep): void;
  /** The reply ended (done, or stopped by the user; a reader who went away gets nothing more): its text, what it drew on and used. */
  finish(end: { userMessageId: string; content: string; passages: TPassage[]; usage: TTurnUsage; stopped: boolean; media?: TTurnMedia[] }): void;
  /** The output review withheld the rest of the reply: the words to show instead. */
  censor(words: string): void;
  /** The turn was refused or failed: the error envelope, in the reader's language. */
  fail(error: TEnvelope): void;
};
