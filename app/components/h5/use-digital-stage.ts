// What a digital human on the phone page does: it runs while the page is open (the instance is
// opened once), greets on open, and speaks each reply, as a lip-synced clip when the server makes
// one for this consumer (asked again every few seconds until it is there), else over its idle loop.
// A browser that will not play sound before a tap plays the greeting muted and asks for the tap.
import { useCallback, useEffect, useRef, useState } from "react";
import { apiRequest } from "../../lib/api-client";
import type { TClipView, TH5Stage, TStageOpen } from "../../../server/digital/app-stage.schema";

/** How long a reply waits for its clip before it is spoken over the idle loop instead. */
const CLIP_WAIT_MS = 120_000;
const CLIP_POLL_MS = 3_000;

export type TStageMode = "greeting" | "idle" | "clip";
export type TStageSay = { key: number; mode: TStageMode; src: string; muted: boolean };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

async function waitForClip(appId: string, messageId: string, signal: AbortSignal): Promise<string | null> {
  const until = Date.now() + CLIP_WAIT_MS;
  while (!signal.aborted && Date.now() < until) {
    const view = await apiRequest<TClipView>("/api/v2/app/digital/clip", { body: { app_id: appId, message_id: messageId }, json: true }).catch(() => null);
    if (!view || view.state === "unavailable" || view.state === "failed") return null;
    if (view.state === "done" && view.url) return view.url;
    await sleep(CLIP_POLL_MS, signal);
  }
  return null;
}

export function useDigitalStage(appId: string, stage: TH5Stage | null) {
  const figure = stage?.figure ?? null;
  const [say, setSay] = useState<TStageSay | null>(() =>
    figure ? { key: 0, mode: figure.greetingUrl ? "greeting" : "idle", src: figure.greetingUrl ?? figure.loopUrl, muted: !figure.greetingUrl } : null,
  );
  const [running, setRunning] = useState(true);
  const [preparing, setPreparing] = useState(false);
  const [speaking, setSpeaking] = useState(false);
  const [needsTap, setNeedsTap] = useState(false);
  const audio = useRef<HTMLAudioElement | null>(null);
  const refusedAudio = useRef<string | null>(null);
  const pending = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!stage) return;
    let live = true;
    apiRequest<TStageOpen>("/api/v2/app/digital/open", { body: { app_id: appId }, json: true })
      .then((r) => live && setRunning(r.running))
      .catch(() => {});
    return () => {
      live = false;
      pending.current?.abort();
      audio.current?.pause();
    };
  }, [appId, stage]);

  const toIdle = useCallback(() => {
    setSpeaking(false);
    if (figure) setSay((s) => ({ key: (s?.key ?? 0) + 1, mode: "idle", src: figure.loopUrl, muted: true }));
  }, [figure]);

  const playAudio = useCallback((url: string) => {
    audio.current?.pause();
    const a = new Audio(url);
    audio.current = a;
    a.onended = () => setSpeaking(false);
    a.onerror = () => setSpeaking(false);
    setSpeaking(true);
    a.play().catch(() => {
      setSpeaking(false);
      refusedAudio.current = url;
      setNeedsTap(true);
    });
  }, []);

  /** A finished reply: its clip when one comes, else its audio over the idle loop. */
  const speak = useCallback(
    async (messageId: string, audioUrl: string) => {
      pending.current?.abort();
      const ctl = new AbortController();
      pending.current = ctl;
      audio.current?.pause();
      if (!stage?.lipsync || !figure) return playAudio(audioUrl);
      setPreparing(true);
      const clip = await waitForClip(appId, messageId, ctl.signal);
      if (ctl.signal.aborted) return;
      setPreparing(false);
      if (!clip) return playAudio(audioUrl);
      setSpeaking(true);
      setSay((s) => ({ key: (s?.key ?? 0) + 1, mode: "clip", src: clip, muted: false }));
    },
    [appId, stage, figure, playAudio],
  );

  /** The video could not play with sound before a tap: it plays muted until one. */
  const onSoundRefused = useCallback(() => {
    setNeedsTap(true);
    setSay((s) => (s ? { ...s, muted: true } : s));
  }, []);

  const unmute = useCallback(() => {
    setNeedsTap(false);
    const refused = refusedAudio.current;
    refusedAudio.current = null;
    if (refused) return playAudio(refused);
    setSay((s) => (s && s.mode !== "idle" ? { ...s, key: s.key + 1, muted: false } : s));
  }, [playAudio]);

  return { figure, say, running, preparing, speaking, needsTap, speak, toIdle, onSoundRefused, unmute };
}

export type TDigitalStage = ReturnType<typeof useDigitalStage>;
