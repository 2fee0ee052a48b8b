// The one way uploads are checked and kept (DESIGN 9): by size, by the content's own type, and
// for pictures by their pixel size; only then written to the file store.
import { AppError } from "../errors/app-error";
import { logger } from "../lib/logger";
import * as accounts from "../accounts/accounts.repository";
import { getFileStore, newFileKey } from "./file-store";
import { FILE_TYPES, readImageSize, sniffType, type TFileKind } from "./sniff";
import { AVATAR_LIMITS, type TImageLimits } from "./upload-limits";

export type TAcceptedFile = { bytes: Buffer; kind: TFileKind; mime: string; ext: string };
export type TAcceptedImage = TAcceptedFile & { width: number; height: number };

/** Public files are served at /files/<key>; only keys under these folders are public. */
export const PUBLIC_FOLDERS = ["avatars/", "images/"];
export const PUBLIC_FILES_PATH = "/files/";

function describeFile(bytes: Buffer, kind: TFileKind): TAcceptedFile {
  return { bytes, kind, mime: FILE_TYPES[kind].mime, ext: FILE_TYPES[kind].ext };
}

/** A JPG or PNG picture within the limits, or the refusal that names why not. */
export function acceptImage(bytes: Buffer | null | undefined, limits: TImageLimits): TAcceptedImage {
  if (!bytes?.length) throw new AppError("file_empty_or_prohibited");
  if (bytes.length > limits.maxBytes) throw new AppError("file_too_large", { data: { max_bytes: limits.maxBytes } });
  const kind = sniffType(bytes);
  if (kind !== "jpeg" && kind !== "png") throw new AppError("file_type_not_allowed");
  const size = readImageSize(bytes);
  if (!size) throw new AppError("file_empty_or_prohibited");
  const { width, height } = size;
  if (Math.min(width, height) < limits.minSide || Math.max(width, height) > limits.maxSide) {
    throw new AppError("image_size_out_of_range", { data: { width, height, min_side: limits.minSide, max_side: limits.maxSide } });
  }
  return { ...describeFile(bytes, kind), width, height };
}

/** A document of one of the given kinds (e.g. a certificate: PDF, JPG or PNG). */
export function acceptDocument(bytes: Buffer | null | undefined, opts: { maxBytes: number; kinds: TFileKind[] }): TAcceptedFile {
  if (!bytes?.length) throw new AppError("file_empty_or_prohibited");
  if (bytes.length > opts.maxBytes) throw new AppError("file_too_large", { data: { max_bytes: opts.maxBytes } });
  const kind = sniffType(bytes);
  if (!kind || !opts.kinds.includes(kind)) throw new AppError(opts.kinds.includes("pdf") ? "document_type_not_allowed" : "file_type_not_allowed");
  if (kind !== "pdf" && !readImageSize(bytes)) throw new AppError("file_empty_or_prohibited");
  return describeFile(bytes, kind);
}

/** Writes an accepted file under a fresh key in the folder and returns the key. */
export async function storeFile(folder: string, file: TAcceptedFile) {
  const key = newFileKey(folder, file.ext);
  await getFileStore().put(key, file.bytes, file.mime);
  return key;
}

/** Best effort: a file left behind is waste, not an error the user should see. */
export async function deleteFiles(keys: string[]) {
  await Promise.all(
    keys.map((key) => getFileStore().delete(key).catch((err) => logger.warn({ err, key }, "could not delete a stored file"))),
  );
}

export function toPublicFileUrl(key: string) {
  return `${PUBLIC_FILES_PATH}${key}`;
}

export function isPublicKey(key: string) {
  return PUBLIC_FOLDERS.some((folder) => key.startsWith(folder));
}

/** Replaces the account's avatar: the new picture is kept, the account points at it, the old one goes. */
export async function setAvatar(accountId: string, bytes: Buffer | undefined) {
  const image = acceptImage(bytes, AVATAR_LIMITS);
  const previous = (await accounts.findAccountById(accountId))?.avatarUrl ?? null;
  const key = await storeFile(`avatars/${accountId}`, image);
  const avatarUrl = toPublicFileUrl(key);
  try {
    await accounts.updateAccount(accountId, { avatarUrl });
  } catch (err) {
    await deleteFiles([key]);
    throw err;
  }
  // Only our own copy of this account's earlier upload; a WeChat picture URL is not ours to delete.
  const ownFolder = `${PUBLIC_FILES_PATH}avatars/${accountId}/`;
  if (previous?.startsWith(ownFolder) && previous !== avatarUrl) await deleteFiles([previous.slice(PUBLIC_FILES_PATH.length)]);
  return { avatarUrl };
}

/** A picture shown publicly by something the account builds (an agent's avatar): kept, not attached. */
export async function storePublicImage(accountId: string, bytes: Buffer | undefined) {
  const image = acceptImage(bytes, AVATAR_LIMITS);
  const key = await storeFile(`images/${accountId}`, image);
  return { url: toPublicFileUrl(key) };
}
