// The key's settings as ffmpeg takes them, and the sizes frames are scaled to before keying.
import { describe, expect, it } from "vitest";
import { colorkeyFilter, ffmpegColor, fitWithin } from "./chroma-key";
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
});
