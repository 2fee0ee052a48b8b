// One message of the H5 chat. Replies render as markdown, loaded lazily: the phone gets the chat
// first and the markdown code only when the first answer arrives (plain text until then).
import { CopyOutlined, DislikeFilled, DislikeOutlined, LikeFilled, LikeOutlined, RedoOutlined, SoundOutlined } from "@ant-design/icons";
import { lazy, memo, Suspense, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TChatMedia } from "../chat/chat-media";
import type { TChatMessage, TFeedback } from "../chat/chat-state";
import { GenerationProgress } from "../chat/generation-progress";

const MarkdownView = lazy(() => import("./h5-markdown").then((m) => ({ default: m.H5Markdown })));

/** The platform codes of entitlement refusals: balance_insufficient, trial_exhausted, times_exhausted, days_exhausted, trial_count_zero. */
const ENTITLEMENT_STATUSES = new Set([420001, 420002, 420003, 420004, 420702]);

// Memoized: a server-rendered boundary waits for the markdown chunk before it hydrates, and a
// re-render reaching it before then (typing in the input re-renders the list) is React's error 421.
export const MarkdownText = memo(function MarkdownText({ text, media }: { text: string; media?: readonly TChatMedia[] }) {
  return (
    <Suspense fallback={<div className="h5-plain">{text}</div>}>
      <MarkdownView text={text} media={media} />
    </Suspense>
  );
});

type TActions = {
  onFeedback: (m: TChatMessage, f: TFeedback) => void;
  onRegenerate?: (m: TChatMessage) => void;
  onCopy: (text: string) => void;
  onSpeak?: (m: TChatMessage) => void;
  speaking?: boolean;
  refusalHint?: (status: number) => ReactNode;
};

function IconButton({
  label,
  onClick,
  children,
  active,
  testId,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
  active?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="button"
      className={`h5-icon-btn${active ? " is-active" : ""}`}
      aria-label={label}
      title={label}
      aria-pressed={active}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

export function H5Message({ msg, qa, actions }: { msg: TChatMessage; qa: boolean; actions: TActions }) {
  const { t } = useTranslation("h5");
  if (msg.role === "user") {
    return (
      <div className={`h5-msg h5-msg--user${qa ? " h5-msg--qa-q" : ""}`} data-testid="h5-question">
        {msg.images?.length ? (
          <div className="h5-msg__images">
            {msg.images.map((url, i) => (
              <a key={url} href={url} target="_blank" rel="noreferrer">
                <img src={url} alt={t("chat.picture", { n: i + 1 })} loading="lazy" data-testid="h5-question-image" />
              </a>
            ))}
          </div>
        ) : null}
        <div className="h5-bubble">{msg.content}</div>
      </div>
    );
  }
  const writing = msg.status === "streaming";
  const refused = msg.status === "failed" && msg.errorStatus !== undefined && ENTITLEMENT_STATUSES.has(msg.errorStatus);
  return (
    <div className={`h5-msg h5-msg--bot${qa ? " h5-msg--qa-a" : ""}`} data-testid="h5-answer" data-status={msg.status}>
      <div className={`h5-bubble${refused ? " h5-bubble--refused" : ""}`}>
        {msg.content ? (
          <MarkdownText text={msg.content} media={msg.media} />
        ) : writing && msg.generation ? (
          <GenerationProgress generation={msg.generation} ns="h5" keyPrefix="chat.generation" />
        ) : writing ? (
          <span className="h5-typing" aria-label={t("chat.thinking")}>
            <i />
            <i />
            <i />
          </span>
        ) : null}
        {msg.notice && (
          <p className={refused ? "h5-refusal" : "h5-notice"} data-testid={refused ? "h5-refusal" : "h5-notice"} role="alert">
            {msg.notice}
          </p>
        )}
        {refused && actions.refusalHint?.(msg.errorStatus!)}
      </div>
      {msg.status === "done" && msg.id && (
        <div className="h5-msg__actions">
          <IconButton
            label={t("chat.like")}
            active={msg.feedback === "liked"}
            onClick={() => actions.onFeedback(msg, msg.feedback === "liked" ? "none" : "liked")}
            testId="h5-like"
          >
            {msg.feedback === "liked" ? <LikeFilled /> : <LikeOutlined />}
          </IconButton>
          <IconButton
            label={t("chat.dislike")}
            active={msg.feedback === "disliked"}
            onClick={() => actions.onFeedback(msg, msg.feedback === "disliked" ? "none" : "disliked")}
            testId="h5-dislike"
          >
            {msg.feedback === "disliked" ? <DislikeFilled /> : <DislikeOutlined />}
          </IconButton>
          <IconButton label={t("chat.copy")} onClick={() => actions.onCopy(msg.content)} testId="h5-copy">
            <CopyOutlined />
          </IconButton>
          {actions.onSpeak && (
            <IconButton
              label={actions.speaking ? t("chat.speak_stop") : t("chat.speak")}
              active={actions.speaking}
              onClick={() => actions.onSpeak!(msg)}
              testId="h5-speak"
            >
              <SoundOutlined />
            </IconButton>
          )}
          {actions.onRegenerate && (
            <IconButton label={t("chat.regenerate")} onClick={() => actions.onRegenerate!(msg)} testId="h5-regenerate">
              <RedoOutlined />
            </IconButton>
          )}
        </div>
      )}
    </div>
  );
}
