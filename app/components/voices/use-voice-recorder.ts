// Recording from the microphone in the browser: MediaRecorder keeps the sound (WebM or Ogg with
// Opus, MP4 audio on Safari), a Web Audio AnalyserNode gives the live input level, and a timer
// gives the length the page checks against the voice's bounds (the server measures it again).
import { useCallback, useEffect, useRef, useState } from "react";

export type TRecorderState = "idle" | "starting" | "recording" | "recorded" | "unsupported" | "denied";
export type TRecording = { blob: Blob; url: string; durationMs: number; filename: string };

/** Containers in order of preference; the first the browser records is used. */
const MIME_PREFERENCES = ["audio/webm;codecs=opus", "audio/webm", "audio/ogg;codecs=opus", "audio/mp4"];
const TICK_MS = 100;
/** The quietest level the meter shows (dBFS); anything below reads as silence. */
const FLOOR_DB = -60;

function pickMime() {
  return MIME_PREFERENCES.find((m) => MediaRecorder.isTypeSupported?.(m)) ?? "";
}

function filenameFor(mime: string) {
  if (mime.includes("ogg")) return "recording.ogg";
  if (mime.includes("mp4")) return "recording.m4a";
  return "recording.webm";
}

/** The input's level from 0 (silence, FLOOR_DB or below) to 1 (full scale), from the signal's RMS. */
function readLevel(analyser: AnalyserNode, buffer: Float32Array<ArrayBuffer>) {
  analyser.getFloatTimeDomainData(buffer);
  let sum = 0;
  for (const s of buffer) sum += s * s;
  const rms = Math.sqrt(sum / buffer.length);
  const db = rms > 0 ? 20 * Math.log10(rms) : FLOOR_DB;
  return Math.max(0, Math.min(1, (db - FLOOR_DB) / -FLOOR_DB));
}

type TSession = { stream: MediaStream; context: AudioContext; recorder: MediaRecorder; timer: ReturnType<typeof setInterval>; startedAt: number };

export function useVoiceRecorder({ maxMs }: { maxMs: number }) {
  const [state, setState] = useState<TRecorderState>("idle");
  const [elapsedMs, setElapsedMs] = useState(0);
  const [level, setLevel] = useState(0);
  const [recording, setRecording] = useState<TRecording | null>(null);
  const session = useRef<TSession | null>(null);

  const release = useCallback(() => {
    const s = session.current;
    if (!s) return;
    session.current = null;
    clearInterval(s.timer);
    s.stream.getTracks().forEach((track) => track.stop());
    void s.context.close().catch(() => {});
    setLevel(0);
  }, []);

  const stop = useCallback(() => {
    const s = session.current;
    if (s && s.recorder.state !== "inactive") s.recorder.stop();
  }, []);

  const discard = useCallback(() => {
    setRecording((r) => {
      if (r) URL.revokeObjectURL(r.url);
      return null;
    });
    setElapsedMs(0);
  }, []);

  const start = useCallback(async () => {
    if (typeof navigator === "undefined" || !navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") return setState("unsupported");
    discard();
    setState("starting");
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      return setState("denied");
    }
    const mime = pickMime();
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    context.createMediaStreamSource(stream).connect(analyser);
    const buffer = new Float32Array(analyser.fftSize);
    const recorder = new MediaRecorder(stream, mime ? { mimeType: mime } : undefined);
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    const startedAt = performance.now();
    recorder.onstop = () => {
      const durationMs = Math.round(performance.now() - startedAt);
      const type = recorder.mimeType || mime || "audio/webm";
      const blob = new Blob(chunks, { type });
      release();
      setElapsedMs(durationMs);
      setRecording({ blob, url: URL.createObjectURL(blob), durationMs, filename: filenameFor(type) });
      setState("recorded");
    };
    const timer = setInterval(() => {
      const elapsed = performance.now() - startedAt;
      setElapsedMs(Math.round(elapsed));
      setLevel(readLevel(analyser, buffer));
      if (elapsed >= maxMs) stop();
    }, TICK_MS);
    session.current = { stream, context, recorder, timer, startedAt };
    recorder.start(1000);
    setState("recording");
  }, [discard, maxMs, release, stop]);

  const reset = useCallback(() => {
    if (session.current) {
      session.current.recorder.onstop = null;
      stop();
      release();
    }
    discard();
    setState("idle");
  }, [discard, release, stop]);

  // Leaving the page closes the microphone and frees the recording.
  useEffect(() => () => release(), [release]);
  useEffect(() => () => void (recording && URL.revokeObjectURL(recording.url)), [recording]);

  return { state, elapsedMs, level, recording, start, stop, reset };
}
