// Where the figure stands on the stage, as the composite reads it: the centre (x, y) as shares of
// the canvas and the figure's height as a share of the canvas height (ZPlacement). The stage shows
// the figure's keyed still, a full frame of its clip, so a box computed here is the box the clip
// fills in the rendered video: height scale × canvas height, width by the still's own aspect.
import { DEFAULT_PLACEMENT, type TOrientation, type TPlacement } from "../../../server/digital/digital.schema";

export type TSize = { width: number; height: number };
export type TPoint = { x: number; y: number };
export type TBox = { left: number; top: number; width: number; height: number };

export const SCALE_RANGE = { min: 0.1, max: 2 } as const;
/** One arrow key moves the figure by this share of the canvas; with Shift, five times as far. */
export const NUDGE_STEP = 0.01;

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
/** Four decimals: a tenth of a pixel on a 1080 p canvas, and no float noise saved on every drag. */
const tidy = (v: number) => Math.round(v * 10_000) / 10_000;

/** The stage's width over its height for an orientation. */
export const stageAspect = (orientation: TOrientation) => (orientation === "horizontal" ? 16 / 9 : 9 / 16);

/** A placement kept within what the schema accepts (a stored one from elsewhere may not be). */
export function clampPlacement(p: Partial<TPlacement> | null | undefined): TPlacement {
  const pick = (v: number | undefined, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
  return {
    x: tidy(clamp(pick(p?.x, DEFAULT_PLACEMENT.x), 0, 1)),
    y: tidy(clamp(pick(p?.y, DEFAULT_PLACEMENT.y), 0, 1)),
    scale: tidy(clamp(pick(p?.scale, DEFAULT_PLACEMENT.scale), SCALE_RANGE.min, SCALE_RANGE.max)),
  };
}

export const samePlacement = (a: TPlacement, b: TPlacement) => a.x === b.x && a.y === b.y && a.scale === b.scale;

/** The figure's box on a stage of `stage` pixels; `aspect` is the still's width over its height. */
export function figureBox(p: TPlacement, stage: TSize, aspect: number): TBox {
  const height = p.scale * stage.height;
  const width = height * (aspect > 0 && Number.isFinite(aspect) ? aspect : 9 / 16);
  return { left: p.x * stage.width - width / 2, top: p.y * stage.height - height / 2, width, height };
}

/** The placement after the pointer moved by `delta` pixels since the drag began at `start`. */
export function dragBy(start: TPlacement, delta: TPoint, stage: TSize): TPlacement {
  if (stage.width <= 0 || stage.height <= 0) return start;
  return clampPlacement({ ...start, x: start.x + delta.x / stage.width, y: start.y + delta.y / stage.height });
}

/**
 * The placement while the corner handle is dragged: the figure grows or shrinks about its centre by
 * how much farther from the centre the pointer is than where the drag began.
 */
export function scaleByHandle(start: TPlacement, centre: TPoint, from: TPoint, to: TPoint): TPlacement {
  const before = Math.hypot(from.x - centre.x, from.y - centre.y);
  if (before < 1) return start;
  const after = Math.hypot(to.x - centre.x, to.y - centre.y);
  return clampPlacement({ ...start, scale: start.scale * (after / before) });
}

const NUDGES: Record<string, Partial<Record<"x" | "y" | "scale", number>>> = {
  ArrowLeft: { x: -1 },
  ArrowRight: { x: 1 },
  ArrowUp: { y: -1 },
  ArrowDown: { y: 1 },
  "+": { scale: 1 },
  "=": { scale: 1 },
  "-": { scale: -1 },
};

/** The placement after a key press on the figure, or null for a key that does not move it. */
export function nudge(p: TPlacement, key: string, large = false): TPlacement | null {
  const move = NUDGES[key];
  if (!move) return null;
  const step = NUDGE_STEP * (large ? 5 : 1);
  return clampPlacement({ x: p.x + (move.x ?? 0) * step, y: p.y + (move.y ?? 0) * step, scale: p.scale + (move.scale ?? 0) * step * 2 });
}

/** The scale as the slider shows it: a whole percentage of the canvas height. */
export const scalePercent = (p: TPlacement) => Math.round(p.scale * 100);
export const withScalePercent = (p: TPlacement, percent: number) => clampPlacement({ ...p, scale: percent / 100 });
