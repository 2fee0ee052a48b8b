// Every file a multipart form carries is inspected here before any handler sees it (readMultipart
// runs it), whatever the endpoint, so an upload route added later is covered without asking. It
// refuses what is dangerous to keep or to unpack, not what is merely of another kind (each area
// names the kinds it takes, with its own message):
//   - a name that is not a plain file name: folders ("../../etc/passwd", "..\x.png"), control
//     characters (NUL, line breaks), direction marks that make "gnp.exe" read as "exe.png", or one
//     longer than FILE_NAME_MAX_CHARS;
//   - a program (ELF, MZ, Mach-O, "#!"), whatever it is called;
//   - a ZIP (docx, xlsx, zip) that unpacks past INFLATE_LIMITS (archive-guard.ts), a picture that
//     would or that carries something after its end (picture-guard.ts), a PDF with active content
//     or streams that would (pdf-guard.ts);
//   - a ZIP hidden in a file of another kind (a picture or a PDF with an archive appended).
// The work is bounded by those limits and runs on zlib's thread pool, not the event loop.
import { AppError } from "../errors/app-error";
import { logger } from "../lib/logger";
import { inspectArchive, locateZip } from "./archive-guard";
import { inspectPdf } from "./pdf-guard";
import { inspectPicture } from "./picture-guard";
import { isExecutable } from "./sniff";
import { FILE_NAME_MAX_CHARS } from "./upload-limits";

// Path separators, C0 and C1 controls, DEL, and the bidirectional marks and overrides.
const NOT_IN_A_NAME = /[\\/\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A plain file name (or none): anything else is refused, never cleaned into something else. */
export function checkFileName(name: string) {
  if (!name) return;
  if (NOT_IN_A_NAME.test(name) || name === "." || name === ".." || [...name].length > FILE_NAME_MAX_CHARS) {
    throw new AppError("file_name_not_allowed", { params: { max: FILE_NAME_MAX_CHARS } });
  }
}

const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString("latin1") === "%PDF-";

async function inspectContent(bytes: Buffer) {
  if (isExecutable(bytes)) throw new AppError("file_empty_or_prohibited");
  if (bytes.subarray(0, 4).equals(ZIP_LOCAL_HEADER)) return inspectArchive(bytes);
  if (locateZip(bytes)) throw new AppError("file_empty_or_prohibited");
  await inspectPicture(bytes);
  if (isPdf(bytes)) await inspectPdf(bytes);
}

/** Refuses a form's file that is dangerous to keep or to unpack; the refusal names the form field and the file. */
export async function inspectUpload(file: { field: string; bytes: Buffer; filename: string }) {
  try {
    checkFileName(file.filename);
    await inspectContent(file.bytes);
  } catch (err) {
    // A file the inspection itself trips over is not waved through: it is refused, and logged.
    if (!(err instanceof AppError)) logger.error({ err, field: file.field }, "upload inspection failed");
    const refusal = err instanceof AppError ? err : new AppError("file_empty_or_prohibited", { cause: err });
    throw new AppError(refusal.code, { params: refusal.params, data: { field: file.field, name: file.filename.slice(0, 300) }, cause: err });
  }
}
