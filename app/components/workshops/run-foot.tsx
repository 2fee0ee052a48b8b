// The foot of the run page, by the run's state: the topic box before a run; Stop while it runs;
// the person's input when it is their turn; why it ended, with Restart, once it has.
import { PlayCircleOutlined, RedoOutlined, SendOutlined, StopOutlined, EditOutlined } from "@ant-design/icons";
import { useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { WORKSHOP_LIMITS, ZPostRunMessageInput, ZStartRunInput } from "../../../server/workshops/workshops.schema";
import type { TRunHead } from "./run-api";

type TBusy = "start" | "send" | "stop" | null;

/** Enter sends, Shift+Enter breaks the line (and a composing input method keeps its Enter). */
const sendsOnEnter = (e: KeyboardEvent<HTMLTextAreaElement>, send: () => void) => {
  if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
    e.preventDefault();
    send();
  }
};

function TextBox(props: {
  label: string;
  placeholder: string;
  max: number;
  button: string;
  icon: JSX.Element;
  busy: boolean;
  check: (text: string) => string | null;
  onSubmit: (text: string) => Promise<boolean>;
  testId: string;
  initial?: string;
}) {
  const [text, setText] = useState(props.initial ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async () => {
    const wrong = props.check(text);
    setProblem(wrong);
    if (wrong || props.busy) return;
    if (await props.onSubmit(text.trim())) setText("");
  };
  return (
    <form
      className="wsr-box"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label className="wsr-box__label" htmlFor={props.testId}>
        {props.label}
      </label>
      <div className="wsr-box__row">
        <textarea
          id={props.testId}
          className="h5-input__text wsr-box__text"
          value={text}
          rows={2}
          maxLength={props.max}
          placeholder={props.placeholder}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => sendsOnEnter(e, () => void submit())}
          data-testid={props.testId}
        />
        <button type="submit" className="h5-btn h5-btn--primary wsr-box__send" disabled={props.busy} data-testid={`${props.testId}-send`}>
          {props.icon}
          <span>{props.button}</span>
        </button>
      </div>
      {problem && (
        <p className="wsr-box__problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

type TProps = {
  runId: string | null;
  head: TRunHead | null;
  busy: TBusy;
  topic: string;
  /** The run could not be read (not found, signed out): only a new one can be started. */
  refused: boolean;
  onStart: (topic: string) => Promise<boolean>;
  onSend: (content: string) => Promise<boolean>;
  onStop: () => void;
  onNewTopic: () => void;
};

export function RunFoot({ runId, head, busy, topic, refused, onStart, onSend, onStop, onNewTopic }: TProps) {
  const { t } = useTranslation("workshops");
  const checkWith = (schema: typeof ZStartRunInput | typeof ZPostRunMessageInput, key: "topic" | "content") => (text: string) => {
    const parsed = schema.safeParse({ [key]: text });
    return parsed.success ? null : t(parsed.error.issues[0]?.message ?? "workshops:validation.topic");
  };
  if (!runId)
    return (
      <TextBox
        key="topic"
        label={t("run.topic_label")}
        placeholder={t("run.topic_placeholder")}
        max={WORKSHOP_LIMITS.topic}
        button={t("run.start")}
        icon={<PlayCircleOutlined />}
        busy={busy === "start"}
        check={checkWith(ZStartRunInput, "topic")}
        onSubmit={onStart}
        testId="run-topic-input"
        initial={topic}
      />
    );
  if (!head && refused)
    return (
      <button type="button" className="h5-btn h5-btn--block" onClick={onNewTopic} data-testid="run-new-topic">
        <EditOutlined /> {t("run.new_run")}
      </button>
    );
  if (!head) return <p className="wsr-status">{t("run.connecting")}</p>;
  if (head.status === "ended")
    return (
      <div className="wsr-ended" data-testid="run-ended" data-reason={head.endReason ?? ""}>
        <p className="wsr-ended__why" data-testid="run-end-reason">
          {t(`run.end.${head.endReason ?? "failed"}`)}
        </p>
        <div className="wsr-ended__actions">
          <button
            type="button"
            className="h5-btn h5-btn--primary"
            disabled={busy === "start" || !topic}
            onClick={() => void onStart(topic)}
            data-testid="run-restart"
          >
            <RedoOutlined /> {t("run.restart")}
          </button>
          <button type="button" className="h5-btn" onClick={onNewTopic} data-testid="run-new-topic">
            <EditOutlined /> {t("run.new_topic")}
          </button>
        </div>
      </div>
    );
  const stop = (
    <button type="button" className="h5-btn wsr-stop" disabled={busy === "stop"} onClick={onStop} data-testid="run-stop">
      <StopOutlined /> {t("run.stop")}
    </button>
  );
  if (head.status === "waiting_user" && head.waitingFor)
    return (
      <div className="wsr-turnbox" data-testid="run-your-turn">
        {head.waitingInstruction && (
          <p className="wsr-turnbox__ask" data-testid="run-your-instruction">
            {t("run.host_asks_you", { instruction: head.waitingInstruction })}
          </p>
        )}
        <TextBox
          key={`say-${runId}`}
          label={t("run.your_turn", { role: head.waitingFor })}
          placeholder={t("run.say_placeholder")}
          max={WORKSHOP_LIMITS.userMessage}
          button={t("run.send")}
          icon={<SendOutlined />}
          busy={busy === "send"}
          check={checkWith(ZPostRunMessageInput, "content")}
          onSubmit={onSend}
          testId="run-say"
        />
        {stop}
      </div>
    );
  return (
    <div className="wsr-running" data-testid="run-running">
      <p className="wsr-status">
        <span className="wsr-pulse" aria-hidden="true" /> {t("run.running")}
      </p>
      {stop}
    </div>
  );
}
