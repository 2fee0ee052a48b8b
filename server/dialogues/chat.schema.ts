// The chat runtime's wire shapes: the send payload, the stream's messages and dialogues. The
// chat UI imports these too, so no server imports here.
import { z } from "zod";

/** `ufids` arrive as JSON text (`"[\"id\"]"`) from forms, or as an array from JSON clients. */
const ZIdList = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === "") return [];
    if (typeof v === "string") {
      try {
        return JSON.parse(v);
      } catch {
        return [v];
      }
    }
    return v;
  },
  z.array(z.string().min(1).max(40)).max(1, "validation.one_document"),
);

/** Variables' values: an object, or its JSON text (form-encoded bodies). */
const ZValues = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v ?? {};
    try {
      return JSON.parse(v);
    } catch {
      return {};
    }
  },
  z.record(z.string().max(40), z.union([z.string().max(2000), z.number(), z.boolean()]).transform(String)),
);

const ZOptionalId = z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().min(1).max(40).optional());

export const MAX_MESSAGE_CHARS = 20_000;

export const ZSendMessageInput = z
  .object({
    agent_id: ZOptionalId,
    app_id: ZOptionalId,
    dialogue_id: ZOptionalId,
    content: z.string().max(MAX_MESSAGE_CHARS, "validation.too_long").default(""),
    variables: ZValues.default({}),
    ctype: z.coerce.number().int().min(0).max(10).default(0),
    ufids: ZIdList.default([]),
    regenerate_message_id: ZOptionalId,
    /** Pictures of the message (an app with image input): URLs this server stored. */
    images: z.array(z.string().max(500)).max(3).default([]),
  })
  .refine((b) => b.regenerate_message_id || b.content.trim().length > 0, { message: "validation.required", path: ["content"] })
  .refine((b) => b.agent_id || b.app_id, { message: "validation.required", path: ["agent_id"] });
export type TSendMessageInput = z.infer<typeof ZSendMessageInput>;

export const ZMessageIdInput = z.object({ message_id: z.string().min(1).max(40) });
export type TMessageIdInput = z.infer<typeof ZMessageIdInput>;
export const ZFeedbackInput = z.object({ message_id: z.string().min(1).max(40), feedback: z.enum(["liked", "disliked", "none"]) });
export type TFeedbackInput = z.infer<typeof ZFeedbackInput>;
export const ZListDialoguesQuery = z.object({
  agent_id: ZOptionalId,
  cursor: ZOptionalId,
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type TListDialoguesQuery = z.infer<typeof ZListDialoguesQuery>;
export const ZRenameDialogueInput = z.object({ title: z.string().trim().min(1, "validation.required").max(50, "validation.too_long") });
export type TRenameDialogueInput = z.infer<typeof ZRenameDialogueInput>;

export type TPassageView = { id: string; title: string; text: string };
export type TFunctionStep = { name: string; type: string; params: { arguments: unknown; result?: unknown; code?: string; error?: string } };

export type TDialogueListItem = {
  id: string;
  title: string;
  agent_id: string | null;
  agent_name: string | null;
  agent_avatar_url: string | null;
  last_message_at: string;
  created_at: string;
  /** No message for 30 minutes: the UI offers to continue. */
  interrupted: boolean;
};

export type TMessageView = {
  id: string;
  role: "user" | "assistant";
  content: string;
  reasoning: string;
  functions: TFunctionStep[];
  retrieve: TPassageView[];
  /** The pictures a user message was sent with (public /files/ URLs); [] otherwise. */
  images: string[];
  status: "streaming" | "done" | "stopped" | "failed" | "censored";
  feedback: "none" | "liked" | "disliked";
  replaces_id: string | null;
  created_at: string;
};

export type TDialogueView = {
  dialogue: {
    id: string;
    title: string;
    agent_id: string | null;
    agent_name: string | null;
    variables: Record<string, string>;
    document: { id: string; name: string; expires_at: string } | null;
    interrupted: boolean;
  };
  messages: TMessageView[];
};

export type TDocumentView = { id: string; name: string; chars: number; expires_at: string };

/** Stream events (data of each SSE event); `error` carries the REST envelope. */
export type TMessageEvent = { id: string; dialogue_id: string; choices: [{ message: { content: string; reasoning_content?: string } }] };
export type TFunctionEventData = { id: string; dialogue_id: string } & TFunctionStep;
export type TCensorEvent = { id: string; dialogue_id: string; censor_msg: string };
export type TCloseEventData = {
  id: string;
  dialogue_id: string;
  user_message_id: string;
  retrieve: TPassageView[];
  audio: null;
  usage: { prompt_tokens: number; completion_tokens: number };
};

export const INTERRUPTED_AFTER_MS = 30 * 60 * 1000;
export const DOCUMENT_TTL_MS = 3 * 60 * 60 * 1000;
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
