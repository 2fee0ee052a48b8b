// The scrolling list of a dialogue: the agent's welcome message, then the rows, following the
// newest text while it streams.
import { RobotOutlined } from "@ant-design/icons";
import { Avatar } from "antd";
import { forwardRef, useImperativeHandle, useMemo, useRef } from "react";
import { buildDisplayRows, type TChatMessage, type TFeedback } from "./chat-state";
import { MarkdownView } from "./markdown-view";
import { MessageBubble, type TBubbleAgent } from "./message-bubble";
import { useAutoscroll } from "./use-autoscroll";

type TProps = {
  messages: TChatMessage[];
  agent: TBubbleAgent;
  welcome: string;
  streaming: boolean;
  onFeedback: (m: TChatMessage, f: TFeedback) => void;
  onRegenerate: (m: TChatMessage) => void;
};

export type TMessageListHandle = { follow: () => void };

export const MessageList = forwardRef<TMessageListHandle, TProps>(function MessageList({ messages, agent, welcome, streaming, onFeedback, onRegenerate }, ref) {
  const box = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => buildDisplayRows(messages), [messages]);
  const { onScroll, follow } = useAutoscroll(box, messages);
  useImperativeHandle(ref, () => ({ follow }), [follow]);
  const lastReply = [...rows].reverse().find((r) => r.versions[0].role === "assistant");
  return (
    <div className="chat__body" ref={box} onScroll={onScroll} data-testid="message-list">
      <div className="chat__rows">
        {welcome && (
          <div className="chat-msg chat-msg--assistant" data-testid="welcome">
            <Avatar className="chat-msg__avatar" size={32} src={agent.avatar_url || undefined} icon={<RobotOutlined />} />
            <div className="chat-msg__main">
              <div className="chat-msg__bubble">
                <MarkdownView text={welcome} />
              </div>
            </div>
          </div>
        )}
        {rows.map((row) => (
          <MessageBubble
            key={row.key}
            row={row}
            agent={agent}
            canRegenerate={!streaming && row === lastReply}
            onFeedback={onFeedback}
            onRegenerate={onRegenerate}
          />
        ))}
      </div>
    </div>
  );
});
