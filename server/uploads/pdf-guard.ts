// PDFs checked before pdf.js (unpdf) reads them or a person opens them in a viewer:
//   - no active content: the names /JavaScript, /JS and /Launch (actions a viewer runs when the
//     file opens, or asks to run) are looked for in the file's bytes, inside every compressed stream
//     (object streams would hide them otherwise), and in their #xx-escaped spellings;
//   - compressed streams (FlateDecode) unpack within INFLATE_LIMITS: the text reader decodes content,
//     font and object streams, so they count, each stopped at the ceiling while it inflates;
//     pictures are decoded only by viewers, and their declared pixels must stay within the limit.
// A PDF too broken to read is not refused here; its reader says so.
import { AppError } from "../errors/app-error";
import { inflateCapped } from "./inflate-capped";
import { INFLATE_LIMITS, toMegabytes } from "./upload-limits";
import type { TInflateLimits } from "./archive-guard";

const tooLarge = (limits: TInflateLimits) =>
  new AppError("file_unpacks_too_large", { params: { max_mb: toMegabytes(limits.maxBytes), ratio: limits.maxRatio } });
const activeContent = () => new AppError("file_empty_or_prohibited");

const ACTIVE_NAMES = new Set(["JavaScript", "JS", "Launch"]);
const PLAIN_ACTIVE = /\/(?:JavaScript|JS|Launch)(?=[\s()<>[\]{}/%]|$)/;
const ESCAPED_NAME = /\/([^\s()<>[\]{}/%]*#[0-9a-fA-F]{2}[^\s()<>[\]{}/%]*)/g;
const SCAN_SLICE = 1024 * 1024;
const OVERLAP = 64;
/** How far before `stream` its dictionary is looked for. */
const DICTIONARY_REACH = 1024;
/** More streams than large real documents have (a page has a few); each costs a look. */
const MAX_STREAMS = 50_000;

/** Whether this text names an action, written plainly or with #xx escapes. */
export function namesActiveContent(text: string) {
  if (PLAIN_ACTIVE.test(text)) return true;
  for (const m of text.matchAll(ESCAPED_NAME)) {
    const name = m[1].replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (ACTIVE_NAMES.has(name)) return true;
  }
  return false;
}

function scanBytes(bytes: Buffer) {
  for (let at = 0; at < bytes.length; at += SCAN_SLICE) {
    if (namesActiveContent(bytes.toString("latin1", Math.max(0, at - OVERLAP), Math.min(bytes.length, at + SCAN_SLICE)))) throw activeContent();
  }
}

type TStream = { dictionary: string; data: Buffer };

/** Each `stream … endstream` body with the dictionary written before it. */
function* streamsOf(bytes: Buffer): Generator<TStream> {
  let pos = 0;
  for (;;) {
    const at = bytes.indexOf("stream", pos, "latin1");
    if (at < 0) return;
    pos = at + 6;
    if (bytes.toString("latin1", at - 3, at) === "end") continue;
    let start = pos;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] !== 0x0a && bytes[pos] !== 0x0d) continue;
    if (bytes[start] === 0x0a) start++;
    const end = bytes.indexOf("endstream", start, "latin1");
    if (end < 0) return;
    const before = bytes.toString("latin1", Math.max(0, at - DICTIONARY_REACH), at);
    yield { dictionary: before.slice(before.lastIndexOf("obj") + 1), data: bytes.subarray(start, end) };
    pos = end + 9;
  }
}

function checkPictureSize(dictionary: string) {
  const width = Number(/\/Width\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
  const height = Number(/\/Height\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
  if (width * height > INFLATE_LIMITS.maxPixels) throw tooLarge(INFLATE_LIMITS);
}

/** Refuses a PDF with active content or streams that unpack past the limits. */
export async function inspectPdf(bytes: Buffer, limits: TInflateLimits = INFLATE_LIMITS) {
  scanBytes(bytes);
  let total = 0;
  let count = 0;
  for (const stream of streamsOf(bytes)) {
    if (++count > MAX_STREAMS) throw tooLarge(limits);
    if (/\/Subtype\s*\/Image\b/.test(stream.dictionary)) {
      checkPictureSize(stream.dictionary);
      continue;
    }
    if (!/\/FlateDecode\b/.test(stream.dictionary)) continue;
    const cap = Math.min(limits.maxBytes - total, Math.max(limits.ratioGraceBytes, stream.data.length * limits.maxRatio));
    let carry = "";
    let active = false;
    const outcome = await inflateCapped(stream.data, {
      format: "zlib",
      cap,
      onChunk: (chunk) => {
        const text = carry + chunk.toString("latin1");
        active ||= namesActiveContent(text);
        carry = text.slice(-OVERLAP);
      },
    });
    if (active) throw activeContent();
    if (outcome.exceeded) throw tooLarge(limits);
    total += outcome.bytes;
  }
}
