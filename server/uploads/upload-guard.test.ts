// The inspection every uploaded file passes (upload-guard.ts and the archive, picture and PDF
// guards under it): ordinary files pass untouched, and each way of unpacking too far, hiding a
// second file or naming a file badly is refused, quickly.
import zlib from "node:zlib";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { isAppError } from "../errors/app-error";
import { deflateRepeated, makeDocxBomb, makeJpeg, makeOverlappingZip, zipOf } from "../../tests/helpers/bad-files";
import { makePdf, makePng } from "../../tests/helpers/png";
import { makeDocx, makeZip } from "../../tests/helpers/sample-files";
import { inspectArchive } from "./archive-guard";
import { agreesWithDeclared, isMarkup, sniffType } from "./sniff";
import { checkFileName, inspectUpload } from "./upload-guard";
import { INFLATE_LIMITS } from "./upload-limits";

const MB = 1024 * 1024;

async function verdict(bytes: Buffer, filename = "file") {
  try {
    await inspectUpload({ field: "file", bytes, filename });
    return "passed";
  } catch (err) {
    if (isAppError(err)) return err.code;
    throw err;
  }
}

async function timed<T>(fn: () => Promise<T>) {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

describe("archives", () => {
  it("passes ordinary docx and xlsx files, and a zip no reader would open", async () => {
    expect(await verdict(makeDocx("合同正文"))).toBe("passed");
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("QA").addRows(Array.from({ length: 500 }, (_, i) => [`问题 ${i}`, `答案 ${i}`]));
    expect(await verdict(Buffer.from(await workbook.xlsx.writeBuffer()))).toBe("passed");
    // A document that compresses very well but stays small unpacks in full.
    expect(await verdict(makeDocxBomb(3 * MB))).toBe("passed");
    expect(await verdict(Buffer.from("PK\x03\x04 not really a zip"))).toBe("passed");
  });

  it("refuses by the directory, before inflating, what declares too much", async () => {
    const honest = makeDocxBomb(100 * MB);
    const { value, ms } = await timed(() => verdict(honest));
    expect(value).toBe("file_unpacks_too_large");
    expect(ms).toBeLessThan(50);
    // Past the total, even at a plain ratio: 129 MB of incompressible-looking members is too much.
    const members = Array.from({ length: 3 }, (_, i) => ({ name: `m${i}.bin`, data: deflateRepeated(1, "x"), declaredSize: 43 * MB }));
    expect(await verdict(zipOf(members))).toBe("file_unpacks_too_large");
    const many = makeZip(Object.fromEntries(Array.from({ length: INFLATE_LIMITS.maxEntries + 1 }, (_, i) => [`f${i}`, ""])));
    expect(await verdict(many)).toBe("file_unpacks_too_large");
    expect(await verdict(makeOverlappingZip())).toBe("file_unpacks_too_large");
  });

  it("stops a member that inflates past the size it declares at the first chunk past it", async () => {
    const lying = makeDocxBomb(100 * MB, 2048);
    const { value, ms } = await timed(() => verdict(lying));
    expect(value).toBe("file_unpacks_too_large");
    expect(ms).toBeLessThan(200);
  });

  it("refuses an archive laid out so that another reader could read other bytes", async () => {
    // Data in front of the archive: JSZip would shift every offset by it.
    expect(await verdict(Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.alloc(100), makeDocx("x")]))).toBe("file_empty_or_prohibited");
    // A picture or a PDF carrying an archive after it.
    expect(await verdict(Buffer.concat([makePng(400, 400), makeZip({ "a.html": "<script>" })]))).toBe("file_empty_or_prohibited");
    expect(await verdict(Buffer.concat([makePdf(), makeZip({ "a.html": "<script>" })]))).toBe("file_empty_or_prohibited");
    // Stated caps can be narrower for one reader (what the text reader is given).
    await expect(inspectArchive(makeDocxBomb(3 * MB), { ...INFLATE_LIMITS, maxBytes: MB })).rejects.toMatchObject({ code: "file_unpacks_too_large" });
  });
});

describe("pictures", () => {
  it("passes ordinary pictures, zero padding, and a camera's JPEG with a second image after it", async () => {
    expect(await verdict(makePng(5000, 300))).toBe("passed");
    expect(await verdict(makeJpeg(640, 480))).toBe("passed");
    expect(await verdict(Buffer.concat([makePng(400, 400), Buffer.alloc(4096)]))).toBe("passed");
    expect(await verdict(Buffer.concat([makeJpeg(640, 480), makeJpeg(160, 120)]))).toBe("passed");
    // Broken pictures are the upload's own checks to name ("not a picture").
    expect(await verdict(makePng(400, 400).subarray(0, 20))).toBe("passed");
  });

  it("refuses pictures declaring too many pixels, pixel data past the header's size, and what follows the end", async () => {
    const huge = makePng(1, 1);
    huge.writeUInt32BE(100_000, 16);
    huge.writeUInt32BE(100_000, 20);
    expect(await verdict(huge)).toBe("file_unpacks_too_large");
    const jpeg = makeJpeg(400, 400);
    const at = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    jpeg.writeUInt16BE(60_000, at + 5);
    jpeg.writeUInt16BE(60_000, at + 7);
    expect(await verdict(jpeg)).toBe("file_unpacks_too_large");
    // 1000 x 1000 grey holds 1 MB of scanlines; this pixel data inflates to 50 MB.
    const header = makePng(1000, 1000);
    const idat = Buffer.concat([Buffer.from([0x78, 0xda]), deflateRepeated(50 * MB).packed]);
    const bomb = Buffer.concat([header.subarray(0, 33), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
    const { value, ms } = await timed(() => verdict(bomb));
    expect(value).toBe("file_unpacks_too_large");
    expect(ms).toBeLessThan(200);
    expect(await verdict(Buffer.concat([makeJpeg(400, 400), Buffer.from("<html><script>alert(1)</script>")]))).toBe("file_empty_or_prohibited");
    expect(await verdict(Buffer.concat([makeJpeg(400, 400), Buffer.from([0xff, 0xd8, 0xff]), Buffer.from("<html>")]))).toBe("file_empty_or_prohibited");
    // A chunk claiming the rest of the file, to cover what follows.
    const png = makePng(400, 400);
    const cover = Buffer.concat([png.subarray(0, png.length - 12), Buffer.from([0, 0, 0x10, 0]), Buffer.from("tEXt<html><script>")]);
    expect(await verdict(cover)).toBe("file_empty_or_prohibited");
  });
});

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type), data])));
  return Buffer.concat([length, Buffer.from(type), data, crc]);
}

