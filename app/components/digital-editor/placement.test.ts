import { describe, expect, it } from "vitest";
import { ZPlacement } from "../../../server/digital/digital.schema";
import { clampPlacement, dragBy, figureBox, nudge, samePlacement, scaleByHandle, stageAspect, withScalePercent } from "./placement";

const stage = { width: 720, height: 1280 };

describe("placement maths", () => {
  it("puts the figure's box centred on (x, y) with its height a share of the stage", () => {
    const box = figureBox({ x: 0.5, y: 0.5, scale: 0.5 }, stage, 9 / 16);
    expect(box).toEqual({ left: 360 - 180, top: 640 - 320, width: 360, height: 640 });
    const wide = figureBox({ x: 0.25, y: 0.75, scale: 1 }, { width: 1280, height: 720 }, 16 / 9);
    expect(wide).toEqual({ left: 320 - 640, top: 540 - 360, width: 1280, height: 720 });
  });

  it("falls back to an upright still when the aspect is unknown", () => {
    expect(figureBox({ x: 0.5, y: 0.5, scale: 1 }, stage, Number.NaN).width).toBeCloseTo(720);
  });

  it("drags by pixels as shares of the stage, and stops at its edges", () => {
    expect(dragBy({ x: 0.5, y: 0.5, scale: 1 }, { x: 72, y: -128 }, stage)).toEqual({ x: 0.6, y: 0.4, scale: 1 });
    expect(dragBy({ x: 0.9, y: 0.1, scale: 1 }, { x: 720, y: -720 }, stage)).toEqual({ x: 1, y: 0, scale: 1 });
    expect(dragBy({ x: 0.5, y: 0.5, scale: 1 }, { x: 10, y: 10 }, { width: 0, height: 0 })).toEqual({ x: 0.5, y: 0.5, scale: 1 });
  });

  it("scales about the centre by the handle's distance, within 0.1 and 2", () => {
    const centre = { x: 100, y: 100 };
    expect(scaleByHandle({ x: 0.5, y: 0.5, scale: 0.5 }, centre, { x: 130, y: 140 }, { x: 160, y: 180 })).toEqual({ x: 0.5, y: 0.5, scale: 1 });
    expect(scaleByHandle({ x: 0.5, y: 0.5, scale: 1.5 }, centre, { x: 110, y: 100 }, { x: 200, y: 100 }).scale).toBe(2);
    expect(scaleByHandle({ x: 0.5, y: 0.5, scale: 0.5 }, centre, { x: 200, y: 100 }, { x: 101, y: 100 }).scale).toBe(0.1);
    // A drag that starts on the centre itself has no distance to compare with.
    expect(scaleByHandle({ x: 0.5, y: 0.5, scale: 0.5 }, centre, centre, { x: 300, y: 300 }).scale).toBe(0.5);
  });

  it("keeps whatever it answers within the schema, tidied to four decimals", () => {
    const odd = clampPlacement({ x: -3, y: 0.123456789, scale: 9 });
    expect(odd).toEqual({ x: 0, y: 0.1235, scale: 2 });
    expect(ZPlacement.safeParse(odd).success).toBe(true);
    expect(clampPlacement(null)).toEqual({ x: 0.5, y: 0.55, scale: 0.9 });
    expect(clampPlacement({ x: Number.NaN })).toEqual({ x: 0.5, y: 0.55, scale: 0.9 });
  });

  it("nudges with the arrow keys and scales with + and -", () => {
    const p = { x: 0.5, y: 0.5, scale: 1 };
    expect(nudge(p, "ArrowRight")).toEqual({ x: 0.51, y: 0.5, scale: 1 });
    expect(nudge(p, "ArrowUp", true)).toEqual({ x: 0.5, y: 0.45, scale: 1 });
    expect(nudge(p, "+")).toEqual({ x: 0.5, y: 0.5, scale: 1.02 });
    expect(nudge(p, "-")).toEqual({ x: 0.5, y: 0.5, scale: 0.98 });
    expect(nudge(p, "a")).toBeNull();
  });

  it("reads the slider's percentage and the stage's shape", () => {
    expect(withScalePercent({ x: 0.5, y: 0.5, scale: 1 }, 55)).toEqual({ x: 0.5, y: 0.5, scale: 0.55 });
    expect(withScalePercent({ x: 0.5, y: 0.5, scale: 1 }, 5).scale).toBe(0.1);
    expect(stageAspect("horizontal")).toBeCloseTo(16 / 9);
    expect(stageAspect("vertical")).toBeCloseTo(9 / 16);
    expect(samePlacement({ x: 0.1, y: 0.2, scale: 1 }, { x: 0.1, y: 0.2, scale: 1 })).toBe(true);
  });
});
