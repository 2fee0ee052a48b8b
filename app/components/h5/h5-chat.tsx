// The H5 app's chat (/mobi/dialogue?app=): background, welcome messages, recommended questions,
// the menu bar, conversation or Q&A style, streamed markdown answers, history, feedback,
// regenerate, share, voice and image input, spoken replies, the free uses left today, and the
// agent's variables asked for before the first message and sent with every turn.
import { HistoryOutlined, ShareAltOutlined } from "@ant-design/icons";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TH5App, TH5MenuItem } from "../../../server/apps/h5-view.service";
import { AppLink } from "../app-link";
import { buildDisplayRows, type TChatMessage, type TFeedback } from "../chat/chat-state";
import { useChatStream } from "../chat/use-chat-stream";
import { useAutoscroll } from "../chat/use-autoscroll";
import { fetchEntitlement, toAppChatApi, type TEntitlement } from "./h5-api";
import { useAppText } from "./h5-app-card";
import { H5History } from "./h5-history";
import { H5Input } from "./h5-input";
import { H5MenuBar, MenuReply } from "./h5-menu-bar";
import { H5Message } from "./h5-message";
import { H5PlanSheet } from "./h5-plan-sheet";
import { useToast } from "./h5-toast";
import { H5Variables, useH5Variables } from "./h5-variables";
import { useSpeechPlayer } from "./use-voice";
import { H5Stage } from "./h5-stage";
import { useDigitalStage } from "./use-digital-stage";
import { copyText } from "../../lib/clipboard";

type TMenuNote = { at: number; item: TH5MenuItem; key: number };

