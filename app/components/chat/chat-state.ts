// The chat's messages and how each stream event changes them (TSseEvent, lib/sse-client.ts). Pure, so
// the order rules (reasoning then content, a censor or error ending the reply) are unit-tested.
import type { TSseEvent } from "../../lib/sse-client";
import { readErrorEnvelope } from "../../lib/sse-client";
import { GENERATION_STEP, readChatMedia, readGeneration, type TChatMedia, type TGeneration } from "./chat-media";

export type TFeedback = "liked" | "disliked" | "none";
export type TMessageStatus = "streaming" | "done" | "stopped" | "failed" | "censored";
export type TToolStep = { id?: string; name: string; type?: string; params?: Record<string, unknown> };
export type TCitation = { id: string; title: string; text: string };

export type TChatMessage = {
  /** Stable React key: the server id once known, a local one before. */
  key: string;
  id: string | null;
  role: "user" | "assistant";
  content: string;
  reasoning: string;
  functions: TToolStep[];
  retrieve: TCitation[];
  status: TMessageStatus;
  feedback: TFeedback;
  /** The reply this one regenerated; both are kept and the newest is shown. */
  replacesId: string | null;
  /** What to show instead of a censored or failed reply. */
  notice: string | null;
  /** 110003-style status of a failure, so the UI can tell "log in" from other errors. */
  errorStatus?: number;
  /** The pictures a question was sent with (an app's image input). */
  images?: string[];
  /** The reply read aloud, when the app speaks its replies as they finish (close.audio). */
  audio?: string;
  /** The generation job a picture or video reply is waiting for, while it runs. */
  generation?: TGeneration;
  /** The pictures and videos a reply made (close.media): which links are videos, and their posters. */
  media?: TChatMedia[];
};

export type TChatState = { dialogueId: string | null; messages: TChatMessage[] };

/** The message shape of GET /api/v1/dialogues/:id. */
export type TStoredMessage = {
  id: string;
  role: "user" | "assistant";
  content: string;
  reasoning?: string;
  functions?: TToolStep[];
  retrieve?: TCitation[];
  status?: TMessageStatus;
  feedback?: TFeedback;
  replaces_id?: string | null;
  created_at?: string;
  images?: string[];
};

export type TChatAction =
  | { type: "load"; dialogueId: string | null; messages: TStoredMessage[]; censoredNotice: string }
  | { type: "send"; userKey: string | null; assistantKey: string; content: string; images?: string[]; replacesId?: string | null }
  | { type: "event"; key: string; event: TSseEvent }
  | { type: "end"; key: string; status: "stopped" | "failed"; notice?: string }
  | { type: "feedback"; id: string; feedback: TFeedback };

export const INITIAL_CHAT: TChatState = { dialogueId: null, messages: [] };

export function toChatMessage(m: TStoredMessage, censoredNotice: string): TChatMessage {
  const status = m.status ?? "done";
  return {
    key: m.id,
    id: m.id,
    role: m.role,
    content: status === "censored" ? "" : m.content,
    reasoning: m.reasoning ?? "",
    // A generation's progress is not a tool the model used: never listed with the steps.
    functions: (m.functions ?? []).filter((f) => f.name !== GENERATION_STEP),
    retrieve: m.retrieve ?? [],
    status,
    feedback: m.feedback ?? "none",
    replacesId: m.replaces_id ?? null,
    notice: status === "censored" ? censoredNotice : null,
    ...(m.images?.length ? { images: m.images } : {}),
  };
}

function newMessage(key: string, role: TChatMessage["role"], content: string, status: TMessageStatus): TChatMessage {
  return { key, id: null, role, content, reasoning: "", functions: [], retrieve: [], status, feedback: "none", replacesId: null, notice: null };
}

