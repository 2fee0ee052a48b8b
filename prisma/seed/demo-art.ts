// Pictures for the demo market, drawn here with no network and no image library (the seed runs in
// the supervisor, where sharp is not loaded): app icons (200 × 200, a gradient tile with a white
// emblem) and carousel banners (1200 × 300, a gradient with soft shapes; the slide's name is the
// page's text over it). Shapes are signed distance functions, anti-aliased by their distance to the
// edge, and the result is encoded as an RGBA PNG with node:zlib.
import { writePng } from "../../server/lib/png-file";

type TRgb = readonly [number, number, number];
/** Distance in pixels from (x, y) to the shape's edge: negative inside. */
type TShape = (x: number, y: number) => number;
type TLayer = { shape: TShape; color: TRgb; alpha?: number };

// --- Shapes --------------------------------------------------------------------------------------

const circle =
  (cx: number, cy: number, r: number): TShape =>
  (x, y) =>
    Math.hypot(x - cx, y - cy) - r;

function box(cx: number, cy: number, hw: number, hh: number, r = 0): TShape {
  return (x, y) => {
    const qx = Math.abs(x - cx) - hw + r;
    const qy = Math.abs(y - cy) - hh + r;
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  };
}

/** A line from (ax, ay) to (bx, by) with round ends, `r` thick on each side. */
function capsule(ax: number, ay: number, bx: number, by: number, r: number): TShape {
  return (x, y) => {
    const px = x - ax;
    const py = y - ay;
    const dx = bx - ax;
    const dy = by - ay;
    const h = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
    return Math.hypot(px - dx * h, py - dy * h) - r;
  };
}

/** Any simple polygon (points in order). */
function polygon(points: ReadonlyArray<readonly [number, number]>): TShape {
  return (x, y) => {
    let d = Infinity;
    let inside = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i];
      const [xj, yj] = points[j];
      const ex = xj - xi;
      const ey = yj - yi;
      const wx = x - xi;
      const wy = y - yi;
      const h = Math.max(0, Math.min(1, (wx * ex + wy * ey) / (ex * ex + ey * ey)));
      d = Math.min(d, Math.hypot(wx - ex * h, wy - ey * h));
      if (yi > y !== yj > y && x < (ex * (y - yi)) / ey + xi) inside = !inside;
    }
    return inside ? -d : d;
  };
}

const union =
  (...shapes: TShape[]): TShape =>
  (x, y) =>
    Math.min(...shapes.map((s) => s(x, y)));
const intersect =
  (...shapes: TShape[]): TShape =>
  (x, y) =>
    Math.max(...shapes.map((s) => s(x, y)));

// --- Painting ------------------------------------------------------------------------------------

function mix(a: TRgb, b: TRgb, t: number): TRgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** Paints the layers over a diagonal gradient; `clip` (a rounded tile) makes the corners transparent. */
function paint(width: number, height: number, from: TRgb, to: TRgb, layers: TLayer[], clip?: TShape): Buffer {
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      let c = mix(from, to, (px / width + py / height) / 2);
      for (const l of layers) {
        const cover = Math.max(0, Math.min(1, 0.5 - l.shape(px, py))) * (l.alpha ?? 1);
        if (cover > 0) c = mix(c, l.color, cover);
      }
      const a = clip ? Math.max(0, Math.min(1, 0.5 - clip(px, py))) : 1;
      const i = (y * width + x) * 4;
      out[i] = Math.round(c[0]);
      out[i + 1] = Math.round(c[1]);
      out[i + 2] = Math.round(c[2]);
      out[i + 3] = Math.round(a * 255);
    }
  }
  return out;
}

/** RGBA pixels, row by row, as a PNG file. */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return writePng(width, height, 6, rows, 9);
}

// --- Icons ---------------------------------------------------------------------------------------

export const ICON_SIZE = 200;
const WHITE: TRgb = [255, 255, 255];

export type TEmblem = "report" | "chat" | "pen" | "palette" | "play" | "leaf" | "spark";

