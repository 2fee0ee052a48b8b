// The stage: the background (a library picture or video, or a colour) and the figure's keyed still,
// which the creator drags to move (mouse, pen or touch), and sizes by its corner handle, the slider
// or the keyboard. The box is laid out in shares of the stage, so it is the same box at any width;
// a drag is shown as it goes and handed on once, when it ends.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import type { TOrientation, TPlacement } from "../../../server/digital/digital.schema";
import { dragBy, nudge, scaleByHandle, scalePercent, SCALE_RANGE, stageAspect, withScalePercent, type TPoint } from "./placement";
import type { TBackground } from "./scene";

type TStageFigure = { name: string; posterUrl: string; orientation: TOrientation };
type TGesture = {
  kind: "move" | "scale";
  pointerId: number;
  from: TPoint;
  start: TPlacement;
  centre: TPoint;
  stage: { width: number; height: number };
  /** Where the figure is now; read at the end, which may come before React renders the last move. */
  now: TPlacement | null;
};

const pointOf = (e: PointerEvent) => ({ x: e.clientX, y: e.clientY });

export function EditorStage({
  orientation,
  background,
  backgroundColor,
  figure,
  placement,
  onChange,
}: {
  orientation: TOrientation;
  background: TBackground | null;
  backgroundColor: string;
  figure: TStageFigure | null;
  placement: TPlacement;
  onChange: (placement: TPlacement) => void;
}) {
  const { t } = useTranslation("digital");
  const stageRef = useRef<HTMLDivElement>(null);
  const gesture = useRef<TGesture | null>(null);
  const [live, setLive] = useState<TPlacement | null>(null);
  const [aspect, setAspect] = useState<number | null>(null);
  const shown = live ?? placement;
  const figureAspect = aspect ?? stageAspect(figure?.orientation ?? "vertical");

  useEffect(() => setAspect(null), [figure?.posterUrl]);

  const begin = (kind: TGesture["kind"]) => (e: PointerEvent<HTMLElement>) => {
    const rect = stageRef.current?.getBoundingClientRect();
    if (!rect || gesture.current) return;
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const centre = { x: rect.left + shown.x * rect.width, y: rect.top + shown.y * rect.height };
    gesture.current = { kind, pointerId: e.pointerId, from: pointOf(e), start: shown, centre, stage: { width: rect.width, height: rect.height }, now: null };
  };
  const move = (e: PointerEvent<HTMLElement>) => {
    const g = gesture.current;
    if (!g || g.pointerId !== e.pointerId) return;
    const to = pointOf(e);
    g.now = g.kind === "move" ? dragBy(g.start, { x: to.x - g.from.x, y: to.y - g.from.y }, g.stage) : scaleByHandle(g.start, g.centre, g.from, to);
    setLive(g.now);
  };
  const end = (e: PointerEvent<HTMLElement>) => {
    const g = gesture.current;
    if (!g || g.pointerId !== e.pointerId) return;
    gesture.current = null;
    if (g.now) onChange(g.now);
    setLive(null);
  };
  const onKey = (e: KeyboardEvent<HTMLElement>) => {
    const next = nudge(shown, e.key, e.shiftKey);
    if (!next) return;
    e.preventDefault();
    onChange(next);
  };

  // In shares of the stage: the figure's height is `scale` of the stage's, its width follows the still's aspect.
  const widthShare = (shown.scale * figureAspect) / stageAspect(orientation);
  const box = {
    left: `${(shown.x - widthShare / 2) * 100}%`,
    top: `${(shown.y - shown.scale / 2) * 100}%`,
    width: `${widthShare * 100}%`,
    height: `${shown.scale * 100}%`,
  };

  return (
    <div className="digital-stage-wrap">
      <div
        ref={stageRef}
        className={`digital-stage digital-stage--${orientation}`}
        style={{ backgroundColor }}
        data-testid="digital-stage"
        data-orientation={orientation}
      >
        {background?.kind === "image" && (
          <img className="digital-stage__bg" src={background.url} alt="" draggable={false} data-testid="digital-stage-background" />
        )}
        {background?.kind === "video" && (
          <video className="digital-stage__bg" src={background.url} muted loop autoPlay playsInline data-testid="digital-stage-background" />
        )}
        {figure ? (
          <div
            className={`digital-stage__figure${live ? " digital-stage__figure--moving" : ""}`}
            style={box}
            role="group"
            tabIndex={0}
            aria-label={t("editor.stage.figure_label", { name: figure.name })}
            onPointerDown={begin("move")}
            onPointerMove={move}
            onPointerUp={end}
            onPointerCancel={end}
            onKeyDown={onKey}
            data-testid="digital-stage-figure"
            data-x={shown.x}
            data-y={shown.y}
            data-scale={shown.scale}
          >
            <img
              src={figure.posterUrl}
              alt={figure.name}
              draggable={false}
              onLoad={(e) => e.currentTarget.naturalHeight > 0 && setAspect(e.currentTarget.naturalWidth / e.currentTarget.naturalHeight)}
            />
            <span
              className="digital-stage__handle"
              aria-hidden
              onPointerDown={begin("scale")}
              onPointerMove={move}
              onPointerUp={end}
              onPointerCancel={end}
              data-testid="digital-stage-handle"
            />
          </div>
        ) : (
          <div className="digital-stage__empty">{t("editor.stage.no_figure")}</div>
        )}
      </div>
      <label className="digital-stage__scale">
        <span>{t("editor.stage.size")}</span>
        <input
          type="range"
          min={SCALE_RANGE.min * 100}
          max={SCALE_RANGE.max * 100}
          step={1}
          value={scalePercent(shown)}
          disabled={!figure}
          onChange={(e) => onChange(withScalePercent(shown, Number(e.target.value)))}
          data-testid="digital-scale"
        />
        <output>{t("editor.stage.size_value", { percent: scalePercent(shown) })}</output>
      </label>
      {figure && <p className="digital-stage__hint">{t("editor.stage.hint")}</p>}
    </div>
  );
}
