// The arithmetic of measuring a filming video: frame rates as ffprobe writes them, where frames are
// sampled, what counts as chroma green, and the border's green share and dominant colour.
import { describe, expect, it } from "vitest";
import { BORDER_SHARE, isChromaGreen, measureBorder, readFrameRate, sampleSeconds } from "./filming";

/** A frame of one colour with a block of another in its middle (inside the border band). */
function frame(width: number, height: number, backdrop: number[], block: number[], noise = 0) {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside = x > width * 0.3 && x < width * 0.7 && y > height * 0.2 && y < height * 0.8;
      const colour = inside ? block : backdrop;
      for (let c = 0; c < 3; c++) {
        seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
        const jitter = noise ? (seed % (2 * noise + 1)) - noise : 0;
        raw[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, colour[c] + jitter));
      }
    }
  }
  return { raw, width, height };
}

describe("filming arithmetic", () => {
  it("reads frame rates, fractional or whole, and none from nonsense", () => {
    expect(readFrameRate("30000/1001")).toBe(29.97);
    expect(readFrameRate("25/1")).toBe(25);
    expect(readFrameRate("59.94")).toBe(59.94);
    expect([readFrameRate("0/0"), readFrameRate("N/A"), readFrameRate(undefined)]).toEqual([null, null, null]);
  });

  it("samples the middles of five equal parts, or the start of a clip of unknown length", () => {
    expect(sampleSeconds(10_000)).toEqual([1, 3, 5, 7, 9]);
    expect(sampleSeconds(null)).toEqual([0]);
  });

  it("takes lit and shadowed screen greens as chroma green, and skin, grey, teal-blue and dark as not", () => {
    expect([isChromaGreen(0, 255, 0), isChromaGreen(60, 140, 70), isChromaGreen(100, 200, 40), isChromaGreen(20, 180, 120)]).toEqual([true, true, true, true]);
    expect([isChromaGreen(192, 128, 96), isChromaGreen(128, 130, 128), isChromaGreen(0, 120, 255), isChromaGreen(10, 30, 12)]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("measures a noisy green screen's border as all green and its colour as the screen's, whatever stands in the middle", () => {
    const frames = [frame(160, 90, [30, 200, 60], [192, 128, 96], 12), frame(160, 90, [30, 200, 60], [20, 30, 120], 12)];
    const { greenShare, keyColor } = measureBorder(frames);
    expect(greenShare).toBe(1);
    const channels = [1, 3, 5].map((i) => parseInt(keyColor.slice(i, i + 2), 16));
    expect(channels.map((c, i) => Math.abs(c - [30, 200, 60][i])).every((d) => d <= 4)).toBe(true);
  });

  it("measures a room as no green, and reads only the border band", () => {
    expect(measureBorder([frame(160, 90, [184, 168, 144], [0, 255, 0])])).toEqual({ greenShare: 0, keyColor: "#b8a890" });
    // A green block reaching into the band on every side counts just the band's share of it.
    const framed = measureBorder([frame(100, 100, [0, 255, 0], [184, 168, 144])]);
    expect(BORDER_SHARE).toBeGreaterThan(0.1);
    expect(framed.greenShare).toBeGreaterThan(0.8);
    expect(measureBorder([])).toEqual({ greenShare: 0, keyColor: "#00ff00" });
  });
});
