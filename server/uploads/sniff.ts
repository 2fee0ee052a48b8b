// What a file is, decided by its bytes: a renamed executable called photo.png is still an
// executable. The rule every upload follows:
//   1. The content decides the kind: JPG, PNG, MP4, MOV, WebM, PDF, DOCX (a ZIP holding
//      word/document.xml), XLSX (a ZIP holding xl/workbook.xml) or text. A program (ELF, MZ,
//      Mach-O, "#!") is no kind at all, whatever it is called.
//   2. Text is UTF-8 (or GB18030, common for Chinese text) with no NUL byte and few control
//      characters, and is not markup: a file that opens with a tag, a comment, a doctype or an XML
//      declaration (what a browser would sniff as HTML or XML, SVG included), or that carries a
//      <script> or <svg> element anywhere, is markup in disguise and not text.
//   3. What the upload says it is must agree with what it is. The name's extension and the part's
//      Content-Type each name kinds (KINDS_BY_EXTENSION, KINDS_BY_MIME); the content's kind must be
//      among those of each that names any. Kinds of one family stand for each other: a .png that
//      is a JPEG is still a picture, a .mov holding MP4 brands still a video. Extensions and types
//      of markup, scripts and programs (.svg, .html, .js, .exe, image/svg+xml, ...) name no kind,
//      so nothing agrees with them. One the tables do not know (or application/octet-stream, or
//      none) says nothing, and the content alone decides.
// The name and the declared type never make a file acceptable; they can only make it refused.
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
  xlsx: { mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ext: "xlsx", category: "sheet" },
} as const;

export type TFileKind = keyof typeof FILE_TYPES;
export type TFileCategory = (typeof FILE_TYPES)[TFileKind]["category"];

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) => bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b);
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

// DOCX and XLSX are ZIPs holding word/document.xml or xl/workbook.xml; ZIP keeps member names
// uncompressed in its headers.
function sniffOfficeZip(bytes: Uint8Array): "docx" | "xlsx" | null {
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return null;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.includes("word/document.xml")) return "docx";
  return buffer.includes("xl/workbook.xml") ? "xlsx" : null;
}

// Markup as a browser would sniff it: a tag, comment, doctype or XML declaration first; or a script
// or SVG element anywhere (leading lines of plain text do not make an SVG harmless).
const MARKUP_START = /^[\s\uFEFF]*<(?:[a-z][a-z0-9:_-]*(?:[\s/>]|$)|!--|!doctype|\?xml)/i;
const MARKUP_ANYWHERE = /<(?:script|svg)[\s/>]/i;

/** HTML, XML or SVG written as text: never accepted as a text file. */
export function isMarkup(text: string) {
  return MARKUP_START.test(text) || MARKUP_ANYWHERE.test(text);
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
  const office = sniffOfficeZip(bytes);
  if (office) return office;
  if (sniffWebm(bytes)) return "webm";
  const iso = sniffIsoMedia(bytes);
  if (iso) return iso;
  const text = decodeText(bytes);
  return text === null || isMarkup(text) ? null : "txt";
}

export type TDeclaredType = { filename?: string; mimeType?: string };

const PICTURES: TFileKind[] = ["jpeg", "png"];
const ISO_VIDEOS: TFileKind[] = ["mp4", "mov"];
const TEXT: TFileKind[] = ["txt"];
const NO_KIND: TFileKind[] = [];
const NEVER_EXTENSIONS = [
  "svg",
  "svgz",
  "html",
  "htm",
  "shtml",
  "xhtml",
  "xht",
  "xml",
  "xsl",
  "xslt",
  "js",
  "mjs",
  "cjs",
  "jsx",
  "vbs",
  "vbe",
  "wsf",
  "hta",
  "php",
  "jsp",
  "asp",
  "aspx",
  "swf",
  "exe",
  "dll",
  "com",
  "scr",
  "msi",
  "bat",
  "cmd",
  "ps1",
  "sh",
  "bash",
  "bin",
  "elf",
  "so",
  "dylib",
  "app",
  "apk",
  "jar",
];
const NEVER_MIMES = [
  "image/svg+xml",
  "text/html",
  "application/xhtml+xml",
  "text/xml",
  "application/xml",
  "text/javascript",
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/hta",
  "application/x-httpd-php",
  "application/x-shockwave-flash",
  "application/x-msdownload",
  "application/x-msdos-program",
  "application/vnd.microsoft.portable-executable",
  "application/x-executable",
  "application/x-elf",
  "application/x-mach-binary",
  "application/x-sh",
  "application/x-shellscript",
  "application/java-archive",
];

const table = (groups: [string[], TFileKind[]][]) => new Map(groups.flatMap(([keys, kinds]) => keys.map((k) => [k, kinds] as const)));

const KINDS_BY_EXTENSION = table([
  [NEVER_EXTENSIONS, NO_KIND],
  [["jpg", "jpeg", "jpe", "jfif", "png"], PICTURES],
  [["mp4", "m4v", "mov", "qt"], ISO_VIDEOS],
  [["txt", "text", "csv", "tsv", "md", "log"], TEXT],
  [["webm"], ["webm"]],
  [["pdf"], ["pdf"]],
  [["docx"], ["docx"]],
  [["xlsx"], ["xlsx"]],
]);

const KINDS_BY_MIME = table([
  [NEVER_MIMES, NO_KIND],
  [["image/jpeg", "image/jpg", "image/pjpeg", "image/png"], PICTURES],
  [["video/mp4", "video/quicktime"], ISO_VIDEOS],
  [["text/plain", "text/csv", "text/markdown", "text/tab-separated-values"], TEXT],
  [["video/webm", "audio/webm"], ["webm"]],
  [[FILE_TYPES.pdf.mime], ["pdf"]],
  [[FILE_TYPES.docx.mime], ["docx"]],
  [[FILE_TYPES.xlsx.mime], ["xlsx"]],
]);

/** The extension of a file name ("Photo.PNG" -> "png"), or "" when it has none. */
export function extensionOf(filename: string) {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** Whether content of this kind is what the upload's name and Content-Type say (rule 3 above). */
export function agreesWithDeclared(kind: TFileKind, declared: TDeclaredType) {
  const byName = KINDS_BY_EXTENSION.get(extensionOf(declared.filename ?? ""));
  const byType = KINDS_BY_MIME.get((declared.mimeType ?? "").split(";")[0].trim().toLowerCase());
  return [byName, byType].every((kinds) => !kinds || kinds.includes(kind));
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
