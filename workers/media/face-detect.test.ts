// The face check of a filming video, on the real detector: a photo of a person (alone, and standing
// before a green screen as a filming frame shows them) has a face; flat colour, a gradient, noise and a
// photo of a coffee cup have none. Timings are printed for the record, not asserted: this machine is shared.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "../../server/lib/logger";
import { findFace, makeFaceFinder } from "./face-detect";

const FIXTURES = path.resolve(import.meta.dirname, "../../tests/fixtures/faces");
const FILMING_GREEN = { r: 0, g: 177, b: 64 };
const SLOW = 60_000;

const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** The person's photo shrunk to `size` and placed on a green screen of `width` x `height`, as a sampled frame. */
async function onGreenScreen(person: Buffer, width: number, height: number, size: number, format: "jpeg" | "png") {
  const figure = await sharp(person).resize(size, size).toBuffer();
  const frame = sharp({ create: { width, height, channels: 3, background: FILMING_GREEN } }).composite([
    { input: figure, left: Math.round((width - size) / 2), top: Math.round((height - size) / 3) },
  ]);
  return format === "png" ? frame.png().toBuffer() : frame.jpeg({ quality: 85 }).toBuffer();
}

function rawToPng(pixels: Buffer, width: number, height: number) {
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function timed<T>(label: string, work: () => Promise<T>) {
  const start = performance.now();
  const result = await work();
  console.info(`face check, ${label}: ${Math.round(performance.now() - start)} ms`);
  return result;
}

describe("findFace", () => {
  let face: Buffer;
  beforeAll(() => {
    face = fixture("astronaut.jpg");
  });
  afterEach(() => vi.restoreAllMocks());

  it("finds the face in a photo of a person (the first call loads the detector)", { timeout: SLOW }, async () => {
    expect(await timed("model load and first frame", () => findFace([face]))).toBe(true);
    expect(await timed("one face frame, loaded", () => findFace([face]))).toBe(true);
  });

  it("finds the face of a person before a green screen, in landscape JPEG and portrait PNG frames", { timeout: SLOW }, async () => {
    const landscape = await onGreenScreen(face, 640, 360, 240, "jpeg");
    const portrait = await onGreenScreen(face, 360, 640, 200, "png");
    expect(await timed("landscape green frame", () => findFace([landscape]))).toBe(true);
    expect(await timed("portrait green frame", () => findFace([portrait]))).toBe(true);
  });

  it("finds no face in flat green, a gradient, noise or a photo of a cup", { timeout: SLOW }, async () => {
    const green = await sharp({ create: { width: 640, height: 360, channels: 3, background: FILMING_GREEN } })
      .jpeg()
      .toBuffer();
    const ramp = Buffer.alloc(640 * 360 * 3);
    for (let i = 0; i < ramp.length; i += 3) {
      const x = (i / 3) % 640;
      ramp[i] = Math.round((x / 639) * 255);
      ramp[i + 1] = 90;
      ramp[i + 2] = 255 - ramp[i];
    }
    const gradient = await rawToPng(ramp, 640, 360);
    let seed = 7;
    const speckle = Buffer.alloc(640 * 360 * 3);
    for (let i = 0; i < speckle.length; i++) speckle[i] = (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    const noise = await rawToPng(speckle, 640, 360);
    const frames = { green, gradient, noise, coffee: fixture("coffee.jpg") };
    for (const [name, frame] of Object.entries(frames)) expect(await timed(`${name}, no face`, () => findFace([frame])), name).toBe(false);
  });

  it("answers false for no frames", async () => {
    expect(await findFace([])).toBe(false);
  });

  it("skips a frame that is no picture and still looks at the others", { timeout: SLOW }, async () => {
    const corrupt = Buffer.from("\xff\xd8\xff\xe0 not a jpeg after all", "latin1");
    const cut = face.subarray(0, 200);
    expect(await findFace([corrupt, cut, face])).toBe(true);
    // Nothing readable means nothing was looked at: "could not check", never "no face".
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    expect(await findFace([corrupt, cut])).toBeNull();
    expect(warn).toHaveBeenCalledWith({ frames: 2 }, expect.stringMatching(/none of the sampled frames is a readable picture/));
  });

  it("answers null, and warns once, when the detector cannot load", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const load = vi.fn(() => Promise.reject(new Error("no wasm here")));
    const find = makeFaceFinder(load);
    expect(await find([face])).toBeNull();
    expect(await find([face])).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toMatch(/face detector could not load/);
  });

  it("answers null, without throwing, when the detector fails on a frame", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const find = makeFaceFinder(async () => ({ hasFace: () => Promise.reject(new Error("out of memory")) }));
    expect(await find([face])).toBeNull();
  });
});
