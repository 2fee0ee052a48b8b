// The one way uploads are checked and kept (docs/security.md#upload-checks), used by every area: by
// size, by the content's own type (sniff.ts; an executable is refused whatever its name), by what
// the form said the file is (it must agree with the content: sniff.ts, rule 3), for pictures by
// their pixel size; only then written to the file store (file-store.ts: a local folder or an S3
// bucket). Before any of this, the form reader has inspected every file for what is dangerous to
// keep or unpack whatever the area (upload-guard.ts: names, programs, archives and pictures that
// unpack too far, polyglots).
//
// The API other areas call:
//   acceptImage(bytes, limits)     a JPG/PNG picture within the limits' bytes and 300-5000 px
//   acceptVideo(bytes, limits)     an MP4, MOV or WebM video
//   acceptTextFile(bytes, limits)  a txt, docx or pdf file, not empty
//   acceptDocument(bytes, opts)    one of the given kinds (certificates: pdf, jpeg, png)
//   assertFileCount(n, max)        the per-form count (PER_FORM in upload-limits.ts)
//   storeFile(folder, file)        writes an accepted file under a fresh key, returns the key
//   deleteFiles(keys)              best-effort removal
//   storePublicIcon(account, bytes) an app's icon (200 px a side will do), made 200x200 by the worker
// Limits live in upload-limits.ts (shared with the browser); refusals are AppErrors of the catalogue.
import { AppError } from "../errors/app-error";
import { enqueueJob } from "../jobs/jobs";
import { logger } from "../lib/logger";
import { declaredTypeOf } from "./declared-type";
import { getFileStore, newFileKey } from "./file-store";
import { agreesWithDeclared, decodeText, FILE_TYPES, isExecutable, readImageSize, sniffType, type TFileKind } from "./sniff";
import { derivedFileKey, type TStoredFile } from "./stored-file";
import { AVATAR_LIMITS, ICON_LIMITS, type TFileLimits, type TImageLimits } from "./upload-limits";

export type TAcceptedFile<K extends TFileKind = TFileKind> = { bytes: Buffer; kind: K; mime: string; ext: string; size: number };
export type TAcceptedImage = TAcceptedFile<"jpeg" | "png"> & { width: number; height: number };
export type TAcceptedVideo = TAcceptedFile<"mp4" | "mov" | "webm">;
export type TTextFileKind = "txt" | "docx" | "pdf";
export type TAcceptedTextFile = TAcceptedFile<TTextFileKind>;

/**
 * Public files are served at /files/<key> to anyone; only keys under these folders are. Their keys
 * are unguessable (newFileKey: time plus 72 random bits), so a URL is shown only to whom it is given.
 * media/ is the multimedia library: public H5 apps show its pictures and videos to visitors.
 */
export const PUBLIC_FOLDERS = ["avatars/", "images/", "media/"];
export const PUBLIC_FILES_PATH = "/files/";

/**
 * Content of an accepted kind must also be what its form said (a .txt that is a PDF is not what it
 * says; a .png that is a JPEG is still a picture). Bytes that came from no form declare nothing.
 */
export function checkDeclaredType(bytes: Buffer, kind: TFileKind) {
  if (!agreesWithDeclared(kind, declaredTypeOf(bytes))) throw new AppError("file_type_mismatch", { params: { kind: FILE_TYPES[kind].ext.toUpperCase() } });
}

function describeFile<K extends TFileKind>(bytes: Buffer, kind: K): TAcceptedFile<K> {
  checkDeclaredType(bytes, kind);
  return { bytes, kind, mime: FILE_TYPES[kind].mime, ext: FILE_TYPES[kind].ext, size: bytes.length };
}

/** The checks every upload goes through first: not empty, not an executable, within its bytes. */
function checkBytes(bytes: Buffer | null | undefined, maxBytes: number): asserts bytes is Buffer {
  if (!bytes?.length || isExecutable(bytes)) throw new AppError("file_empty_or_prohibited");
  if (bytes.length > maxBytes) throw new AppError("file_too_large", { data: { max_bytes: maxBytes } });
}

