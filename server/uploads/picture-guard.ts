// PNG and JPEG pictures checked for what a viewer would have to unpack, and for anything carried
// after the picture ends. A picture:
//   - has at most INFLATE_LIMITS.maxPixels pixels (a 100000 x 100000 PNG header is a bomb for every
//     browser that opens it, however few bytes follow);
//   - PNG: its pixel data (IDAT, and each animation frame's fdAT) inflates to no more than its
//     header's size says it holds, measured by inflating with that size as the ceiling, and to no
//     more than INFLATE_LIMITS.maxBytes in all;
//   - ends where its format says it ends (PNG: IEND; JPEG: the last EOI). Bytes after that are how
//     one file is made to be two things at once (a picture that is also a zip, or a page); they are
//     refused, except zero padding and, for JPEG, further JPEG images (cameras append a preview
//     or a gain map after the main image, the "multi-picture" format).
// A picture too broken to read is not refused here: the upload's own checks say it is no picture.
import { AppError } from "../errors/app-error";
import { inflateCapped } from "./inflate-capped";
import { INFLATE_LIMITS, toMegabytes } from "./upload-limits";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Samples per pixel by PNG colour type. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7 passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/** Far more than any picture has (an animation has two per frame), far fewer than a flood of empty chunks. */
const MAX_CHUNKS = 20_000;

const tooLarge = () => new AppError("file_unpacks_too_large", { params: { max_mb: toMegabytes(INFLATE_LIMITS.maxBytes), ratio: INFLATE_LIMITS.maxRatio } });
const trailing = () => new AppError("file_empty_or_prohibited");

const ZEROS = Buffer.alloc(64 * 1024);
/** Only zero bytes (padding some tools leave after a picture), compared a slice at a time. */
function isZeroPadding(bytes: Buffer) {
  for (let at = 0; at < bytes.length; at += ZEROS.length) {
    const slice = bytes.subarray(at, at + ZEROS.length);
    if (!slice.equals(ZEROS.subarray(0, slice.length))) return false;
  }
  return true;
}

function checkPixels(width: number, height: number) {
  if (width * height > INFLATE_LIMITS.maxPixels) throw tooLarge();
}

type TPngHeader = { width: number; height: number; bitsPerPixel: number; interlaced: boolean };
/** One zlib stream of pixel data: IDAT's, or one animation frame's, with the size it may inflate to. */
type TPixelStream = { parts: Buffer[]; rawBytes: number };

/** Bytes of filtered scanlines a frame of this size holds (each row has a filter byte). */
function pngRawBytes(h: TPngHeader, width: number, height: number) {
  const rows = (w: number, rowsCount: number) => (w > 0 && rowsCount > 0 ? rowsCount * (1 + Math.ceil((w * h.bitsPerPixel) / 8)) : 0);
  if (!h.interlaced) return rows(width, height);
  return ADAM7.reduce((n, [xs, ys, xstep, ystep]) => n + rows(Math.ceil((width - xs) / xstep), Math.ceil((height - ys) / ystep)), 0);
}

const chunkType = (name: string) => Buffer.from(name, "latin1").readUInt32BE(0);
const CHUNK = { IHDR: chunkType("IHDR"), IDAT: chunkType("IDAT"), IEND: chunkType("IEND"), fcTL: chunkType("fcTL"), fdAT: chunkType("fdAT") };
/** Chunk types are four ASCII letters. */
function isChunkType(type: number) {
  for (let shift = 0; shift < 32; shift += 8) {
    const c = (type >>> shift) & 0xdf; // upper case
    if (c < 0x41 || c > 0x5a) return false;
  }
  return true;
}

