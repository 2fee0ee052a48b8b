// The turn as it moves through the pipeline (index.ts): what was read, what was decided and the
// prompt assembled, and how it ended. Every phase takes and returns these shapes.
import { randomUUID } from "node:crypto";
import type { TActor } from "../accounts/accounts.schema";
import type { TChatAgent } from "../agents/agents.service";
import type { TAgentInput } from "../agents/agents.schema";
import type { TChatMessage as TGatewayMessage, TModelParameters } from "../models/models.schema";
import type { TTurnBill } from "../money/metering/chat-charges.service";
import type * as repo from "../dialogues/dialogues.repository";
import type { TReadableDocument } from "../dialogues/documents.service";
import type { TPassage } from "./prompt-assembly";
import type { TOpenAiTool } from "./tools";

export type { TActor };
/** A reply still "streaming" after this long was abandoned (its process died): it does not block. */
export const STALE_STREAMING_MS = 3 * 60 * 1000;

export type TTurn = {
  actor: TActor;
  agent: { agentId: string; versionId: string; name: string; config: TAgentInput };
  modelKey: string;
  /** The model's kind: a picture or video model answers with a generation job (media-turn.ts). */
  modelKind?: string;
  dialogueId: string;
  /** Null when this turn starts the dialogue. */
  existing: repo.TDialogueRow | null;
  title: string;
  values: Record<string, string>;
  documentId: string | null;
  /** The user message answered: a new row (with the pictures an app's consumer sent), or the one a regeneration answers again. */
  userMessage: { id: string; content: string; isNew: boolean; images?: string[] };
  replacesId: string | null;
  messages: TGatewayMessage[];
  passages: TPassage[];
  tools: TOpenAiTool[];
  params: TModelParameters;
  /**
   * On the offline channel: what it answers (a Q&A item's answer or the out-of-scope reply; ""
   * when the agent has none, and the stream says so in the reader's language). Else null.
   */
  offlineReply: string | null;
  /**
   * An app's turn: whose dialogue it is (a consumer account or an anonymous
   * visitor, not `actor`, which is then the agent's owner), and what to do once the reply ended.
   */
  app?: TAppTurnPart;
  /** Who pays this reply and what: charged as it streams, returned when no reply comes. */
  bill: TTurnBill;
  /**
   * Where the turn's rows are kept when the channel keeps its own (a workshop's run keeps its
   * messages); a dialogue's messages otherwise.
   */
  rows?: TTurnRowStore;
  /**
   * The reply's id when the channel names it: a workshop names each turn after its place in the
   * run, so a turn resumed after a crash reuses its charge instead of paying again.
   */
  replyId?: string;
};

/** A channel's own store for a turn's rows: written as the reply starts, finished once it ended. */
export type TTurnRowStore = {
  write(turn: TTurn, assistantId: string, requestId: string): Promise<void>;
  finish(assistantId: string, reply: TStoredReply): Promise<void>;
};
export type TStoredReply = {
  outcome: TTurnEnd["outcome"];
  content: string;
  reasoning: string;
  usage: { prompt_tokens: number; completion_tokens: number };
  failure: unknown;
};

export type TTurnEnd = {
  outcome: "done" | "stopped" | "censored" | "failed";
  content: string;
  dialogueId: string;
  usage: { prompt_tokens: number; completion_tokens: number };
};
export type TAppTurnPart = {
  appId: string;
  source: string;
  accountId: string | null;
  visitorId: string | null;
  /** What the app may answer with (text, voice, image, video); an agent that draws needs image, one that films video. */
  outputModes?: string[];
  onFinished?: (end: TTurnEnd) => Promise<void>;
};

export type TModelInfo = { key: string; kind?: string; supportsTools: boolean; contextWindow: number; enabled: boolean };

/** What a turn reads from the database; the decide and assemble phases make the prompt from it without further reads. */
export type TTurnContext = {
  agent: TChatAgent;
  existing: repo.TDialogueRow | null;
  rows: repo.TMessageRow[];
  model: TModelInfo | null;
  document: { doc: TReadableDocument } | null;
  bill: TTurnBill;
};

export function newId() {
  // cuid-like: time first so ids sort roughly by creation, then 64 random bits. They come from
  // randomUUID, which draws from a pool: a getrandom call per id cost a cold chat turn 0.1 ms here.
  const uuid = randomUUID();
  const random = [uuid.slice(0, 8), uuid.slice(28, 36)].map((hex) => Number.parseInt(hex, 16).toString(36).padStart(7, "0")).join("");
  return `c${Date.now().toString(36)}${random}`.slice(0, 25);
}
