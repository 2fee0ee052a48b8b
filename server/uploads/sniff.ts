// What a file is, decided by its bytes (DESIGN 9): a renamed executable called photo.png is still
// an executable. The name and the browser's declared type are never trusted.
import { imageSize } from "image-size";

export const FILE_TYPES = {
  jpeg: { mime: "image/jpeg", ext: "jpg", category: "image" },
  png: { mime: "image/png", ext: "png", category: "image" },
  mp4: { mime: "video/mp4", ext: "mp4", category: "video" },
  mov: { mime: "video/quicktime", ext: "mov", category: "video" },
  webm: { mime: "video/webm", ext: "webm", category: "video" },
  pdf: { mime: "application/pdf", ext: "pdf", category: "text" },
  docx: { mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", ext: "docx", category: "text" },
  txt: { mime: "text/plain; charset=utf-8", ext: "txt", category: "text" },
} as const;

export type TFileKind = keyof typeof FILE_TYPES;
export type TFileCategory = (typeof FILE_TYPES)[TFileKind]["category"];

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) =>
  bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString("latin1");

const ELF = [0x7f, 0x45, 0x4c, 0x46];
const MZ = [0x4d, 0x5a];
const MACH_O = [
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  [0xca, 0xfe, 0xba, 0xbe],
];
const SHEBANG = [0x23, 0x21]; // "#!"

/** A program or script, whatever it is called: never accepted by any upload. */
export function isExecutable(bytes: Uint8Array) {
  return startsWith(bytes, ELF) || startsWith(bytes, MZ) || startsWith(bytes, SHEBANG) || MACH_O.some((m) => startsWith(bytes, m));
}

// ISO base media (MP4, MOV): a box whose type at bytes 4-8 is "ftyp", the major brand after it.
// HEIF/AVIF pictures use the same container with their own brands: those are not videos.
const STILL_IMAGE_BRANDS = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]);
// QuickTime files from older cameras may open with another top-level atom instead of "ftyp".
const QUICKTIME_ATOMS = new Set(["moov", "mdat", "wide", "free", "skip", "pnot"]);

function sniffIsoMedia(bytes: Uint8Array): "mp4" | "mov" | null {
  if (bytes.length < 12) return null;
  const box = ascii(bytes, 4, 8);
  if (box === "ftyp") {
    const brand = ascii(bytes, 8, 12);
    if (brand === "qt  ") return "mov";
    return STILL_IMAGE_BRANDS.has(brand) ? null : "mp4";
  }
  return QUICKTIME_ATOMS.has(box) && /^[\x20-\x7e]{4}$/.test(box) ? "mov" : null;
}

// WebM is Matroska (an EBML header) whose DocType says "webm".
function sniffWebm(bytes: Uint8Array) {
  return startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3]) && ascii(bytes, 4, Math.min(bytes.length, 64)).includes("webm");
}

// DOCX is a ZIP holding word/document.xml; ZIP keeps entry names uncompressed in its headers.
function sniffDocx(bytes: Uint8Array) {
  return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes("word/document.xml");
}

/**
 * Readable text, or null: valid UTF-8 (a GB18030 file, common for Chinese text, is read too),
 * no NUL byte, and control characters other than tab, line and page breaks at most 1 in 100.
 */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    try {
      text = new TextDecoder("gb18030", { fatal: true }).decode(bytes);
    } catch {
      return null;
    }
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0x7f) control++;
  }
  return control > text.length / 100 ? null : text.replace(/^\uFEFF/, "");
}

/** The kind of file these bytes are, or null when it is none we accept (an executable is never). */
export function sniffType(bytes: Uint8Array): TFileKind | null {
  if (!bytes.length || isExecutable(bytes)) return null;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "pdf"; // "%PDF-"
  if (sniffDocx(bytes)) return "docx";
  if (sniffWebm(bytes)) return "webm";
  const iso = sniffIsoMedia(bytes);
  if (iso) return iso;
  return decodeText(bytes) === null ? null : "txt";
}

/** Width and height in pixels, or null when the picture cannot be read. */
export function readImageSize(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}