/** Walks the chunks: the header, the pixel streams, and where IEND leaves off (null: never reached). */
function readPngChunks(bytes: Buffer): { header: TPngHeader; streams: TPixelStream[]; end: number | null } | null {
  let pos = PNG_SIGNATURE.length;
  let header: TPngHeader | null = null;
  const idat: TPixelStream = { parts: [], rawBytes: 0 };
  const streams: TPixelStream[] = [idat];
  let frame: TPixelStream | null = null;
  let chunks = 0;
  while (pos + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(pos);
    const type = bytes.readUInt32BE(pos + 4);
    // Past the header, what is not a whole chunk is a cover for what comes after.
    if (header && (pos + 12 + length > bytes.length || !isChunkType(type))) throw trailing();
    const start = pos + 8;
    const data = () => bytes.subarray(start, Math.min(bytes.length, start + length));
    pos += 12 + length;
    if (++chunks > MAX_CHUNKS) throw tooLarge();
    if (type === CHUNK.IHDR && length >= 13 && start + 13 <= bytes.length) {
      const channels = PNG_CHANNELS[bytes[start + 9]];
      if (!channels) return null;
      header = {
        width: bytes.readUInt32BE(start),
        height: bytes.readUInt32BE(start + 4),
        bitsPerPixel: channels * bytes[start + 8],
        interlaced: bytes[start + 12] === 1,
      };
      checkPixels(header.width, header.height);
      idat.rawBytes = pngRawBytes(header, header.width, header.height);
    } else if (!header) return null;
    else if (type === CHUNK.IDAT) idat.parts.push(data());
    else if (type === CHUNK.fcTL && length >= 12) {
      const [width, height] = [bytes.readUInt32BE(start + 4), bytes.readUInt32BE(start + 8)];
      checkPixels(width, height);
      frame = { parts: [], rawBytes: pngRawBytes(header, width, height) };
      streams.push(frame);
    } else if (type === CHUNK.fdAT && frame && length > 4) frame.parts.push(data().subarray(4));
    else if (type === CHUNK.IEND) return { header, streams, end: pos };
  }
  if (header && pos < bytes.length && !isZeroPadding(bytes.subarray(pos))) throw trailing();
  return header ? { header, streams, end: null } : null;
}

async function inspectPng(bytes: Buffer) {
  const png = readPngChunks(bytes);
  if (!png) return;
  if (png.end !== null && png.end < bytes.length && !isZeroPadding(bytes.subarray(png.end))) throw trailing();
  // Each stream up to the size its frame holds, and all of them together within the limit.
  let budget = INFLATE_LIMITS.maxBytes;
  for (const stream of png.streams) {
    if (!stream.parts.length) continue;
    if (stream.rawBytes > budget) throw tooLarge();
    const outcome = await inflateCapped(Buffer.concat(stream.parts), { format: "zlib", cap: stream.rawBytes });
    if (outcome.exceeded) throw tooLarge();
    budget -= outcome.bytes;
  }
}

const JPEG_SOI = [0xff, 0xd8, 0xff];
const isJpegStart = (bytes: Buffer, at: number) => JPEG_SOI.every((b, i) => bytes[at + i] === b);
/** Start-of-frame markers (they carry the picture's size); C4, C8 and CC are not frames. */
const isFrameMarker = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** Where the JPEG image starting at `start` ends (after its EOI), or null when it never does. */
function jpegEnd(bytes: Buffer, start: number): number | null {
  let pos = start + 2;
  while (pos + 2 <= bytes.length) {
    if (bytes[pos] !== 0xff) {
      pos = bytes.indexOf(0xff, pos); // entropy-coded data, up to the next marker
      if (pos < 0) return null;
      continue;
    }
    const marker = bytes[pos + 1];
    if (marker === 0xd9) return pos + 2;
    if (marker === 0x00 || marker === 0xff || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += marker === 0xff ? 1 : 2; // stuffed byte, fill byte, restart or TEM: no length follows
      continue;
    }
    if (pos + 4 > bytes.length) return null;
    const length = bytes.readUInt16BE(pos + 2);
    // A segment claiming more bytes than follow is a cover for what comes after, as in PNG.
    if (pos + 2 + length > bytes.length) throw trailing();
    if (isFrameMarker(marker) && pos + 9 <= bytes.length) checkPixels(bytes.readUInt16BE(pos + 7), bytes.readUInt16BE(pos + 5));
    pos += 2 + length;
  }
  return null;
}

function inspectJpeg(bytes: Buffer) {
  let start = 0;
  for (;;) {
    const end = jpegEnd(bytes, start);
    // The main image may be cut short (a broken picture, for the upload's checks); an appended one may not.
    if (end === null && start > 0) throw trailing();
    if (end === null || end >= bytes.length) return;
    if (!isJpegStart(bytes, end)) {
      if (!isZeroPadding(bytes.subarray(end))) throw trailing();
      return;
    }
    start = end;
  }
}

/** Refuses a PNG or JPEG that would unpack past its limits or carries something after its end. */
export async function inspectPicture(bytes: Buffer) {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) await inspectPng(bytes);
  else if (isJpegStart(bytes, 0)) inspectJpeg(bytes);
}
