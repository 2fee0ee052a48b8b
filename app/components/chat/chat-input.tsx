// The message box: Enter sends, Shift+Enter starts a new line (an IME composition's Enter only
// confirms the composition); Stop replaces Send while a reply is being written.
import { ArrowUpOutlined, PaperClipOutlined } from "@ant-design/icons";
import { Button, Input, Tooltip } from "antd";
import { forwardRef, useImperativeHandle, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { MAX_MESSAGE_CHARS } from "../../../server/dialogues/chat.schema";

type TProps = {
  streaming: boolean;
  disabled?: boolean;
  /** Answers whether the text was taken (false keeps it in the box, e.g. a variable is missing). */
  onSend: (text: string) => Promise<boolean> | boolean;
  onStop: () => void;
  onAttach?: () => void;
  attaching?: boolean;
};

export type TChatInputHandle = { focus: () => void };

export const ChatInput = forwardRef<TChatInputHandle, TProps>(function ChatInput({ streaming, disabled, onSend, onStop, onAttach, attaching }, ref) {
  const { t } = useTranslation("chat");
  const [text, setText] = useState("");
  const area = useRef<{ focus: () => void } | null>(null);
  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus() }), []);
  const canSend = !disabled && !streaming && text.trim() !== "";

  const submit = async () => {
    if (!canSend) return;
    if (await onSend(text.trim())) setText("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing || e.keyCode === 229) return;
    e.preventDefault();
    void submit();
  };

  return (
    <div className="chat-input" data-testid="chat-input">
      {onAttach && (
        <Tooltip title={t("document.attach")}>
          <Button
            type="text"
            shape="circle"
            icon={<PaperClipOutlined />}
            onClick={onAttach}
            loading={attaching}
            disabled={disabled}
            aria-label={t("document.attach")}
            data-testid="attach"
          />
        </Tooltip>
      )}
      <Input.TextArea
        ref={(el) => {
          area.current = el;
        }}
        className="chat-input__text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t("input.placeholder")}
        autoSize={{ minRows: 1, maxRows: 6 }}
        maxLength={MAX_MESSAGE_CHARS}
        disabled={disabled}
        variant="borderless"
        aria-label={t("input.placeholder")}
        data-testid="message-input"
      />
      {streaming ? (
        <Button danger shape="round" onClick={onStop} data-testid="stop">
          {t("stop")}
        </Button>
      ) : (
        <Button
          type="primary"
          shape="circle"
          icon={<ArrowUpOutlined />}
          disabled={!canSend}
          onClick={() => void submit()}
          aria-label={t("send")}
          data-testid="send"
        />
      )}
    </div>
  );
});
