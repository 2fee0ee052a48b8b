// The chat's state and its conversations with the runtime: send, regenerate, stop, feedback and
// loading a stored dialogue. A stream is aborted when the user stops or the page goes away, so the
// server cancels the upstream request.
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../lib/api-client";
import { streamSse } from "../../lib/sse-client";
import { chatReducer, INITIAL_CHAT, type TChatMessage, type TFeedback, type TStoredMessage } from "./chat-state";

export const SEND_PATH = "/api/v1/ai_message/send_message/sse";

export type TStoredDialogue = {
  dialogue: {
    id: string;
    title: string;
    agent_id: string | null;
    agent_name?: string;
    variables?: Record<string, string>;
    document?: unknown;
    interrupted?: boolean;
  };
  messages: TStoredMessage[];
};

export type TSendInput = { content: string; variables?: Record<string, string>; documentId?: string | null; images?: string[] };

/**
 * Where a chat talks to: the console's debug chat with an agent (the default), or an H5 app's
 * chat (/api/v2/app/*, see app/components/h5). `toBody` names the target and the attachments;
 * `keepContext: false` (Q&A style) asks every question in a dialogue of its own.
 */
export type TChatApi = {
  sendPath: string;
  stopPath: string | null;
  feedbackPath: string;
  dialoguePath: (dialogueId: string) => string;
  toBody: (targetId: string, input: Omit<TSendInput, "content">) => Record<string, unknown>;
  keepContext?: boolean;
};

export const AGENT_CHAT_API: TChatApi = {
  sendPath: SEND_PATH,
  stopPath: "/api/v1/ai_message/stop",
  feedbackPath: "/api/v1/ai_message/feedback",
  dialoguePath: (id) => `/api/v1/dialogues/${encodeURIComponent(id)}`,
  toBody: (agentId, input) => ({
    agent_id: agentId,
    variables: input.variables,
    ctype: 0,
    ufids: input.documentId ? JSON.stringify([input.documentId]) : undefined,
  }),
};

let localSeq = 0;
const nextKey = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++localSeq}`;

export function useChatStream(agentId: string | null, chatApi: TChatApi = AGENT_CHAT_API) {
  const { t } = useTranslation("chat");
  const [state, dispatch] = useReducer(chatReducer, INITIAL_CHAT);
  const [streaming, setStreaming] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const latest = useRef(state);
  latest.current = state;
  const api = useRef(chatApi);
  api.current = chatApi;

  // Leaving the page (or this agent) cancels the reply being written.
  useEffect(() => () => controller.current?.abort(), [agentId]);

  const run = useCallback(
    async (body: Record<string, unknown>, keys: { user: string | null; assistant: string }, content: string, replacesId?: string | null, images?: string[]) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      dispatch({ type: "send", userKey: keys.user, assistantKey: keys.assistant, content, images, replacesId });
      setStreaming(true);
      try {
        await streamSse(api.current.sendPath, { body, signal: abort.signal, onEvent: (event) => dispatch({ type: "event", key: keys.assistant, event }) });
        // A stream that ends without close, censor or error was cut off on the way.
        dispatch({ type: "end", key: keys.assistant, status: "failed", notice: t("error.interrupted") });
      } catch {
        dispatch(
          abort.signal.aborted
            ? { type: "end", key: keys.assistant, status: "stopped" }
            : { type: "end", key: keys.assistant, status: "failed", notice: t("error.network") },
        );
      } finally {
        if (controller.current === abort) {
          controller.current = null;
          setStreaming(false);
        }
      }
    },
    [t],
  );

  // Q&A style: no dialogue is continued, so no question sees the ones before it.
  const readDialogueId = useCallback(() => (api.current.keepContext === false ? undefined : (latest.current.dialogueId ?? undefined)), []);

  const send = useCallback(
    (input: TSendInput) => {
      if (!agentId) return;
      const { content, ...rest } = input;
      const body = { ...api.current.toBody(agentId, rest), dialogue_id: readDialogueId(), content };
      void run(body, { user: nextKey("q"), assistant: nextKey("a") }, input.content, null, input.images);
    },
    [agentId, run, readDialogueId],
  );

  /** Asks again for the given reply; the question is the one just before it. */
  const regenerate = useCallback(
    (reply: TChatMessage, input: Omit<TSendInput, "content">) => {
      const { messages, dialogueId } = latest.current;
      const index = messages.findIndex((m) => m.key === reply.key);
      const question = messages
        .slice(0, index)
        .reverse()
        .find((m) => m.role === "user");
      if (!agentId || !reply.id || !question) return;
      const body = { ...api.current.toBody(agentId, input), dialogue_id: dialogueId ?? undefined, content: question.content, regenerate_message_id: reply.id };
      void run(body, { user: null, assistant: nextKey("a") }, question.content, reply.id);
    },
    [agentId, run],
  );

  const stop = useCallback(() => {
    const writing = latest.current.messages.find((m) => m.status === "streaming");
    // The server stops the upstream; aborting alone would too, but only once it notices.
    const stopPath = api.current.stopPath;
    if (writing?.id && stopPath) void apiRequest(stopPath, { body: { message_id: writing.id }, json: true }).catch(() => {});
    controller.current?.abort();
  }, []);

  const setFeedback = useCallback(async (message: TChatMessage, feedback: TFeedback) => {
    if (!message.id) return;
    const before = message.feedback;
    dispatch({ type: "feedback", id: message.id, feedback });
    try {
      await apiRequest(api.current.feedbackPath, { body: { message_id: message.id, feedback }, json: true });
    } catch (err) {
      dispatch({ type: "feedback", id: message.id, feedback: before });
      throw err;
    }
  }, []);

  const load = useCallback(
    async (dialogueId: string): Promise<TStoredDialogue> => {
      controller.current?.abort();
      const data = await apiRequest<TStoredDialogue>(api.current.dialoguePath(dialogueId));
      dispatch({ type: "load", dialogueId: data.dialogue.id, messages: data.messages, censoredNotice: t("censored") });
      return data;
    },
    [t],
  );

  const reset = useCallback(() => {
    controller.current?.abort();
    dispatch({ type: "load", dialogueId: null, messages: [], censoredNotice: "" });
  }, []);

  return { state, streaming, send, regenerate, stop, setFeedback, load, reset };
}
