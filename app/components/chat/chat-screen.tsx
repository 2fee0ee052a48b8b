// The debug chat with one agent: header, variables, messages, document chip and input. The URL's
// dialogue_id is the dialogue shown; a new dialogue gets one from the stream's first event.
import { Alert, App, Button, Form } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "@remix-run/react";
import type { TVariable } from "../../../server/agents/agents.schema";
import { errorText } from "../../lib/api-client";
import { AgentHeader, type TAgentOption } from "./agent-header";
import { ChatInput, type TChatInputHandle } from "./chat-input";
import type { TChatMessage, TFeedback } from "./chat-state";
import { DocumentChip, readStoredDocument, useDocumentUpload } from "./document-chip";
import { MessageList, type TMessageListHandle } from "./message-list";
import { useChatStream } from "./use-chat-stream";
import { initialVariableValues, VariablesPanel } from "./variables-form";

export type TChatAgent = TAgentOption & {
  welcome_message: string;
  variables: TVariable[];
  show_reasoning: boolean;
  document_reading: boolean;
};

type TProps = { agent: TChatAgent; agents: TAgentOption[]; onPick: (id: string) => void };

export function ChatScreen({ agent, agents, onPick }: TProps) {
  const { t } = useTranslation("chat");
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const chat = useChatStream(agent.id);
  const [form] = Form.useForm<Record<string, string>>();
  const documents = useDocumentUpload();
  const list = useRef<TMessageListHandle>(null);
  const input = useRef<TChatInputHandle>(null);
  const [varsOpen, setVarsOpen] = useState(true);
  const [interrupted, setInterrupted] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const shownDialogue = useRef<string | null>(null);
  shownDialogue.current = chat.state.dialogueId;
  const wanted = params.get("dialogue_id");

  // The URL chose another dialogue (history, back button): load it, or start empty.
  useEffect(() => {
    if ((wanted ?? null) === shownDialogue.current) return;
    setLoadError(null);
    setInterrupted(false);
    if (!wanted) {
      chat.reset();
      return;
    }
    chat
      .load(wanted)
      .then(({ dialogue, messages }) => {
        form.setFieldsValue(initialVariableValues(agent.variables, dialogue.variables));
        documents.setDoc(readStoredDocument(dialogue.document));
        setInterrupted(Boolean(dialogue.interrupted));
        setVarsOpen(messages.length === 0);
      })
      .catch((err: unknown) => setLoadError(errorText(err, t("error.network"))));
    // Only the URL drives this; the chat's own id is read through the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted]);

  // A new dialogue learnt its id from the stream: put it in the URL so reload and share keep it.
  useEffect(() => {
    const id = chat.state.dialogueId;
    if (id && id !== wanted)
      setParams(
        (p) => {
          p.set("dialogue_id", id);
          return p;
        },
        { replace: true, preventScrollReset: true },
      );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chat.state.dialogueId]);

  const readVariables = async () => {
    if (!agent.variables.length) return {};
    try {
      return await form.validateFields();
    } catch {
      setVarsOpen(true);
      return null;
    }
  };

  const onSend = async (content: string) => {
    const variables = await readVariables();
    if (!variables) return false;
    list.current?.follow();
    setInterrupted(false);
    setVarsOpen(false);
    chat.send({ content, variables, documentId: documents.doc?.id });
    return true;
  };

  const onRegenerate = async (reply: TChatMessage) => {
    const variables = await readVariables();
    if (!variables) return;
    list.current?.follow();
    chat.regenerate(reply, { variables, documentId: documents.doc?.id });
  };

  const onFeedback = (m: TChatMessage, f: TFeedback) => chat.setFeedback(m, f).catch((err: unknown) => void message.error(errorText(err, t("error.network"))));

  const startNew = () => {
    chat.reset();
    documents.setDoc(null);
    form.setFieldsValue(initialVariableValues(agent.variables));
    setVarsOpen(true);
    setInterrupted(false);
    setParams(
      (p) => {
        p.delete("dialogue_id");
        return p;
      },
      { preventScrollReset: true },
    );
  };

  return (
    <div className="chat" data-testid="chat">
      <AgentHeader agents={agents} current={agent} onPick={onPick} onNewDialogue={startNew} canStartNew={chat.state.messages.length > 0 || Boolean(wanted)} />
      {agent.variables.length > 0 && <VariablesPanel variables={agent.variables} form={form} open={varsOpen} onToggle={setVarsOpen} />}
      {loadError && <Alert type="error" showIcon banner message={loadError} data-testid="dialogue-load-error" />}
      {interrupted && (
        <Alert
          type="info"
          showIcon
          banner
          message={t("interrupted.notice")}
          data-testid="interrupted"
          action={
            <Button size="small" type="link" onClick={() => input.current?.focus()} data-testid="continue-dialogue">
              {t("interrupted.continue")}
            </Button>
          }
        />
      )}
      <MessageList
        ref={list}
        messages={chat.state.messages}
        agent={agent}
        welcome={agent.welcome_message}
        streaming={chat.streaming}
        onFeedback={onFeedback}
        onRegenerate={(m) => void onRegenerate(m)}
      />
      <div className="chat__foot">
        {documents.doc && <DocumentChip doc={documents.doc} onRemove={() => documents.setDoc(null)} />}
        <ChatInput
          ref={input}
          streaming={chat.streaming}
          onSend={onSend}
          onStop={chat.stop}
          onAttach={agent.document_reading ? documents.choose : undefined}
          attaching={documents.uploading}
        />
        {documents.picker}
        <div className="chat__hint">{t("input.hint")}</div>
      </div>
    </div>
  );
}