export function H5Chat({ app, viewerId }: { app: TH5App; viewerId: string | null }) {
  const { t } = useTranslation("h5");
  const text = useAppText(app);
  const chatApi = useMemo(() => toAppChatApi(app.style), [app.style]);
  const chat = useChatStream(app.id, chatApi);
  const toast = useToast();
  const [entitlement, setEntitlement] = useState<TEntitlement | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [plansOpen, setPlansOpen] = useState(false);
  const [bought, setBought] = useState(0);
  const { t: tp } = useTranslation("purchases");
  const [notes, setNotes] = useState<TMenuNote[]>([]);
  const speaks = app.outputModes.includes("voice");
  const speech = useSpeechPlayer(app.id, toast.show);
  const qa = app.style === "qa";
  const { messages } = chat.state;
  const listRef = useRef<HTMLDivElement>(null);
  const scroll = useAutoscroll(listRef, messages);
  const vars = useH5Variables(app.variables, app.id);
  const stage = useDigitalStage(app.id, app.stage);

  // The free uses left today: read at first and again after every reply.
  useEffect(() => {
    if (chat.streaming) return;
    let live = true;
    fetchEntitlement(app.id)
      .then((e) => live && setEntitlement(e))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [app.id, chat.streaming, bought]);

  // Auto-play: a reply that has just finished is played from the audio its stream closed with (the
  // server spoke it already); a reply that came without one stays silent until tapped.
  const lastSpoken = useRef<string | null>(null);
  const lastReply = [...messages].reverse().find((m) => m.role === "assistant");
  // A digital human speaks every reply itself (its clip, or its audio over the idle loop).
  const speakOnStage = stage.speak;
  useEffect(() => {
    if (!(app.stage || (speaks && app.autoPlay)) || !lastReply || lastReply.status !== "done" || !lastReply.id || lastSpoken.current === lastReply.id) return;
    lastSpoken.current = lastReply.id;
    if (!lastReply.audio) return;
    if (app.stage) void speakOnStage(lastReply.id, lastReply.audio);
    else void speech.play(lastReply.key, lastReply.content, lastReply.audio);
  }, [speaks, app.autoPlay, app.stage, lastReply, speech, speakOnStage]);

  const chatSend = chat.send;
  const commitVariables = vars.commit;
  const showToast = toast.show;
  // A message waits for the variables: refused here (the form shows why), it is not sent and the input keeps it.
  const send = useCallback(
    (content: string, images: string[] = []) => {
      const given = commitVariables();
      if ("error" in given) {
        showToast(given.error);
        return false;
      }
      scroll.follow();
      chatSend({ content, images, variables: given.values });
      return true;
    },
    [chatSend, scroll, commitVariables, showToast],
  );

  const setFeedback = chat.setFeedback;
  const onFeedback = useCallback(
    (m: TChatMessage, f: TFeedback) => {
      setFeedback(m, f).then(
        () => f !== "none" && toast.show(t(f === "liked" ? "chat.liked" : "chat.disliked")),
        (err: Error) => toast.show(err.message),
      );
    },
    [setFeedback, toast, t],
  );

  const onCopy = useCallback(
    (value: string) => {
      copyText(value).then(
        (ok) => toast.show(t(ok ? "chat.copied" : "chat.copy_failed")),
        () => toast.show(t("chat.copy_failed")),
      );
    },
    [toast, t],
  );

  const share = useCallback(async () => {
    const q = new URLSearchParams({ app: app.id });
    const touser = viewerId ?? new URLSearchParams(window.location.search).get("touser");
    if (touser) q.set("touser", touser);
    const url = `${window.location.origin}/share?${q}`;
    if (navigator.share) {
      try {
        await navigator.share({ title: text.name, text: text.introduction.slice(0, 80), url });
        return;
      } catch (err) {
        if ((err as Error).name === "AbortError") return;
      }
    }
    toast.show((await copyText(url).catch(() => false)) ? t("chat.link_copied") : url);
  }, [app.id, viewerId, text, toast, t]);

  const sellsPlans = (entitlement?.plans.length ?? 0) > 0 && !app.isOwner;
  const refusalHint = useCallback(
    (status: number) =>
      status === 420003 && !sellsPlans ? (
        <p className="h5-hint">{t("refusal.tomorrow")}</p>
      ) : (
        <p className="h5-hint">
          {status === 420003 ? t("refusal.tomorrow") : t("refusal.purchase")}{" "}
          <button type="button" className="h5-link h5-link-btn" onClick={() => setPlansOpen(true)} data-testid="h5-purchase">
            {t("refusal.see_plans")}
          </button>
        </p>
      ),
    [sellsPlans, t],
  );
  const held = entitlement?.purchase && entitlement.basis === "plan" ? entitlement.purchase : null;

  const rows = buildDisplayRows(messages);
  const lastRow = rows[rows.length - 1];
  const notesAt = (n: number) => notes.filter((x) => x.at === n).map((x) => <MenuReply key={`note-${x.key}`} item={x.item} />);
  // The owner (basis "owner") and apps without a free count show no counter.
  const remaining = app.freePerDay > 0 && entitlement && entitlement.basis !== "owner" && entitlement.basis !== "plan" ? entitlement.remainingToday : null;
  const empty = rows.length === 0;

  return (
    <div
      className={`h5-chat${qa ? " h5-chat--qa" : ""}${app.stage ? ` h5-chat--digital h5-chat--digital-${app.stage.orientation}` : ""}`}
      style={app.backgroundUrl ? { backgroundImage: `url("${app.backgroundUrl.replace(/"/g, "%22")}")` } : undefined}
      data-testid="h5-chat"
      data-style={app.style}
    >
      {app.stage && <H5Stage stage={app.stage} state={stage} />}
      <header className="h5-chat__head">
        <AppLink to={`/mobi/intro?app=${encodeURIComponent(app.id)}`} className="h5-chat__title" aria-label={t("chat.about")}>
          <img src={app.iconUrl} alt="" width={32} height={32} onError={(e) => (e.currentTarget.style.visibility = "hidden")} />
          <span>{text.name}</span>
        </AppLink>
        <div className="h5-chat__tools">
          {remaining !== null && remaining !== undefined && !(remaining === 0 && sellsPlans) && (
            <span className={`h5-pill${remaining === 0 ? " is-empty" : ""}`} data-testid="h5-remaining">
              {t("chat.remaining", { count: remaining })}
            </span>
          )}
          {sellsPlans && (
            <button type="button" className="h5-pill h5-plans-pill" onClick={() => setPlansOpen(true)} data-testid="h5-plans-open">
              {held
                ? held.kind === "days"
                  ? tp("held.days", { count: held.days_left ?? 0 })
                  : tp("held.uses", { count: held.uses_left ?? 0 })
                : tp("sheet.title")}
            </button>
          )}
          <button type="button" className="h5-icon-btn" aria-label={t("history.title")} onClick={() => setHistoryOpen(true)} data-testid="h5-history-open">
            <HistoryOutlined />
          </button>
          <button type="button" className="h5-icon-btn" aria-label={t("chat.share")} onClick={() => void share()} data-testid="h5-share-button">
            <ShareAltOutlined />
          </button>
        </div>
      </header>
      <H5Variables state={vars} />

      <div className="h5-chat__list" ref={listRef} onScroll={scroll.onScroll} data-testid="h5-messages">
        {app.welcomeMessages.map((w, i) => (
          <div key={`w${i}`} className="h5-msg h5-msg--bot" data-testid="h5-welcome">
            <div className="h5-bubble h5-plain">{w}</div>
          </div>
        ))}
        {qa && empty && <p className="h5-qa-note">{t("chat.qa_note")}</p>}
        {notesAt(0)}
        {rows.map((row, i) => {
          const msg = row.versions[row.versions.length - 1];
          const canRegenerate = msg.role === "assistant" && !chat.streaming && (!qa || row === lastRow);
          return (
            <div key={row.key} className="h5-row">
              <H5Message
                msg={msg}
                qa={qa}
                actions={{
                  onFeedback,
                  onCopy,
                  onRegenerate: canRegenerate ? (m) => chat.regenerate(m, { variables: vars.values }) : undefined,
                  onSpeak: speaks ? (m) => void speech.play(m.key, m.content, m.audio) : undefined,
                  speaking: speech.playingKey === msg.key,
                  refusalHint,
                }}
              />
              {notesAt(i + 1)}
            </div>
          );
        })}
        {app.recommendedQuestions.length > 0 && (empty || qa) && !chat.streaming && (
          <div className="h5-chips" data-testid="h5-recommended">
            <span className="h5-muted">{t("chat.try_asking")}</span>
            {app.recommendedQuestions.map((q) => (
              <button key={q} type="button" className="h5-chip" onClick={() => send(q)} data-testid="h5-chip">
                {q}
              </button>
            ))}
          </div>
        )}
      </div>

      <footer className="h5-chat__foot">
        <H5MenuBar items={app.menuItems} onReply={(item) => setNotes((n) => [...n, { at: rows.length, item, key: n.length }])} />
        <H5Input appId={app.id} inputModes={app.inputModes} streaming={chat.streaming} onSend={send} onStop={chat.stop} onError={toast.show} />
      </footer>
      {historyOpen && (
        <H5History
          appId={app.id}
          currentId={chat.state.dialogueId}
          onClose={() => setHistoryOpen(false)}
          onNew={() => {
            chat.reset();
            setNotes([]);
            setHistoryOpen(false);
          }}
          onPick={(id) => {
            setHistoryOpen(false);
            setNotes([]);
            chat
              .load(id)
              .then((d) => vars.adopt(d.dialogue.variables))
              .catch((err: Error) => toast.show(err.message));
          }}
        />
      )}
      {plansOpen && (
        <H5PlanSheet
          appId={app.id}
          onClose={() => setPlansOpen(false)}
          onBought={() => {
            setPlansOpen(false);
            setBought((n) => n + 1);
            toast.show(tp("done"));
          }}
        />
      )}
      {toast.node}
    </div>
  );
}
