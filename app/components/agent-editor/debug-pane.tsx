// The editor's "debug and preview" pane: the chat components of /dialogue, fed by the form as it
// is now (name, avatar, welcome message, variables, reasoning and document switches), with a
// restart control. Its conversation is kept by useDraftDebug.
import { CloseOutlined, ExpandOutlined, ReloadOutlined } from "@ant-design/icons";
import { App, Button, Form, Tooltip, type FormInstance } from "antd";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { ChatInput } from "../chat/chat-input";
import type { TChatMessage, TFeedback } from "../chat/chat-state";
import { DocumentChip } from "../chat/document-chip";
import { MessageList } from "../chat/message-list";
import { VariablesPanel } from "../chat/variables-form";
import { toDebugVariables, type TAgentFormValues, type TVariableFormValues } from "./agent-form-values";
import type { TDraftDebug } from "./use-draft-debug";

type TProps = {
  debug: TDraftDebug;
  editor: FormInstance<TAgentFormValues>;
  /** Why the pane cannot chat (the edition's agent limit), or null. */
  blocked: string | null;
  /** Opens the agent's full debug chat page (history, dialogues); absent before the first save. */
  onOpenPage?: () => void;
  /** In a drawer: closes it. */
  onClose?: () => void;
};

export function DebugPane({ debug, editor, blocked, onOpenPage, onClose }: TProps) {
  const { t } = useTranslation("agents");
  const { t: tc } = useTranslation("chat");
  const { message } = App.useApp();
  const rows = Form.useWatch("variables", editor) as TVariableFormValues[] | undefined;
  const variables = useMemo(() => toDebugVariables(rows), [rows]);
  const name = (Form.useWatch("name", editor) as string | undefined) || t("editor.new_title");
  const avatar = (Form.useWatch("avatar_url", editor) as string | undefined) || null;
  const welcome = (Form.useWatch("welcome_message", editor) as string | undefined) ?? "";
  const showReasoning = Form.useWatch("show_reasoning", editor) !== false;
  const documentReading = Boolean(Form.useWatch("document_reading", editor));
  const { chat, varsForm, documents, list } = debug;
  const started = chat.state.messages.length > 0;

  // A variable added in the form starts at its default, as it will for a new conversation; one
  // that is required and still empty opens the variables, so the next message is not refused.
  const signature = variables.map((v) => `${v.name}\u0000${v.default}\u0000${v.required}`).join("\u0001");
  useEffect(() => {
    const current = varsForm.getFieldsValue(true) as Record<string, string | undefined>;
    const missing = variables.filter((v) => current[v.name] === undefined && v.default);
    if (missing.length) varsForm.setFieldsValue(Object.fromEntries(missing.map((v) => [v.name, v.default])));
    const values = { ...current, ...Object.fromEntries(missing.map((v) => [v.name, v.default])) };
    if (variables.some((v) => v.required && !String(values[v.name] ?? "").trim())) debug.setVarsOpen(true);
    // The signature stands for the list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);

  const onFeedback = (m: TChatMessage, f: TFeedback) => chat.setFeedback(m, f).catch((err: unknown) => void message.error(errorText(err, tc("error.network"))));

  return (
    <section className="agent-debug" data-testid="debug-pane" aria-label={t("debug.title")}>
      <div className="agent-debug__head">
        <h2 className="agent-debug__title">{t("debug.title")}</h2>
        <div className="agent-debug__tools">
          {onOpenPage && (
            <Tooltip title={t("debug.open_page")}>
              <Button type="text" size="small" icon={<ExpandOutlined />} onClick={onOpenPage} aria-label={t("debug.open_page")} data-testid="debug-open-page" />
            </Tooltip>
          )}
          <Tooltip title={t("debug.restart")}>
            <Button
              size="small"
              icon={<ReloadOutlined />}
              disabled={!started && !documents.doc}
              onClick={() => debug.restart(variables)}
              data-testid="debug-restart"
            >
              <span className="agent-debug__restart-label">{t("debug.restart")}</span>
            </Button>
          </Tooltip>
          {onClose && <Button type="text" size="small" icon={<CloseOutlined />} onClick={onClose} aria-label={t("debug.close")} data-testid="debug-close" />}
        </div>
      </div>
      <p className="agent-debug__note">{blocked ?? t("debug.note")}</p>
      {variables.length > 0 && <VariablesPanel variables={variables} form={varsForm} open={debug.varsOpen} onToggle={debug.setVarsOpen} />}
      <MessageList
        ref={list}
        messages={chat.state.messages}
        agent={{ name, avatar_url: avatar, show_reasoning: showReasoning }}
        welcome={welcome}
        streaming={chat.streaming}
        onFeedback={onFeedback}
        onRegenerate={(m) => void debug.regenerate(m, variables)}
      />
      <div className="chat__foot">
        {documents.doc && <DocumentChip doc={documents.doc} onRemove={() => documents.setDoc(null)} />}
        <ChatInput
          streaming={chat.streaming}
          disabled={Boolean(blocked) || debug.preparing}
          onSend={(text) => debug.send(text, variables)}
          onStop={chat.stop}
          onAttach={documentReading ? documents.choose : undefined}
          attaching={documents.uploading}
        />
        {documents.picker}
      </div>
    </section>
  );
}
