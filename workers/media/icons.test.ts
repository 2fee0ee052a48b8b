// App icons: whatever the picture's shape, a 200x200 PNG cropped from its middle (cover), upright.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { makePng } from "../../tests/helpers/png";
import { normaliseIconBytes } from "./icons";
import { MediaToolError } from "./run-tool";
import { renderTestJpeg } from "./test-sources";

/** A 640x480 picture: red left and right quarters, green middle half. */
async function makeBanded() {
  const width = 640;
  const height = 480;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const middle = x >= width / 4 && x < (width * 3) / 4;
      raw.set(middle ? [0, 200, 0] : [200, 0, 0], (y * width + x) * 3);
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

describe("icon normalisation", () => {
  it("keeps a 200x200 picture 200x200, as PNG", async () => {
    const icon = await normaliseIconBytes(makePng(200, 200));
    expect(await sharp(icon).metadata()).toMatchObject({ format: "png", width: 200, height: 200 });
  });

  it("crops a 640x480 picture to its middle square rather than squeezing it", async () => {
    const icon = await normaliseIconBytes(await makeBanded());
    expect(await sharp(icon).metadata()).toMatchObject({ format: "png", width: 200, height: 200 });
    const { data } = await sharp(icon).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => Array.from(data.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 2));
    // The square is the middle 480 of 640 columns: red from 0 to 80 (0-33 once scaled), green after.
    expect(pixel(5, 100)).toEqual([200, 0]);
    expect(pixel(100, 100)).toEqual([0, 200]);
    expect(pixel(195, 100)).toEqual([200, 0]);
  });

  it("turns a phone photo upright and drops its metadata", async () => {
    const icon = await normaliseIconBytes(await renderTestJpeg(600, 300, { orientation: 6 }));
    const meta = await sharp(icon).metadata();
    expect(meta).toMatchObject({ format: "png", width: 200, height: 200 });
    expect(meta.exif).toBeUndefined();
  });

  it("refuses what is no picture, and a picture of a kind not kept here (an SVG sharp could draw)", async () => {
    await expect(normaliseIconBytes(Buffer.from("not a picture"))).rejects.toThrow(MediaToolError);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300" fill="red"/></svg>');
    await expect(normaliseIconBytes(svg)).rejects.toThrow("reading the picture failed: svg is not a kind of picture kept here");
  });
});
