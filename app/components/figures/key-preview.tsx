// The keying editor's live preview: the figure's clip plays (muted, looping) into a canvas, and each
// frame is keyed in the page with ffmpeg colorkey's own formula (color-key.ts) over a checkerboard
// or a chosen colour, so what is seen here is what renders make. Settings that change while the
// clip is paused key the frame on screen again. A click on the picture picks the key colour there.
import { PauseCircleOutlined, PlayCircleOutlined } from "@ant-design/icons";
import { Alert, Button } from "antd";
import { useCallback, useEffect, useRef, useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import type { TKeySettings } from "../../../server/digital/digital.schema";
import { keyPixels, toHexColor } from "./color-key";

/** The preview keys at most this many pixels a side: enough to judge the edge, cheap enough for every frame. */
const PREVIEW_MAX_SIDE = 640;

export type TPreviewBackground = { kind: "checker" } | { kind: "color"; color: string };

type TFrames = { raw: ImageData | null; keyed: ImageData | null };

function previewSize(video: HTMLVideoElement) {
  const scale = Math.min(1, PREVIEW_MAX_SIDE / Math.max(video.videoWidth, video.videoHeight));
  return { width: Math.max(1, Math.round(video.videoWidth * scale)), height: Math.max(1, Math.round(video.videoHeight * scale)) };
}

/** Keys the stored raw frame with the settings and shows it; answers the share of pixels keyed out. */
function showKeyed(canvas: HTMLCanvasElement, frames: TFrames, settings: TKeySettings) {
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  if (!ctx || !frames.raw) return 0;
  if (!frames.keyed || frames.keyed.width !== frames.raw.width || frames.keyed.height !== frames.raw.height) {
    frames.keyed = ctx.createImageData(frames.raw.width, frames.raw.height);
  }
  const cleared = keyPixels(frames.raw.data, frames.keyed.data, settings);
  ctx.putImageData(frames.keyed, 0, 0);
  return cleared / (frames.raw.width * frames.raw.height);
}

/** Takes the video's current frame as the raw frame (scaled to the preview's size). */
function grabFrame(video: HTMLVideoElement, canvas: HTMLCanvasElement, frames: TFrames) {
  if (video.readyState < 2 || !video.videoWidth) return false;
  const { width, height } = previewSize(video);
  if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  if (!ctx) return false;
  ctx.drawImage(video, 0, 0, width, height);
  frames.raw = ctx.getImageData(0, 0, width, height);
  return true;
}

export function KeyPreview({
  src,
  settings,
  background,
  onPick,
}: {
  src: string;
  settings: TKeySettings;
  background: TPreviewBackground;
  onPick: (color: string) => void;
}) {
  const { t } = useTranslation("figures");
  const video = useRef<HTMLVideoElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frames = useRef<TFrames>({ raw: null, keyed: null });
  const latest = useRef(settings);
  latest.current = settings;
  const [playing, setPlaying] = useState(true);
  const [failed, setFailed] = useState(false);
  const [keyedShare, setKeyedShare] = useState(0);

  const render = useCallback(() => {
    if (canvas.current) setKeyedShare(showKeyed(canvas.current, frames.current, latest.current));
  }, []);

  // Every new frame of the playing clip is grabbed and keyed.
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    let stopped = false;
    let handle = 0;
    let shownTime = -1;
    // Each animation frame takes the clip's picture when it moved on (a paused clip costs nothing).
    const step = () => {
      if (stopped) return;
      if (canvas.current && v.currentTime !== shownTime && grabFrame(v, canvas.current, frames.current)) {
        shownTime = v.currentTime;
        render();
      }
      handle = requestAnimationFrame(step);
    };
    handle = requestAnimationFrame(step);
    return () => {
      stopped = true;
      cancelAnimationFrame(handle);
    };
  }, [src, render]);

  // New settings key the frame on screen at once (the clip may be paused).
  useEffect(() => render(), [settings.color, settings.similarity, settings.blend, render]);

  const toggle = () => {
    const v = video.current;
    if (!v) return;
    if (v.paused) void v.play().catch(() => setPlaying(false));
    else v.pause();
  };

  const pick = (e: MouseEvent<HTMLCanvasElement>) => {
    const c = canvas.current;
    const raw = frames.current.raw;
    if (!c || !raw) return;
    const rect = c.getBoundingClientRect();
    const x = Math.min(raw.width - 1, Math.max(0, Math.floor(((e.clientX - rect.left) / rect.width) * raw.width)));
    const y = Math.min(raw.height - 1, Math.max(0, Math.floor(((e.clientY - rect.top) / rect.height) * raw.height)));
    const i = (y * raw.width + x) * 4;
    onPick(toHexColor([raw.data[i], raw.data[i + 1], raw.data[i + 2]]));
  };

  const stage = background.kind === "checker" ? "figures-stage figures-checker" : "figures-stage";
  return (
    <div className="figures-preview">
      <div className={stage} style={background.kind === "color" ? { background: background.color } : undefined}>
        <canvas
          ref={canvas}
          className="figures-stage__canvas"
          onClick={pick}
          title={t("key.pick_hint")}
          data-testid="key-preview-canvas"
          data-keyed-share={keyedShare.toFixed(3)}
        />
      </div>
      <video
        ref={video}
        className="figures-preview__source"
        src={src}
        muted
        loop
        autoPlay
        playsInline
        preload="auto"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onError={() => setFailed(true)}
        aria-hidden
      />
      {failed && <Alert type="warning" showIcon message={t("key.cannot_play")} />}
      <div className="figures-preview__bar">
        <Button size="small" icon={playing ? <PauseCircleOutlined /> : <PlayCircleOutlined />} onClick={toggle} data-testid="key-preview-toggle">
          {t(playing ? "key.pause" : "key.play")}
        </Button>
        <span className="figures-preview__hint">{t("key.pick_hint")}</span>
      </div>
    </div>
  );
}
