// The conversation of a run: the topic it opened with, a line where each node begins, and every
// turn under its role's avatar and name, growing while it is written (a typing indicator until
// the first words). The developer also sees what the host asked each speaker to do.
import { memo } from "react";
import { useTranslation } from "react-i18next";
import type { TRunMessageView, TRunView } from "../../../server/workshops/workshops.schema";
import { MarkdownText } from "../h5/h5-message";
import { RoleAvatar, isPersonRole, type TRunRole } from "./run-roles";

function Typing() {
  const { t } = useTranslation("workshops");
  return (
    <span className="h5-typing" role="status" aria-label={t("run.typing")} data-testid="run-typing">
      <i />
      <i />
      <i />
    </span>
  );
}

function Body({ message }: { message: TRunMessageView }) {
  const { t } = useTranslation("workshops");
  if (message.status === "failed") return <p className="wsr-note">{t("run.turn_failed")}</p>;
  if (message.status === "censored") return <p className="wsr-note">{t("run.turn_censored")}</p>;
  const streaming = message.status === "streaming";
  if (streaming && !message.content) return <Typing />;
  return (
    <>
      {message.kind === "user" ? <div className="h5-plain">{message.content}</div> : <MarkdownText text={message.content} />}
      {streaming && <Typing />}
      {message.status === "stopped" && <p className="wsr-note">{t("run.turn_stopped")}</p>}
    </>
  );
}

type TTurnProps = { message: TRunMessageView; role?: TRunRole; place: number; developer: boolean };

const Turn = memo(function Turn({ message, role, place, developer }: TTurnProps) {
  const { t } = useTranslation("workshops");
  const mine = isPersonRole(role);
  return (
    <div
      className={`wsr-turn${mine ? " wsr-turn--mine" : ""}`}
      data-testid="run-message"
      data-role={message.role}
      data-kind={message.kind}
      data-status={message.status}
    >
      <RoleAvatar role={role} name={message.role} place={place} size={34} />
      <div className="wsr-turn__main">
        <div className="wsr-turn__name">
          {message.role}
          {mine && <span className="wsr-turn__you">{t("run.you")}</span>}
        </div>
        {developer && message.instruction && (
          <div className="wsr-turn__instruction" data-testid="run-instruction">
            {t("run.host_instruction", { instruction: message.instruction })}
          </div>
        )}
        <div className="wsr-bubble" data-testid="run-message-text">
          <Body message={message} />
        </div>
      </div>
    </div>
  );
});

function NodeLine({ index, nodes }: { index: number; nodes: TRunView["nodes"] }) {
  const { t } = useTranslation("workshops");
  const node = nodes[index];
  return (
    <div className="wsr-node" role="separator" data-testid="run-node" data-index={index}>
      <span>
        {t("run.node", { n: index + 1, name: node?.name ?? "" })}
        {node && <small> · {t(`editor.nodes.mode.${node.speechMode}`)}</small>}
      </span>
    </div>
  );
}

export function RunMessages({
  messages,
  roles,
  nodes,
  developer,
}: {
  messages: TRunMessageView[];
  roles: TRunRole[];
  nodes: TRunView["nodes"];
  developer: boolean;
}) {
  const { t } = useTranslation("workshops");
  const byName = new Map(roles.map((r, i) => [r.name, { role: r, place: i }]));
  const out: JSX.Element[] = [];
  let node = -1;
  for (const m of messages) {
    if (m.kind === "topic") {
      out.push(
        <div key={m.id} className="wsr-topic" data-testid="run-topic">
          <small>{t("run.topic")}</small>
          <p>{m.content}</p>
        </div>,
      );
      continue;
    }
    if (m.nodeIndex !== node) {
      node = m.nodeIndex;
      out.push(<NodeLine key={`node-${node}-${m.id}`} index={node} nodes={nodes} />);
    }
    const known = byName.get(m.role);
    out.push(<Turn key={m.id} message={m} role={known?.role} place={known?.place ?? -1} developer={developer} />);
  }
  return <>{out}</>;
}