function parseJson(data: string): Record<string, unknown> {
  try {
    const v = JSON.parse(data) as unknown;
    return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const asString = (v: unknown) => (typeof v === "string" ? v : "");

/** The reply's new state after one event; `userMessageId` is what `close` says of the question. */
export function applyStreamEvent(msg: TChatMessage, event: TSseEvent): { msg: TChatMessage; dialogueId?: string; userMessageId?: string } {
  // Once a reply has ended (stopped, censored, failed), late events change nothing.
  if (msg.status !== "streaming") return { msg };
  const data = event.event === "error" ? {} : parseJson(event.data);
  const dialogueId = asString(data.dialogue_id) || undefined;
  const id = asString(data.id) || msg.id;
  switch (event.event) {
    case "message": {
      const choice = (Array.isArray(data.choices) ? data.choices[0] : undefined) as
        { message?: { content?: unknown; reasoning_content?: unknown }; delta?: { content?: unknown; reasoning_content?: unknown } } | undefined;
      const part = choice?.message ?? choice?.delta ?? {};
      return { msg: { ...msg, id, reasoning: msg.reasoning + asString(part.reasoning_content), content: msg.content + asString(part.content) }, dialogueId };
    }
    case "function": {
      // A media turn's job: its progress shows in the reply, not as a tool step.
      if (data.name === GENERATION_STEP) return { msg: { ...msg, id, generation: readGeneration(data.params) ?? msg.generation }, dialogueId };
      const step: TToolStep = {
        id: asString(data.id) || undefined,
        name: asString(data.name),
        type: asString(data.type) || undefined,
        params: (data.params as Record<string, unknown>) ?? {},
      };
      return { msg: { ...msg, functions: [...msg.functions, step] }, dialogueId };
    }
    case "censor":
      return { msg: { ...msg, status: "censored", content: "", notice: asString(data.censor_msg) || null } };
    case "error": {
      const envelope = readErrorEnvelope(event.data);
      return { msg: { ...msg, status: "failed", notice: envelope.description || null, errorStatus: envelope.status } };
    }
    case "close": {
      const retrieve = Array.isArray(data.retrieve) ? (data.retrieve as TCitation[]) : [];
      const audio = asString(data.audio);
      const media = readChatMedia(data.media);
      return {
        msg: {
          ...msg,
          id: asString(data.id) || msg.id,
          status: "done",
          retrieve,
          ...(audio ? { audio } : {}),
          generation: undefined,
          ...(media.length ? { media } : {}),
        },
        dialogueId,
        userMessageId: asString(data.user_message_id) || undefined,
      };
    }
    default:
      return { msg };
  }
}

function replaceByKey(messages: TChatMessage[], key: string, change: (m: TChatMessage) => TChatMessage) {
  return messages.map((m) => (m.key === key ? change(m) : m));
}

export function chatReducer(state: TChatState, action: TChatAction): TChatState {
  switch (action.type) {
    case "load":
      return { dialogueId: action.dialogueId, messages: action.messages.map((m) => toChatMessage(m, action.censoredNotice)) };
    case "send": {
      const reply = { ...newMessage(action.assistantKey, "assistant", "", "streaming"), replacesId: action.replacesId ?? null };
      const question = action.userKey
        ? [{ ...newMessage(action.userKey, "user", action.content, "done"), ...(action.images?.length ? { images: action.images } : {}) }]
        : [];
      return { ...state, messages: [...state.messages, ...question, reply] };
    }
    case "event": {
      const index = state.messages.findIndex((m) => m.key === action.key);
      if (index === -1) return state;
      const { msg, dialogueId, userMessageId } = applyStreamEvent(state.messages[index], action.event);
      const messages = [...state.messages];
      messages[index] = msg;
      // The question just before the reply learns its server id from `close`.
      const question = messages[index - 1];
      if (userMessageId && question?.role === "user" && !question.id) messages[index - 1] = { ...question, id: userMessageId };
      return { dialogueId: dialogueId ?? state.dialogueId, messages };
    }
    case "end":
      return {
        ...state,
        messages: replaceByKey(state.messages, action.key, (m) =>
          m.status === "streaming" ? { ...m, status: action.status, notice: action.notice ?? m.notice } : m,
        ),
      };
    case "feedback":
      return { ...state, messages: state.messages.map((m) => (m.id === action.id ? { ...m, feedback: action.feedback } : m)) };
  }
}

/** One row of the list: a question, or a reply with its regenerated versions (oldest first). */
export type TDisplayRow = { key: string; versions: TChatMessage[] };

/** Folds regenerated replies into the reply they replace, so "1/2" can switch between them. */
export function buildDisplayRows(messages: TChatMessage[]): TDisplayRow[] {
  const rows: TDisplayRow[] = [];
  const rowOf = new Map<string, TDisplayRow>();
  for (const m of messages) {
    const replaced = m.replacesId ? rowOf.get(m.replacesId) : undefined;
    if (replaced) {
      replaced.versions.push(m);
      if (m.id) rowOf.set(m.id, replaced);
      continue;
    }
    const row = { key: m.key, versions: [m] };
    rows.push(row);
    if (m.id) rowOf.set(m.id, row);
  }
  return rows;
}

/** Whether the reasoning block should be open: while thinking, and closed once the answer starts. */
export function isReasoningOpen(msg: TChatMessage) {
  return msg.status === "streaming" && msg.reasoning !== "" && msg.content === "";
}
