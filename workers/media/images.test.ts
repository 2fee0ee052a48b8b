// Pictures for the page, made by sharp from real PNG and JPEG files: sizes within their limits,
// never enlarged, turned upright by the EXIF orientation, with no metadata left in them.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { makePng } from "../../tests/helpers/png";
import { makeImageDerivatives } from "./images";
import { MediaToolError } from "./run-tool";
import { renderTestJpeg } from "./test-sources";

const facts = async (bytes: Buffer) => {
  const m = await sharp(bytes).metadata();
  return { format: m.format, width: m.width, height: m.height, exif: m.exif, orientation: m.orientation };
};

describe("picture derivatives", () => {
  it("makes a 1600 px WebP and a 400 px thumbnail of a large PNG, keeping its shape", async () => {
    const made = await makeImageDerivatives(makePng(3200, 1800));
    expect({ width: made.width, height: made.height }).toEqual({ width: 3200, height: 1800 });
    expect(await facts(made.web)).toMatchObject({ format: "webp", width: 1600, height: 900 });
    expect(await facts(made.thumb)).toMatchObject({ format: "webp", width: 400, height: 225 });
  });

  it("turns a JPEG upright by its EXIF orientation and leaves the orientation (and all EXIF) out", async () => {
    // Stored 600x400 (landscape) with orientation 6: the camera was held upright, so it shows 400x600.
    const jpeg = await renderTestJpeg(600, 400, { orientation: 6 });
    expect(await facts(jpeg)).toMatchObject({ width: 600, height: 400, orientation: 6 });
    expect((await facts(jpeg)).exif).toBeDefined();

    const made = await makeImageDerivatives(jpeg);
    expect({ width: made.width, height: made.height }).toEqual({ width: 400, height: 600 });
    for (const out of [made.web, made.thumb]) {
      const f = await facts(out);
      expect(f.format).toBe("webp");
      expect(f.exif).toBeUndefined();
      expect(f.orientation).toBeUndefined();
    }
    expect(await facts(made.web)).toMatchObject({ width: 400, height: 600 });
    expect(await facts(made.thumb)).toMatchObject({ width: 267, height: 400 });
  });

  it("never enlarges a small picture", async () => {
    const made = await makeImageDerivatives(makePng(320, 300));
    expect(await facts(made.web)).toMatchObject({ width: 320, height: 300 });
    expect(await facts(made.thumb)).toMatchObject({ width: 320, height: 300 });
  });

  it("refuses bytes that are no picture, a picture cut short, or an SVG, with a clear error", async () => {
    await expect(makeImageDerivatives(Buffer.from("not a picture at all"))).rejects.toThrow(MediaToolError);
    await expect(makeImageDerivatives(Buffer.from("not a picture at all"))).rejects.toThrow(/^reading the picture failed: /);
    const jpeg = await renderTestJpeg(600, 400);
    await expect(makeImageDerivatives(jpeg.subarray(0, jpeg.length / 3))).rejects.toThrow(/^reading the picture failed: /);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="900" height="900"><image href="file:///etc/passwd"/></svg>');
    await expect(makeImageDerivatives(svg)).rejects.toThrow("reading the picture failed: svg is not a kind of picture kept here");
  });
});
