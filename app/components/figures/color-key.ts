// ffmpeg colorkey's formula, run in the browser for the keying editor's live preview, so what the
// creator sees is what the worker's composite makes. Per pixel: the distance to the key colour,
// diff = sqrt((dr² + dg² + db²) / (255² · 3)); with a blend, alpha = clamp((diff - similarity) /
// blend, 0, 1), else alpha = diff > similarity ? 1 : 0. ffmpeg keeps similarity and blend as
// 32-bit floats and writes alpha as a byte (truncated), and so does this.
import type { TKeySettings } from "../../../server/digital/digital.schema";

export type TRgb = [number, number, number];

/** "#rrggbb" as bytes; an invalid colour reads as the default green. */
export function parseHexColor(hex: string): TRgb {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  return m ? [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)] : [0, 255, 0];
}

export function toHexColor([r, g, b]: readonly number[]): string {
  return `#${[r, g, b]
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(v)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** The settings as ffmpeg holds them: the colour's bytes, similarity and blend as floats of 0-1. */
export function keyParameters(settings: TKeySettings) {
  return { rgb: parseHexColor(settings.color), similarity: Math.fround(settings.similarity / 100), blend: Math.fround(settings.blend / 100) };
}

/** One pixel's alpha (0-255) under the key. */
export function keyAlpha(r: number, g: number, b: number, key: ReturnType<typeof keyParameters>): number {
  const dr = r - key.rgb[0];
  const dg = g - key.rgb[1];
  const db = b - key.rgb[2];
  const diff = Math.sqrt((dr * dr + dg * dg + db * db) / (255 * 255 * 3));
  if (key.blend > 0.0001) return Math.trunc(Math.min(1, Math.max(0, (diff - key.similarity) / key.blend)) * 255);
  return diff > key.similarity ? 255 : 0;
}

/**
 * Keys RGBA pixels (a canvas's ImageData) from `source` into `target` (the same buffer will do):
 * colours copied, alpha from the key. Answers how many pixels are fully keyed out.
 */
export function keyPixels(source: Uint8ClampedArray, target: Uint8ClampedArray, settings: TKeySettings): number {
  const key = keyParameters(settings);
  let cleared = 0;
  for (let i = 0; i + 3 < source.length; i += 4) {
    const a = keyAlpha(source[i], source[i + 1], source[i + 2], key);
    target[i] = source[i];
    target[i + 1] = source[i + 1];
    target[i + 2] = source[i + 2];
    target[i + 3] = a;
    if (a === 0) cleared++;
  }
  return cleared;
}
