// Voice in and out for the H5 chat. Recording uses the browser's MediaRecorder (tap to start, tap
// to stop); the clip is transcribed on the server. Replies are spoken by fetching the server's
// speech audio and playing it with one shared <audio> element, so a new reply stops the last one.
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchSpeech, refusalText, transcribeVoice } from "./h5-api";

/** A clip type this browser records in: Safari records mp4, Chromium and Firefox webm/ogg. */
function pickMimeType() {
  if (typeof MediaRecorder === "undefined") return null;
  for (const type of ["audio/webm;codecs=opus", "audio/webm", "audio/mp4", "audio/ogg;codecs=opus"]) if (MediaRecorder.isTypeSupported(type)) return type;
  return "";
}

export function useVoiceRecorder(appId: string, onText: (text: string) => void, onError: (message: string) => void) {
  const { t } = useTranslation("h5");
  const [state, setState] = useState<"idle" | "recording" | "transcribing">("idle");
  const recorder = useRef<MediaRecorder | null>(null);
  const supported = typeof window !== "undefined" && typeof MediaRecorder !== "undefined" && !!navigator.mediaDevices?.getUserMedia;

  useEffect(() => () => recorder.current?.stream.getTracks().forEach((t) => t.stop()), []);

  const start = useCallback(async () => {
    const mimeType = pickMimeType();
    if (mimeType === null) return;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const rec = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
      rec.onstop = async () => {
        stream.getTracks().forEach((t) => t.stop());
        recorder.current = null;
        const clip = new Blob(chunks, { type: rec.mimeType || mimeType || "audio/webm" });
        if (clip.size === 0) return setState("idle");
        setState("transcribing");
        try {
          const { text } = await transcribeVoice(appId, clip);
          if (text.trim()) onText(text.trim());
        } catch (err) {
          onError(refusalText(err, t("input.voice_failed")));
        } finally {
          setState("idle");
        }
      };
      recorder.current = rec;
      rec.start();
      setState("recording");
    } catch {
      // Refused or no device: getUserMedia's own message is in the browser's language, not the reader's.
      onError(t("input.voice_denied"));
      setState("idle");
    }
  }, [appId, onText, onError, t]);

  const stop = useCallback(() => recorder.current?.state === "recording" && recorder.current.stop(), []);
  return { supported, state, start, stop };
}

export function useSpeechPlayer(appId: string, onError: (message: string) => void) {
  const { t } = useTranslation("h5");
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playingKey, setPlayingKey] = useState<string | null>(null);

  useEffect(() => () => audio.current?.pause(), []);

  /** Plays a reply: from its kept audio when the server spoke it already, else asks for it. */
  const play = useCallback(
    async (key: string, text: string, audioUrl?: string) => {
      audio.current?.pause();
      if (playingKey === key) return setPlayingKey(null);
      setPlayingKey(key);
      try {
        const src = audioUrl ?? URL.createObjectURL(await fetchSpeech(appId, text));
        const el = audio.current ?? (audio.current = new Audio());
        if (el.src.startsWith("blob:")) URL.revokeObjectURL(el.src);
        el.src = src;
        el.onended = () => setPlayingKey(null);
        await el.play();
      } catch (err) {
        setPlayingKey(null);
        // Auto-play before any tap is refused by the browser: not worth an error.
        if ((err as Error).name !== "NotAllowedError") onError(refusalText(err, t("chat.speak_failed")));
      }
    },
    [appId, playingKey, onError, t],
  );
  return { play, playingKey };
}