const isImageKind = (kind: TFileKind | null): kind is "jpeg" | "png" => kind === "jpeg" || kind === "png";
const isVideoKind = (kind: TFileKind | null): kind is "mp4" | "mov" | "webm" => kind === "mp4" || kind === "mov" || kind === "webm";
const isTextKind = (kind: TFileKind | null): kind is TTextFileKind => kind === "txt" || kind === "docx" || kind === "pdf";

/** A JPG or PNG picture within the limits, or the refusal that names why not. */
export function acceptImage(bytes: Buffer | null | undefined, limits: TImageLimits): TAcceptedImage {
  checkBytes(bytes, limits.maxBytes);
  const kind = sniffType(bytes);
  if (!isImageKind(kind)) throw new AppError("file_type_not_allowed");
  const size = readImageSize(bytes);
  if (!size) throw new AppError("file_empty_or_prohibited");
  const { width, height } = size;
  if (Math.min(width, height) < limits.minSide || Math.max(width, height) > limits.maxSide) {
    throw new AppError("image_size_out_of_range", {
      params: { min_side: limits.minSide, max_side: limits.maxSide },
      data: { width, height, min_side: limits.minSide, max_side: limits.maxSide },
    });
  }
  return { ...describeFile(bytes, kind), width, height };
}

/** An MP4, MOV or WebM video within the limits (100 MB; a greeting video 20 MB). */
export function acceptVideo(bytes: Buffer | null | undefined, limits: TFileLimits): TAcceptedVideo {
  checkBytes(bytes, limits.maxBytes);
  const kind = sniffType(bytes);
  if (!isVideoKind(kind)) throw new AppError("video_type_not_allowed");
  return describeFile(bytes, kind);
}

/**
 * A text file (txt, docx or pdf, not empty) within maxBytes (TRAINING_FILE_LIMITS 50 MB,
 * TEXT_FILE_LIMITS 10 MB). The kind comes from the content: txt is readable UTF-8 (or GB18030) text
 * without NUL bytes, docx a ZIP holding word/document.xml, pdf starts with "%PDF-". A txt of only
 * blanks counts as empty. Whether a docx or pdf holds any text is for the caller's extraction to say.
 */
export function acceptTextFile(bytes: Buffer | null | undefined, limits: TFileLimits): TAcceptedTextFile {
  checkBytes(bytes, limits.maxBytes);
  const kind = sniffType(bytes);
  if (!isTextKind(kind)) throw new AppError("text_file_type_not_allowed");
  if (kind === "txt" && !decodeText(bytes)?.trim()) throw new AppError("file_empty_or_prohibited");
  return describeFile(bytes, kind);
}

/** A text file or a spreadsheet (txt, docx, pdf or xlsx; a workshop node's content), within limits. */
export function acceptTextOrSheetFile(bytes: Buffer | null | undefined, limits: TFileLimits): TAcceptedFile<TTextFileKind | "xlsx"> {
  checkBytes(bytes, limits.maxBytes);
  if (sniffType(bytes) === "xlsx") return describeFile(bytes, "xlsx");
  return acceptTextFile(bytes, limits);
}

/** A picture or a video (the multimedia library): each by its own limits. */
export function acceptMedia(bytes: Buffer | null | undefined, limits: { image: TImageLimits; video: TFileLimits }): TAcceptedImage | TAcceptedVideo {
  checkBytes(bytes, Math.max(limits.image.maxBytes, limits.video.maxBytes));
  const kind = sniffType(bytes);
  if (isImageKind(kind)) return acceptImage(bytes, limits.image);
  if (isVideoKind(kind)) return acceptVideo(bytes, limits.video);
  throw new AppError("media_type_not_allowed");
}

/** A form carries at most `max` files (PER_FORM: 3 pictures, 5 or 10 files). */
export function assertFileCount(count: number, max: number) {
  if (count > max) throw new AppError("too_many_files", { params: { max }, data: { max } });
}

/** A document of one of the given kinds (e.g. a certificate: PDF, JPG or PNG). */
export function acceptDocument(bytes: Buffer | null | undefined, opts: { maxBytes: number; kinds: TFileKind[] }): TAcceptedFile {
  checkBytes(bytes, opts.maxBytes);
  const kind = sniffType(bytes);
  if (!kind || !opts.kinds.includes(kind)) throw new AppError(opts.kinds.includes("pdf") ? "document_type_not_allowed" : "file_type_not_allowed");
  if (kind !== "pdf" && !readImageSize(bytes)) throw new AppError("file_empty_or_prohibited");
  return describeFile(bytes, kind);
}

