// The editor's debug chat: a conversation with what the form holds now, saved or not. The chat
// runtime's debug mode answers from the agent's newest draft, runs only for the agent's owner and
// charges no market price, so a message first saves the form's edits as the draft (with the Save
// button's checks); a changed prompt, model or variable is then in effect from the next message on.
// The conversation lives here, above the pane, so it survives moving between column and drawer.
import { Form } from "antd";
import { useMemo, useRef, useState } from "react";
import type { TVariable } from "../../../server/agents/agents.schema";
import type { TChatMessage } from "../chat/chat-state";
import { useDocumentUpload } from "../chat/document-chip";
import type { TMessageListHandle } from "../chat/message-list";
import { AGENT_CHAT_API, useChatStream, type TChatApi } from "../chat/use-chat-stream";
import { initialVariableValues } from "../chat/variables-form";

/** Saves what needs saving and answers the agent's id, or null when the form was refused. */
export type TPrepareDebug = () => Promise<string | null>;

export function useDraftDebug(prepare: TPrepareDebug) {
  // A new agent has no id until its first message saves it: the body reads it when it leaves.
  const agentId = useRef<string | null>(null);
  const api = useMemo<TChatApi>(() => ({ ...AGENT_CHAT_API, toBody: (_target, input) => AGENT_CHAT_API.toBody(agentId.current ?? "", input) }), []);
  const chat = useChatStream("editor-draft", api);
  const [varsForm] = Form.useForm<Record<string, string>>();
  const documents = useDocumentUpload();
  const list = useRef<TMessageListHandle>(null);
  const [varsOpen, setVarsOpen] = useState(true);
  const [preparing, setPreparing] = useState(false);

  const readVariables = async (variables: TVariable[]) => {
    if (!variables.length) return {};
    try {
      return await varsForm.validateFields();
    } catch {
      setVarsOpen(true);
      return null;
    }
  };

  /** Variables first (nothing is saved for a message that cannot leave), then the draft. */
  const ready = async (variables: TVariable[]) => {
    const values = await readVariables(variables);
    if (!values) return null;
    setPreparing(true);
    try {
      const id = await prepare();
      if (!id) return null;
      agentId.current = id;
      return values;
    } finally {
      setPreparing(false);
    }
  };

  const send = async (content: string, variables: TVariable[]) => {
    const values = await ready(variables);
    if (!values) return false;
    list.current?.follow();
    setVarsOpen(false);
    chat.send({ content, variables: values, documentId: documents.doc?.id });
    return true;
  };

  const regenerate = async (reply: TChatMessage, variables: TVariable[]) => {
    const values = await ready(variables);
    if (!values) return;
    list.current?.follow();
    chat.regenerate(reply, { variables: values, documentId: documents.doc?.id });
  };

  const restart = (variables: TVariable[]) => {
    chat.reset();
    documents.setDoc(null);
    varsForm.setFieldsValue(initialVariableValues(variables));
    setVarsOpen(true);
  };

  return { chat, varsForm, documents, list, varsOpen, setVarsOpen, preparing, send, regenerate, restart };
}

export type TDraftDebug = ReturnType<typeof useDraftDebug>;
