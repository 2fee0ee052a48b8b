// The browser's key against ffmpeg's own colorkey on the same pixels: random colours and many close
// to the key colour (the blend's edge), under several settings; every alpha byte must agree.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import type { TKeySettings } from "../../../server/digital/digital.schema";
import { keyAlpha, keyParameters, keyPixels, parseHexColor, toHexColor } from "./color-key";

const FFMPEG = fs.existsSync("/usr/bin/ffmpeg") ? "/usr/bin/ffmpeg" : "ffmpeg";
const SIDE = 64;

/** A frame of rgb24 pixels: half random, half within a small distance of `near`. */
function makeFrame(near: [number, number, number], seed = 7) {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const rgb = Buffer.alloc(SIDE * SIDE * 3);
  for (let p = 0; p < SIDE * SIDE; p++) {
    const close = p % 2 === 0;
    for (let c = 0; c < 3; c++) rgb[p * 3 + c] = close ? Math.max(0, Math.min(255, near[c] + Math.round((random() - 0.5) * 200))) : Math.floor(random() * 256);
  }
  return rgb;
}

/** ffmpeg's colorkey over the frame: its alpha bytes. */
function ffmpegAlpha(rgb: Buffer, s: TKeySettings) {
  const filter = `format=rgba,colorkey=0x${s.color.slice(1)}:${s.similarity / 100}:${s.blend / 100}`;
  const args = [
    "-v",
    "error",
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgb24",
    "-s",
    `${SIDE}x${SIDE}`,
    "-i",
    "pipe:0",
    "-vf",
    filter,
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgba",
    "pipe:1",
  ];
  const run = spawnSync(FFMPEG, args, { input: rgb, maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`ffmpeg: ${run.stderr.toString()}`);
  const rgba = run.stdout;
  return Array.from({ length: SIDE * SIDE }, (_, p) => rgba[p * 4 + 3]);
}

function browserAlpha(rgb: Buffer, s: TKeySettings) {
  const rgba = new Uint8ClampedArray(SIDE * SIDE * 4);
  for (let p = 0; p < SIDE * SIDE; p++) rgba.set([rgb[p * 3], rgb[p * 3 + 1], rgb[p * 3 + 2], 255], p * 4);
  keyPixels(rgba, rgba, s);
  return Array.from({ length: SIDE * SIDE }, (_, p) => rgba[p * 4 + 3]);
}

const SETTINGS: TKeySettings[] = [
  { color: "#00ff00", similarity: 30, blend: 10 },
  { color: "#00ff00", similarity: 1, blend: 0 },
  { color: "#1fa33c", similarity: 20, blend: 0 },
  { color: "#1fa33c", similarity: 12, blend: 40 },
  { color: "#3050e0", similarity: 45, blend: 3 },
];

describe("the browser's colour key", () => {
  it.each(SETTINGS)("gives every pixel the alpha ffmpeg's colorkey gives it: %o", (settings) => {
    const rgb = makeFrame(parseHexColor(settings.color));
    const ours = browserAlpha(rgb, settings);
    const theirs = ffmpegAlpha(rgb, settings);
    // The frame exercises the whole range: keyed out, kept, and (with a blend) in between.
    expect(ours.some((a) => a === 0)).toBe(true);
    expect(ours.some((a) => a === 255)).toBe(true);
    const differing = ours.flatMap((a, p) => (a === theirs[p] ? [] : [{ p, ours: a, ffmpeg: theirs[p] }]));
    expect(differing.slice(0, 5)).toEqual([]);
  });

  it("keys the key colour itself out and keeps a far colour", () => {
    const key = keyParameters({ color: "#00ff00", similarity: 30, blend: 10 });
    expect(keyAlpha(0, 255, 0, key)).toBe(0);
    expect(keyAlpha(255, 0, 255, key)).toBe(255);
  });

  it("reads and writes colours", () => {
    expect(parseHexColor("#1FA33C")).toEqual([31, 163, 60]);
    expect(parseHexColor("nonsense")).toEqual([0, 255, 0]);
    expect(toHexColor([31, 163, 60])).toBe("#1fa33c");
  });
});