/**
 * Writes an accepted file under a fresh, unguessable key in the folder (e.g. `training/<accountId>`)
 * and returns the key. Keys under PUBLIC_FOLDERS are served at /files/<key>; others are private and
 * read back by their area through getFileStore().get(key). A failed write is "upload failed".
 */
export async function storeFile(folder: string, file: Pick<TAcceptedFile, "bytes" | "mime" | "ext">) {
  const key = newFileKey(folder, file.ext);
  try {
    await getFileStore().put(key, file.bytes, file.mime);
  } catch (err) {
    // The user sees "upload failed"; the operator needs the store's own reason.
    logger.error({ err, key }, "the file store refused a write");
    throw new AppError("upload_failed", { cause: err });
  }
  return key;
}

/** Best effort: a file left behind is waste, not an error the user should see. */
export async function deleteFiles(keys: string[]) {
  await Promise.all(
    keys.map((key) =>
      getFileStore()
        .delete(key)
        .catch((err) => logger.warn({ err, key }, "could not delete a stored file")),
    ),
  );
}

export function toPublicFileUrl(key: string) {
  return `${PUBLIC_FILES_PATH}${key}`;
}

export function isPublicKey(key: string) {
  return PUBLIC_FOLDERS.some((folder) => key.startsWith(folder));
}

/**
 * Queues a stored public picture's web-sized copy and thumbnail (`<key>.web.webp`, `<key>.thumb.webp`
 * beside it, made by the worker). Best effort: without them the original is shown.
 */
export async function requestPictureDerivatives(key: string) {
  try {
    await enqueueJob("media.derive", { fileKey: key, purpose: "picture" }, { jobId: `picture-${key.replace(/[^A-Za-z0-9_-]/g, "_")}` });
  } catch (err) {
    logger.warn({ err, key }, "could not queue a picture's web copies: its original is shown");
  }
}

/** A picture shown publicly by something the account builds (an agent's avatar): kept, not attached. */
export async function storePublicImage(accountId: string, bytes: Buffer | undefined) {
  const image = acceptImage(bytes, AVATAR_LIMITS);
  const key = await storeFile(`images/${accountId}`, image);
  await requestPictureDerivatives(key);
  return { url: toPublicFileUrl(key) };
}

const ICON_SUFFIX = ".icon.png";

/**
 * An app's icon: kept like any public picture (200 px a side at least), then made into a 200x200
 * PNG beside it by the worker (the job "media.derive"). The answer is that PNG's URL at once, and
 * until the worker has written it /files/ serves the original there (readIconOriginal). The app,
 * whenever its form is saved, keeps a URL that shows the icon before and after the job, so nothing
 * depends on which finishes first; rewriting apps' icon URLs when the job ends would race the form
 * (the app may be saved before the job ends, after it, or never).
 */
export async function storePublicIcon(accountId: string, bytes: Buffer | undefined) {
  const image = acceptImage(bytes, ICON_LIMITS);
  const key = await storeFile(`images/${accountId}`, image);
  try {
    await enqueueJob("media.derive", { fileKey: key, purpose: "icon" }, { jobId: `icon-${key.replace(/[^A-Za-z0-9_-]/g, "_")}` });
  } catch (err) {
    logger.warn({ err, key }, "could not queue an icon's 200x200 copy: its original is shown");
  }
  return { url: toPublicFileUrl(derivedFileKey(key, "icon", "png")) };
}

/**
 * For an icon's 200x200 copy that is not made yet (or could not be), the original it comes from:
 * JPG and PNG are the kinds an icon may be. Null for any other key.
 */
export async function readIconOriginal(key: string, range?: string): Promise<TStoredFile | null> {
  if (!key.endsWith(ICON_SUFFIX) || !isPublicKey(key)) return null;
  const base = key.slice(0, -ICON_SUFFIX.length);
  for (const ext of [FILE_TYPES.png.ext, FILE_TYPES.jpeg.ext]) {
    const file = await getFileStore()
      .get(`${base}.${ext}`, range)
      .catch(() => null);
    if (file) return file;
  }
  return null;
}
