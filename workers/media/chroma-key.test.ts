// The key's settings as ffmpeg takes them, and the sizes frames are scaled to before keying.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { colorkeyFilter, ffmpegColor, fitWithin, overCheckerboard } from "./chroma-key";
import { MediaToolError } from "./run-tool";

describe("the key's settings for ffmpeg", () => {
  it("writes the colour as 0xrrggbb and the hundredths as shares", () => {
    expect(ffmpegColor("#00FF00")).toBe("0x00ff00");
    expect(colorkeyFilter({ color: "#12ab34", similarity: 30, blend: 5 })).toBe("colorkey=color=0x12ab34:similarity=0.30:blend=0.05");
    expect(colorkeyFilter({ color: "#00ff00", similarity: 100, blend: 0 })).toBe("colorkey=color=0x00ff00:similarity=1.00:blend=0.00");
  });

  it("refuses a colour that is not #rrggbb (it would reach ffmpeg's filter text)", () => {
    for (const bad of ["00ff00", "#0f0", "#00ff00:similarity=1", "green"]) expect(() => ffmpegColor(bad)).toThrow(MediaToolError);
  });

  it("scales down within the long side, never up, to even sides", () => {
    expect(fitWithin(1920, 1080, 640)).toEqual({ width: 640, height: 360 });
    expect(fitWithin(1080, 1920, 1280)).toEqual({ width: 720, height: 1280 });
    expect(fitWithin(1366, 769, 1280)).toEqual({ width: 1280, height: 720 });
    expect(fitWithin(320, 241, 640)).toEqual({ width: 320, height: 242 });
  });

  it("lays a keyed picture over a checkerboard: transparent pixels show its squares", async () => {
    const keyed = await sharp({ create: { width: 40, height: 20, channels: 4, background: { r: 200, g: 10, b: 10, alpha: 0 } } })
      .composite([{ input: { create: { width: 10, height: 10, channels: 4, background: { r: 200, g: 10, b: 10, alpha: 1 } } }, left: 30, top: 10 }])
      .png()
      .toBuffer();
    const { data, info } = await sharp(await overCheckerboard(keyed))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect([at(0, 0), at(16, 0), at(35, 15)]).toEqual([
      [255, 255, 255],
      [204, 204, 204],
      [200, 10, 10],
    ]);
  });
});
