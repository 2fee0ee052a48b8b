// One row of the chat: the user's question, or a reply with its thinking, tool steps, answer,
// citations and actions (copy, like, dislike, regenerate on the last reply, switch versions).
import {
  DislikeFilled,
  DislikeOutlined,
  LeftOutlined,
  LikeFilled,
  LikeOutlined,
  ReloadOutlined,
  RightOutlined,
  RobotOutlined,
  StopOutlined,
  WarningOutlined,
} from "@ant-design/icons";
import { Avatar, Button, Tooltip } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isReasoningOpen, type TChatMessage, type TDisplayRow, type TFeedback } from "./chat-state";
import { Citations } from "./citations";
import { CopyButton } from "./copy-button";
import { GenerationProgress } from "./generation-progress";
import { MarkdownView } from "./markdown-view";
import { ReasoningBlock } from "./reasoning-block";
import { ToolStep } from "./tool-step";

export type TBubbleAgent = { name: string; avatar_url: string | null; show_reasoning: boolean };

type TProps = {
  row: TDisplayRow;
  agent: TBubbleAgent;
  canRegenerate: boolean;
  onFeedback: (m: TChatMessage, f: TFeedback) => void;
  onRegenerate: (m: TChatMessage) => void;
};

export function MessageBubble({ row, agent, canRegenerate, onFeedback, onRegenerate }: TProps) {
  const count = row.versions.length;
  const [shown, setShown] = useState(count - 1);
  // A new version (regenerate) is shown as soon as it starts.
  useEffect(() => setShown(count - 1), [count]);
  const msg = row.versions[Math.min(shown, count - 1)];
  if (msg.role === "user") {
    return (
      <div className="chat-msg chat-msg--user" data-testid="user-message">
        <div className="chat-msg__bubble">{msg.content}</div>
      </div>
    );
  }
  return (
    <div className="chat-msg chat-msg--assistant" data-testid="assistant-message" data-status={msg.status} data-message-id={msg.id ?? ""}>
      <Avatar className="chat-msg__avatar" size={32} src={agent.avatar_url || undefined} icon={<RobotOutlined />} />
      <div className="chat-msg__main">
        <ReplyBody msg={msg} showReasoning={agent.show_reasoning} />
        {msg.status !== "streaming" && (
          <div className="chat-msg__actions">
            {count > 1 && <VersionPager shown={shown} count={count} onChange={setShown} />}
            {msg.content && <CopyButton text={msg.content} testId="message-copy" />}
            {msg.id && msg.status !== "failed" && <FeedbackButtons msg={msg} onFeedback={onFeedback} />}
            {canRegenerate && msg.id && shown === count - 1 && <RegenerateButton onClick={() => onRegenerate(msg)} />}
          </div>
        )}
      </div>
    </div>
  );
}

function ReplyBody({ msg, showReasoning }: { msg: TChatMessage; showReasoning: boolean }) {
  const { t } = useTranslation("chat");
  const generating = msg.status === "streaming" && msg.generation && !msg.content ? msg.generation : null;
  const waiting = msg.status === "streaming" && !msg.content && !msg.reasoning && msg.functions.length === 0 && !generating;
  return (
    <>
      {showReasoning && msg.reasoning && <ReasoningBlock text={msg.reasoning} thinking={isReasoningOpen(msg)} autoOpen={isReasoningOpen(msg)} />}
      {msg.functions.map((step, i) => (
        <ToolStep key={`${step.name}-${i}`} step={step} />
      ))}
      {msg.status === "censored" ? (
        <div className="chat-msg__notice chat-msg__notice--censor" data-testid="censored">
          <WarningOutlined /> {msg.notice || t("censored")}
        </div>
      ) : (
        msg.content && (
          <div className="chat-msg__bubble" data-testid="answer">
            <MarkdownView text={msg.content} media={msg.media} />
          </div>
        )
      )}
      {generating && (
        <div className="chat-msg__bubble">
          <GenerationProgress generation={generating} ns="chat" keyPrefix="generation" />
        </div>
      )}
      {waiting && (
        <div className="chat-msg__bubble chat-msg__typing" aria-label={t("waiting")} data-testid="typing">
          <i />
          <i />
          <i />
        </div>
      )}
      {msg.status === "failed" && (
        <div className="chat-msg__notice chat-msg__notice--error" data-testid="reply-error">
          <WarningOutlined /> {msg.notice || t("error.generic")}
        </div>
      )}
      {msg.status === "stopped" && (
        <div className="chat-msg__stopped" data-testid="reply-stopped">
          <StopOutlined /> {t("stopped")}
          {/* Stopping the reply stops the waiting, not the job: its result still reaches the owner's generations. */}
          {msg.generation && !msg.content && <span data-testid="generation-goes-on"> · {t("generation.goes_on")}</span>}
        </div>
      )}
      <Citations items={msg.retrieve} />
    </>
  );
}

function FeedbackButtons({ msg, onFeedback }: { msg: TChatMessage; onFeedback: TProps["onFeedback"] }) {
  const { t } = useTranslation("chat");
  const liked = msg.feedback === "liked";
  const disliked = msg.feedback === "disliked";
  return (
    <>
      <Tooltip title={t("like")}>
        <Button
          type="text"
          size="small"
          aria-label={t("like")}
          aria-pressed={liked}
          icon={liked ? <LikeFilled /> : <LikeOutlined />}
          className={liked ? "is-active" : undefined}
          onClick={() => onFeedback(msg, liked ? "none" : "liked")}
          data-testid="like"
        />
      </Tooltip>
      <Tooltip title={t("dislike")}>
        <Button
          type="text"
          size="small"
          aria-label={t("dislike")}
          aria-pressed={disliked}
          icon={disliked ? <DislikeFilled /> : <DislikeOutlined />}
          className={disliked ? "is-active" : undefined}
          onClick={() => onFeedback(msg, disliked ? "none" : "disliked")}
          data-testid="dislike"
        />
      </Tooltip>
    </>
  );
}

function RegenerateButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation("chat");
  return (
    <Tooltip title={t("regenerate")}>
      <Button type="text" size="small" aria-label={t("regenerate")} icon={<ReloadOutlined />} onClick={onClick} data-testid="regenerate" />
    </Tooltip>
  );
}

function VersionPager({ shown, count, onChange }: { shown: number; count: number; onChange: (i: number) => void }) {
  const { t } = useTranslation("chat");
  return (
    <span className="chat-msg__pager" data-testid="version-pager">
      <Button type="text" size="small" icon={<LeftOutlined />} disabled={shown === 0} onClick={() => onChange(shown - 1)} aria-label={t("version.previous")} />
      <span>
        {shown + 1}/{count}
      </span>
      <Button
        type="text"
        size="small"
        icon={<RightOutlined />}
        disabled={shown >= count - 1}
        onClick={() => onChange(shown + 1)}
        aria-label={t("version.next")}
      />
    </span>
  );
}