describe("PDFs", () => {
  const pdfWithStream = (dictionary: string, body: Buffer) =>
    Buffer.concat([
      Buffer.from(`%PDF-1.5\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n3 0 obj << ${dictionary} /Length ${body.length} >>\nstream\n`),
      body,
      Buffer.from("\nendstream\nendobj\n%%EOF\n"),
    ]);

  it("passes ordinary PDFs, whose pictures are not inflated", async () => {
    expect(await verdict(makePdf())).toBe("passed");
    expect(await verdict(pdfWithStream("/Filter /FlateDecode", zlib.deflateSync(Buffer.from("BT /F1 12 Tf (Hello) Tj ET"))))).toBe("passed");
    const picture = Buffer.concat([Buffer.from([0x78, 0xda]), deflateRepeated(10 * MB).packed]);
    expect(await verdict(pdfWithStream("/Type /XObject /Subtype /Image /Width 2000 /Height 1700 /Filter /FlateDecode", picture))).toBe("passed");
  });

  it("refuses script and launch actions, plain or escaped, and streams that inflate too far", async () => {
    expect(await verdict(Buffer.from("%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (x) >> >> endobj\n%%EOF"))).toBe("file_empty_or_prohibited");
    expect(await verdict(Buffer.from("%PDF-1.4\n1 0 obj << /OpenAction << /S /Launch /F (calc.exe) >> >> endobj\n%%EOF"))).toBe("file_empty_or_prohibited");
    expect(await verdict(pdfWithStream("/Type /ObjStm /Filter /FlateDecode", zlib.deflateSync(Buffer.from("<< /S /Java#53cript /J#53 (x) >>"))))).toBe(
      "file_empty_or_prohibited",
    );
    const content = Buffer.concat([Buffer.from([0x78, 0xda]), deflateRepeated(100 * MB).packed]);
    expect(await verdict(pdfWithStream("/Filter /FlateDecode", content))).toBe("file_unpacks_too_large");
    expect(await verdict(pdfWithStream("/Subtype /Image /Width 100000 /Height 100000", Buffer.alloc(10)))).toBe("file_unpacks_too_large");
  });
});

describe("names", () => {
  it("takes plain names and refuses folders, control characters, direction marks and long ones", () => {
    for (const name of ["", "photo.png", "2026年春季发布会 主视觉 (final).png", "a.b.c.docx", "résumé.pdf"])
      expect(() => checkFileName(name), name).not.toThrow();
    for (const name of [
      "../../etc/passwd",
      "..\\..\\x.png",
      "a/b.png",
      "..",
      "a\u0000b.png",
      "a\nb.png",
      "a\tb.png",
      "photo\u202egnp.exe",
      `${"名".repeat(256)}.png`,
    ]) {
      expect(() => checkFileName(name), JSON.stringify(name)).toThrow(expect.objectContaining({ code: "file_name_not_allowed" }));
    }
  });
});

describe("what a file is and what it says it is", () => {
  it("does not take markup for text", () => {
    for (const text of [
      '<?xml version="1.0"?><svg/>',
      "  <svg onload=alert(1)>",
      "<!DOCTYPE html><p>",
      "<html>",
      "<!-- x -->",
      "notes\n<script>alert(1)</script>",
      "a\n<svg/onload=alert(1)>",
    ]) {
      expect(isMarkup(text), text).toBe(true);
      expect(sniffType(Buffer.from(text))).toBeNull();
    }
    for (const text of ["a < b and c > d", "<3 you", "price <100 yuan", "第一行\n第二行", "if (a<b) return;"]) expect(isMarkup(text), text).toBe(false);
  });

  it("takes kinds of one family for each other and refuses the rest; unknown declarations say nothing", () => {
    expect(agreesWithDeclared("jpeg", { filename: "photo.PNG", mimeType: "image/png" })).toBe(true);
    expect(agreesWithDeclared("mp4", { filename: "clip.mov", mimeType: "video/quicktime" })).toBe(true);
    expect(agreesWithDeclared("txt", { filename: "qa.csv", mimeType: "application/vnd.ms-excel" })).toBe(true);
    expect(agreesWithDeclared("png", { filename: "blob", mimeType: "application/octet-stream" })).toBe(true);
    expect(agreesWithDeclared("docx", { filename: "合同", mimeType: "" })).toBe(true);
    expect(agreesWithDeclared("pdf", { filename: "notes.txt" })).toBe(false);
    expect(agreesWithDeclared("txt", { filename: "notes.txt", mimeType: "application/pdf" })).toBe(false);
    expect(agreesWithDeclared("png", { filename: "logo.svg" })).toBe(false);
    expect(agreesWithDeclared("png", { filename: "photo.png", mimeType: "image/svg+xml" })).toBe(false);
    expect(agreesWithDeclared("txt", { filename: "page.html" })).toBe(false);
    expect(agreesWithDeclared("png", { filename: "x.constructor" })).toBe(true);
  });
});
