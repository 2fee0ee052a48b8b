// The digital human on the phone page: the figure (its greeting, its idle loop or a reply's
// lip-synced clip, keyed in the page with ffmpeg colorkey's formula, as renders key it) standing
// where the app's scene places it, over the scene's background. Upright scenes fill the screen's
// height behind the chat, as on a phone call; wide scenes sit above it.
import { SoundOutlined } from "@ant-design/icons";
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import type { TH5Stage } from "../../../server/digital/app-stage.schema";
import { keyPixels } from "../figures/color-key";
import { figureBox, stageAspect, type TSize } from "../digital-editor/placement";
import type { TDigitalStage } from "./use-digital-stage";

/** The page keys at most this many pixels a side: enough for a phone, cheap enough for every frame. */
const KEY_MAX_SIDE = 540;

/** The scene's size in the element: upright scenes take the full height, wide ones the full width. */
function sceneSize(box: TSize, stage: TH5Stage): TSize {
  const aspect = stageAspect(stage.orientation);
  return stage.orientation === "vertical" ? { width: box.height * aspect, height: box.height } : { width: box.width, height: box.width / aspect };
}

/** Keys each new frame of the playing video into the canvas; a frame that cannot be read shows the video itself. */
function useKeyedFrames(video: React.RefObject<HTMLVideoElement | null>, canvas: React.RefObject<HTMLCanvasElement | null>, stage: TH5Stage, src: string) {
  const [raw, setRaw] = useState(false);
  useEffect(() => {
    const key = stage.figure?.key;
    const v = video.current;
    if (!v || !key) return;
    let handle = 0;
    let shown = -1;
    const step = () => {
      const c = canvas.current;
      if (c && v.readyState >= 2 && v.videoWidth && v.currentTime !== shown) {
        shown = v.currentTime;
        const scale = Math.min(1, KEY_MAX_SIDE / Math.max(v.videoWidth, v.videoHeight));
        const width = Math.round(v.videoWidth * scale);
        const height = Math.round(v.videoHeight * scale);
        if (c.width !== width || c.height !== height) Object.assign(c, { width, height });
        const ctx = c.getContext("2d", { willReadFrequently: true });
        try {
          ctx?.drawImage(v, 0, 0, width, height);
          const frame = ctx?.getImageData(0, 0, width, height);
          if (ctx && frame) {
            keyPixels(frame.data, frame.data, key);
            ctx.putImageData(frame, 0, 0);
          }
        } catch {
          // A video from another origin cannot be read: it shows as filmed.
          setRaw(true);
          return;
        }
      }
      handle = requestAnimationFrame(step);
    };
    handle = requestAnimationFrame(step);
    return () => cancelAnimationFrame(handle);
  }, [video, canvas, stage.figure?.key, src]);
  return raw;
}

export function H5Stage({ stage, state }: { stage: TH5Stage; state: TDigitalStage }) {
  const { t } = useTranslation("h5");
  const host = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [box, setBox] = useState<TSize>({ width: 0, height: 0 });
  const [aspect, setAspect] = useState(9 / 16);
  const [framed, setFramed] = useState(false);
  const { say, figure } = state;
  const raw = useKeyedFrames(video, canvas, stage, say?.src ?? "");

  useLayoutEffect(() => {
    const el = host.current;
    if (!el) return;
    const measure = () => setBox({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Each new source plays at once: with sound when it has some, else (or when refused) muted.
  const { onSoundRefused } = state;
  useEffect(() => {
    const v = video.current;
    if (!v || !say) return;
    v.muted = say.muted;
    v.play().catch((err: Error) => {
      if (err.name === "NotAllowedError" && !say.muted) onSoundRefused();
    });
  }, [say, onSoundRefused]);

  const scene = sceneSize(box, stage);
  const fig = figureBox(stage.placement, scene, aspect);
  const sceneStyle: CSSProperties = {
    width: scene.width,
    height: scene.height,
    background: stage.background.kind === "color" ? stage.background.color : "#111",
  };
  const figStyle: CSSProperties = { left: fig.left, top: fig.top, width: fig.width, height: fig.height };

  return (
    <div ref={host} className={`h5-stage h5-stage--${stage.orientation}`} data-testid="h5-stage" data-mode={say?.mode ?? "none"} data-speaking={state.speaking}>
      <div className="h5-stage__scene" style={sceneStyle}>
        {stage.background.kind === "image" && <img className="h5-stage__bg" src={stage.background.url} alt="" />}
        {stage.background.kind === "video" && <video className="h5-stage__bg" src={stage.background.url} muted loop autoPlay playsInline />}
        {figure && figure.posterUrl && !framed && (
          <img
            className="h5-stage__figure"
            style={figStyle}
            src={figure.posterUrl}
            alt={figure.name}
            onLoad={(e) => setAspect(e.currentTarget.naturalWidth / e.currentTarget.naturalHeight || aspect)}
          />
        )}
        {figure && say && (
          <>
            <video
              key={say.key}
              ref={video}
              className={raw ? "h5-stage__figure" : "h5-stage__source"}
              style={raw ? figStyle : undefined}
              src={say.src}
              loop={say.mode === "idle"}
              playsInline
              preload="auto"
              data-testid="h5-stage-video"
              onLoadedData={(e) => {
                const v = e.currentTarget;
                if (v.videoWidth) setAspect(v.videoWidth / v.videoHeight);
                setFramed(true);
              }}
              onEnded={state.toIdle}
              onError={state.toIdle}
            />
            {!raw && (
              <canvas ref={canvas} className="h5-stage__figure" style={{ ...figStyle, visibility: framed ? "visible" : "hidden" }} aria-label={figure.name} />
            )}
          </>
        )}
      </div>
      <div className="h5-stage__notes" aria-live="polite">
        {!figure && <span className="h5-pill">{t("stage.no_figure")}</span>}
        {figure && !state.running && (
          <span className="h5-pill" data-testid="h5-stage-resting">
            {t("stage.resting")}
          </span>
        )}
        {state.preparing && (
          <span className="h5-pill" data-testid="h5-stage-preparing">
            {t("stage.preparing")}
          </span>
        )}
        {state.speaking && (
          <span className="h5-pill h5-stage__speaking" data-testid="h5-stage-speaking">
            {t("stage.speaking")}
          </span>
        )}
        {state.needsTap && (
          <button type="button" className="h5-pill h5-stage__tap" onClick={state.unmute} data-testid="h5-stage-unmute">
            <SoundOutlined /> {t("stage.tap_for_sound")}
          </button>
        )}
      </div>
    </div>
  );
}
