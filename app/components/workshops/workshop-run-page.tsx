// The run page (/workshop): who is in the room, a topic to start a run, then the conversation as
// it is written, the person's input when it is their turn, Stop, and why the run ended with a way
// to run it again. ?id= is the developer's debug run of their draft, ?app= a workshop app's run for
// its consumer (no account needed). Plain elements, no antd: consumers open it on phones.
import { ArrowLeftOutlined, HistoryOutlined } from "@ant-design/icons";
import { useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TRunSummary } from "../../../server/workshops/workshops.schema";
import { RunFoot } from "./run-foot";
import { RunHistory } from "./run-history";
import { RunIntro, RunRefusal } from "./run-notes";
import { RunMessages } from "./run-messages";
import { RolesStrip } from "./run-roles";
import type { TRunMode } from "./run-api";
import { useWorkshopRun } from "./use-workshop-run";
import { useWorkshopHref, workshopEditorPath } from "./workshop-links";
import type { TRunPageData } from "./workshop-run.server";
import "../../styles/chat.css";
import "../../styles/h5.css";
import "./workshop-run.css";

type TSubjectData = Exclude<TRunPageData, { kind: "none" }>;

/** Keeps the list beside what the page knows of the open run. */
function withRun(runs: TRunSummary[], run: TRunSummary): TRunSummary[] {
  return runs.some((r) => r.id === run.id) ? runs.map((r) => (r.id === run.id ? { ...r, status: run.status, endReason: run.endReason } : r)) : [run, ...runs];
}

export function WorkshopRunPage({ data }: { data: TSubjectData }) {
  const { t } = useTranslation("workshops");
  const href = useWorkshopHref();
  const [params, setParams] = useSearchParams();
  const mode: TRunMode = useMemo(() => (data.kind === "debug" ? { kind: "debug", workshopId: data.workshopId } : { kind: "app", appId: data.appId }), [data]);
  const [runs, setRuns] = useState(data.runs);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [topic, setTopic] = useState("");
  const onOpened = useCallback(
    (id: string | null) =>
      setParams(
        (p) => {
          if (id) p.set("run", id);
          else p.delete("run");
          return p;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );
  const run = useWorkshopRun(mode, params.get("run"), onOpened);
  const { head, messages } = run.state;
  const topicMessage = messages.find((m) => m.kind === "topic");
  const speaking = [...messages].reverse().find((m) => m.status === "streaming")?.role ?? null;
  const roles = head?.roles ?? data.lineup?.roles ?? [];

  useEffect(() => {
    if (topicMessage) setTopic(topicMessage.content);
  }, [topicMessage]);
  useEffect(() => {
    if (head && run.runId && topicMessage)
      setRuns((list) =>
        withRun(list, { id: run.runId!, topic: topicMessage.content, status: head.status, endReason: head.endReason, createdAt: new Date().toISOString() }),
      );
  }, [head, run.runId, topicMessage]);

  const list = useRef<HTMLDivElement>(null);
  useFollowBottom(list, messages);

  const start = async (text: string) => {
    setTopic(text);
    return run.start(text);
  };
  const pick = (id: string | null) => {
    setHistoryOpen(false);
    run.open(id);
  };

  return (
    <main className="wsr" data-testid="workshop-run" data-mode={data.kind} data-run-id={run.runId ?? ""} data-status={head?.status ?? ""}>
      <header className="wsr-head">
        {data.kind === "debug" && (
          <a href={href(workshopEditorPath(data.workshopId))} className="h5-icon-btn" aria-label={t("run.back")} title={t("run.back")} data-testid="run-back">
            <ArrowLeftOutlined />
          </a>
        )}
        {data.iconUrl ? <img className="wsr-head__icon" src={data.iconUrl} alt="" /> : null}
        <div className="wsr-head__text">
          <h1 data-testid="run-title">{data.title}</h1>
          <p>{data.kind === "debug" ? t("run.debug_subtitle") : t("run.app_subtitle", { developer: data.developer })}</p>
        </div>
        <button
          type="button"
          className="h5-icon-btn"
          aria-label={t("run.history")}
          title={t("run.history")}
          onClick={() => setHistoryOpen(true)}
          data-testid="run-history-open"
        >
          <HistoryOutlined />
        </button>
      </header>
      <RolesStrip roles={roles} speaking={speaking} waiting={head?.waitingFor ?? null} />
      <div className="wsr-list" ref={list} data-testid="run-messages">
        {!run.runId && <RunIntro data={data} />}
        <RunMessages messages={messages} roles={roles} nodes={head?.nodes ?? data.lineup?.nodes ?? []} developer={data.kind === "debug"} />
        {run.refusal && <RunRefusal text={run.refusal.text} status={run.refusal.status} appId={data.kind === "app" ? data.appId : null} />}
      </div>
      <footer className="wsr-foot">
        {data.lineup || run.runId ? (
          <RunFoot
            runId={run.runId}
            head={head}
            busy={run.busy}
            topic={topic}
            refused={Boolean(run.refusal)}
            onStart={start}
            onSend={run.send}
            onStop={() => void run.stop()}
            onNewTopic={() => run.open(null)}
          />
        ) : (
          <p className="wsr-status">{t("run.incomplete")}</p>
        )}
      </footer>
      {historyOpen && <RunHistory runs={runs} currentId={run.runId} onPick={pick} onNew={() => pick(null)} onClose={() => setHistoryOpen(false)} />}
    </main>
  );
}

/** Keeps the newest words in view while the reader is at the bottom; leaves them be when they scrolled up. */
function useFollowBottom(box: React.RefObject<HTMLDivElement | null>, messages: unknown[]) {
  const atBottom = useRef(true);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onScroll = () => (atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80);
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [box]);
  useEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [box, messages]);
}
