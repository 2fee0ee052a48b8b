// Draws a share poster on a canvas: the background (cover-fitted), the title and subtitle, and the
// share link's QR code on a white card with a caption. The preview and the downloaded PNG are the
// same drawing, so what the owner sees is what they get. QR modules are drawn as rectangles (no
// image), and backgrounds are same-origin files, so the canvas stays exportable.
import QRCode from "qrcode";

export const POSTER_WIDTH = 750;
export const POSTER_HEIGHT = 1334;
/** The QR card's side, including its white margin. */
export const QR_CARD = 260;
const QR_PADDING = 20;
const CAPTION_HEIGHT = 40;

export type TQrPreset = "bottom_center" | "bottom_left" | "bottom_right" | "center";
export const QR_PRESETS: TQrPreset[] = ["bottom_center", "bottom_left", "bottom_right", "center"];

export type TPosterState = {
  backgroundUrl: string;
  title: string;
  subtitle: string;
  titleColor: string;
  subtitleColor: string;
  /** Top-left corner of the QR card in poster pixels. */
  qr: { x: number; y: number };
};

const MARGIN = 60;

/** Where each preset puts the QR card (its caption below it stays on the poster). */
export function placeQr(preset: TQrPreset): { x: number; y: number } {
  const bottom = POSTER_HEIGHT - MARGIN - QR_CARD - CAPTION_HEIGHT;
  if (preset === "bottom_left") return { x: MARGIN, y: bottom };
  if (preset === "bottom_right") return { x: POSTER_WIDTH - MARGIN - QR_CARD, y: bottom };
  if (preset === "center") return { x: (POSTER_WIDTH - QR_CARD) / 2, y: (POSTER_HEIGHT - QR_CARD) / 2 };
  return { x: (POSTER_WIDTH - QR_CARD) / 2, y: bottom };
}

/** Keeps the card (and its caption) inside the poster wherever it is dragged. */
export function clampQr(p: { x: number; y: number }) {
  return {
    x: Math.round(Math.min(Math.max(p.x, 0), POSTER_WIDTH - QR_CARD)),
    y: Math.round(Math.min(Math.max(p.y, 0), POSTER_HEIGHT - QR_CARD - CAPTION_HEIGHT)),
  };
}

export function isInsideQr(state: Pick<TPosterState, "qr">, p: { x: number; y: number }) {
  return p.x >= state.qr.x && p.x <= state.qr.x + QR_CARD && p.y >= state.qr.y && p.y <= state.qr.y + QR_CARD;
}

export function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`could not load ${url}`));
    img.src = url;
  });
}

/** Breaks text into lines that fit the width (by characters, so Chinese without spaces wraps too). */
function wrapLines(ctx: CanvasRenderingContext2D, text: string, maxWidth: number, maxLines: number) {
  const lines: string[] = [];
  let line = "";
  for (const ch of [...text.trim()]) {
    if (ch === "\n") {
      lines.push(line);
      line = "";
      continue;
    }
    if (ctx.measureText(line + ch).width > maxWidth && line) {
      lines.push(line);
      line = ch.trimStart();
    } else line += ch;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = `${lines[maxLines - 1].slice(0, -1)}…`;
  }
  return lines;
}

const FONT = `"PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", system-ui, sans-serif`;

function drawCover(ctx: CanvasRenderingContext2D, img: HTMLImageElement) {
  const scale = Math.max(POSTER_WIDTH / img.naturalWidth, POSTER_HEIGHT / img.naturalHeight);
  const w = img.naturalWidth * scale;
  const h = img.naturalHeight * scale;
  ctx.drawImage(img, (POSTER_WIDTH - w) / 2, (POSTER_HEIGHT - h) / 2, w, h);
}

function drawQr(ctx: CanvasRenderingContext2D, link: string, at: { x: number; y: number }, caption: string) {
  const qr = QRCode.create(link, { errorCorrectionLevel: "M" });
  const count = qr.modules.size;
  const inner = QR_CARD - QR_PADDING * 2;
  const cell = Math.floor(inner / count);
  const offset = QR_PADDING + Math.floor((inner - cell * count) / 2);
  ctx.fillStyle = "#ffffff";
  ctx.beginPath();
  ctx.roundRect(at.x, at.y, QR_CARD, QR_CARD + CAPTION_HEIGHT, 16);
  ctx.fill();
  ctx.fillStyle = "#000000";
  for (let r = 0; r < count; r++) {
    for (let c = 0; c < count; c++) {
      if (qr.modules.data[r * count + c]) ctx.fillRect(at.x + offset + c * cell, at.y + offset + r * cell, cell, cell);
    }
  }
  ctx.fillStyle = "#555555";
  ctx.font = `24px ${FONT}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(caption, at.x + QR_CARD / 2, at.y + QR_CARD + CAPTION_HEIGHT / 2 - 8, QR_CARD - 20);
}

/** Draws the whole poster on the canvas (sized to the poster by this call). */
export function renderPoster(canvas: HTMLCanvasElement, state: TPosterState, background: HTMLImageElement | null, link: string, caption: string) {
  canvas.width = POSTER_WIDTH;
  canvas.height = POSTER_HEIGHT;
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = "#1677ff";
  ctx.fillRect(0, 0, POSTER_WIDTH, POSTER_HEIGHT);
  if (background) drawCover(ctx, background);

  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  let y = 140;
  ctx.fillStyle = state.titleColor;
  ctx.font = `bold 64px ${FONT}`;
  for (const line of wrapLines(ctx, state.title, POSTER_WIDTH - MARGIN * 2, 3)) {
    ctx.fillText(line, POSTER_WIDTH / 2, y);
    y += 84;
  }
  y += 16;
  ctx.fillStyle = state.subtitleColor;
  ctx.font = `34px ${FONT}`;
  for (const line of wrapLines(ctx, state.subtitle, POSTER_WIDTH - MARGIN * 2, 4)) {
    ctx.fillText(line, POSTER_WIDTH / 2, y);
    y += 50;
  }
  drawQr(ctx, link, state.qr, caption);
}

export function canvasToPngBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the poster could not be encoded"))), "image/png"));
}