/** The emblem's layers on a 200 px tile; `ink` is the tile's darker colour, for cut-outs. */
function emblem(kind: TEmblem, ink: TRgb): TLayer[] {
  switch (kind) {
    case "report":
      return [
        { shape: box(100, 100, 46, 58, 10), color: WHITE },
        ...[70, 92, 114].map((y, i) => ({ shape: capsule(74, y, i === 2 ? 108 : 126, y, 5), color: ink })),
        { shape: circle(128, 136, 16), color: ink },
        { shape: union(capsule(121, 136, 126, 142, 3), capsule(126, 142, 136, 130, 3)), color: WHITE },
      ];
    case "chat":
      return [
        {
          shape: union(
            box(100, 92, 58, 42, 22),
            polygon([
              [70, 120],
              [96, 120],
              [62, 156],
            ]),
          ),
          color: WHITE,
        },
        ...[76, 100, 124].map((x) => ({ shape: circle(x, 92, 8), color: ink })),
      ];
    case "pen":
      return [
        {
          shape: polygon([
            [60, 150],
            [68, 118],
            [128, 58],
            [152, 82],
            [92, 142],
          ]),
          color: WHITE,
        },
        { shape: capsule(118, 70, 140, 92, 3), color: ink },
        {
          shape: polygon([
            [60, 150],
            [68, 118],
            [92, 142],
          ]),
          color: ink,
          alpha: 0.35,
        },
        { shape: circle(148, 146, 7), color: WHITE },
        { shape: circle(132, 158, 4), color: WHITE },
      ];
    case "palette":
      return [
        { shape: intersect(circle(100, 100, 60), (x, y) => -circle(128, 132, 20)(x, y)), color: WHITE },
        { shape: circle(78, 82, 10), color: [244, 63, 94] },
        { shape: circle(104, 66, 10), color: [250, 204, 21] },
        { shape: circle(130, 84, 10), color: [34, 197, 94] },
        { shape: circle(72, 112, 10), color: [59, 130, 246] },
      ];
    case "play":
      return [
        { shape: box(100, 100, 60, 44, 12), color: WHITE },
        {
          shape: polygon([
            [88, 78],
            [88, 122],
            [124, 100],
          ]),
          color: ink,
        },
        ...[-34, 34].map((dy) => ({ shape: box(100, 100 + dy, 60, 3), color: ink, alpha: 0.25 })),
      ];
    case "leaf":
      return [
        { shape: intersect(circle(58, 58, 84), circle(142, 142, 84)), color: WHITE },
        { shape: capsule(70, 130, 124, 76, 2.5), color: ink },
        ...[
          [88, 112, 84, 92],
          [106, 94, 102, 74],
          [88, 112, 108, 116],
          [106, 94, 126, 98],
        ].map(([ax, ay, bx, by]) => ({ shape: capsule(ax, ay, bx, by, 2), color: ink, alpha: 0.7 })),
        { shape: capsule(70, 130, 54, 146, 4), color: WHITE },
      ];
    case "spark":
      return [
        {
          shape: polygon([
            [100, 44],
            [114, 86],
            [156, 100],
            [114, 114],
            [100, 156],
            [86, 114],
            [44, 100],
            [86, 86],
          ]),
          color: WHITE,
        },
        {
          shape: polygon([
            [146, 48],
            [151, 61],
            [164, 66],
            [151, 71],
            [146, 84],
            [141, 71],
            [128, 66],
            [141, 61],
          ]),
          color: WHITE,
        },
      ];
  }
}

/** A 200 × 200 PNG icon: a rounded gradient tile from `from` to `to` with a white emblem. */
export function drawIcon(kind: TEmblem, from: TRgb, to: TRgb): Buffer {
  const ink = mix(to, [15, 23, 42], 0.15);
  const layers: TLayer[] = [
    // A soft light from the top left gives the tile some depth.
    { shape: circle(40, 30, 110), color: WHITE, alpha: 0.12 },
    ...emblem(kind, ink),
  ];
  return encodePng(ICON_SIZE, ICON_SIZE, paint(ICON_SIZE, ICON_SIZE, from, to, layers, box(100, 100, 100, 100, 44)));
}

// --- Banners -------------------------------------------------------------------------------------

export const BANNER_WIDTH = 1200;
export const BANNER_HEIGHT = 300;

export type TBannerMotif = "cards" | "bubbles" | "coins";

/** A 1200 × 300 PNG banner: the left side stays plain for the slide's name, the motif sits on the right. */
export function drawBanner(motif: TBannerMotif, from: TRgb, to: TRgb): Buffer {
  const soft = (shape: TShape, alpha: number): TLayer => ({ shape, color: WHITE, alpha });
  const glow = [soft(circle(980, -40, 260), 0.1), soft(circle(1130, 320, 180), 0.08), soft(circle(160, 330, 140), 0.06)];
  const motifs: Record<TBannerMotif, TLayer[]> = {
    cards: [
      soft(box(900, 150, 120, 84, 18), 0.16),
      soft(box(960, 128, 120, 84, 18), 0.28),
      { shape: box(1020, 110, 120, 84, 18), color: WHITE, alpha: 0.92 },
      { shape: circle(944, 88, 20), color: from, alpha: 0.85 },
      { shape: capsule(978, 80, 1100, 80, 6), color: from, alpha: 0.5 },
      { shape: capsule(978, 100, 1060, 100, 6), color: from, alpha: 0.3 },
      { shape: capsule(936, 140, 1100, 140, 6), color: to, alpha: 0.35 },
      { shape: capsule(936, 160, 1060, 160, 6), color: to, alpha: 0.25 },
    ],
    bubbles: [
      {
        shape: union(
          box(930, 110, 110, 46, 30),
          polygon([
            [860, 140],
            [900, 140],
            [846, 182],
          ]),
        ),
        color: WHITE,
        alpha: 0.92,
      },
      {
        shape: union(
          box(1050, 200, 100, 40, 28),
          polygon([
            [1110, 228],
            [1140, 228],
            [1160, 262],
          ]),
        ),
        color: WHITE,
        alpha: 0.55,
      },
      ...[890, 930, 970].map((x) => ({ shape: circle(x, 110, 9), color: from, alpha: 0.8 })),
      soft(circle(780, 70, 14), 0.5),
      soft(circle(1160, 90, 22), 0.35),
    ],
    coins: [
      ...[
        [900, 190, 64],
        [1010, 130, 80],
        [1120, 200, 56],
      ].flatMap(([cx, cy, r]) => [
        { shape: circle(cx, cy, r), color: WHITE, alpha: 0.9 } as TLayer,
        { shape: (x: number, y: number) => Math.abs(circle(cx, cy, r * 0.72)(x, y)) - 4, color: to, alpha: 0.35 } as TLayer,
        {
          shape: polygon([
            [cx, cy - r * 0.38],
            [cx + r * 0.3, cy],
            [cx, cy + r * 0.38],
            [cx - r * 0.3, cy],
          ]),
          color: from,
          alpha: 0.7,
        } as TLayer,
      ]),
      soft(capsule(760, 250, 860, 150, 3), 0.35),
      soft(capsule(800, 250, 900, 150, 3), 0.2),
    ],
  };
  return encodePng(BANNER_WIDTH, BANNER_HEIGHT, paint(BANNER_WIDTH, BANNER_HEIGHT, from, to, [...glow, ...motifs[motif]]));
}
