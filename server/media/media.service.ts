// The multimedia library (the /multimedia page): pictures and videos with names, for apps and
// digital humans to use later.
// - Every verb needs the edition's multimediaLibrary feature; basic accounts get the upgrade refusal.
// - Another account's item is not found, on every verb.
// - 100 uploads per account per day, China time (UTC+8, no daylight saving), deleted ones included:
//   checked before the file is written, and again under a per-account lock when the row is added.
// - Files go through the upload service (content-sniffed, upload-limits.ts) into the public folder
//   media/<account>/ under unguessable keys: apps published as public H5 pages will show them to
//   visitors without a session, so the URL itself is the capability. Deleting clears the file.
// - Each upload then queues its derivatives (media-derive.service.ts): the views carry their URLs
//   once made, and deleting clears them with the file.
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertFeature } from "../accounts/entitlements.service";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { MEDIA_IMAGE_LIMITS, MEDIA_UPLOADS_PER_DAY, MEDIA_VIDEO_LIMITS } from "../uploads/upload-limits";
import { acceptMedia, deleteFiles, storeFile, toPublicFileUrl } from "../uploads/uploads.service";
import type { TUploadedFile } from "../uploads/multipart";
import { derivedKeysOf, readMediaMeta } from "./file-work";
import { requestMediaDerivation } from "./media-derive.service";
import * as repo from "./media.repository";
import {
  MEDIA_NAME_MAX,
  ZMediaName,
  type TListMediaInput,
  type TMediaIdInput,
  type TMediaItem,
  type TMediaPage,
  type TMediaQuota,
  type TRenameMediaInput,
} from "./media.schema";

export type TMediaActor = Pick<TSessionAccount, "id">;

const DAY_MS = 24 * 3600_000;
const CHINA_OFFSET_MS = 8 * 3600_000;

/** The upload day that contains `now`: from midnight China time to the next. */
export function uploadDay(now: Date) {
  const start = Math.floor((now.getTime() + CHINA_OFFSET_MS) / DAY_MS) * DAY_MS - CHINA_OFFSET_MS;
  return { start: new Date(start), resetAt: new Date(start + DAY_MS) };
}

function dailyLimitReached(now: Date) {
  const { resetAt } = uploadDay(now);
  const minutesLeft = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 60_000));
  return new AppError("media_daily_limit", {
    params: { max: MEDIA_UPLOADS_PER_DAY, hours: Math.floor(minutesLeft / 60), minutes: minutesLeft % 60 },
    data: { limit: MEDIA_UPLOADS_PER_DAY, reset_at: resetAt.toISOString() },
  });
}

const publicUrlOf = (key: string | null | undefined) => (key ? toPublicFileUrl(key) : null);

function toView(row: repo.TMediaRow): TMediaItem {
  const meta = readMediaMeta(row.meta);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    mime: row.mime,
    size: row.size,
    width: row.width,
    height: row.height,
    url: row.fileKey ? toPublicFileUrl(row.fileKey) : "",
    thumbUrl: publicUrlOf(meta.thumb),
    posterUrl: publicUrlOf(meta.poster),
    playUrl: publicUrlOf(meta.play),
    durationMs: meta.durationMs ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The name given, else the file's own name (without any folder), kept within MEDIA_NAME_MAX. */
export function mediaName(given: string | undefined, filename: string, fallback: string) {
  if (given?.trim()) return ZMediaName.parse(given);
  const own = filename.split(/[\\/]/).pop()!.trim() || fallback;
  const chars = Array.from(own);
  if (chars.length <= MEDIA_NAME_MAX) return own;
  const dot = own.lastIndexOf(".");
  const ext = dot > 0 && own.length - dot <= 6 ? own.slice(dot) : "";
  return (
    Array.from(own.slice(0, own.length - ext.length))
      .slice(0, MEDIA_NAME_MAX - ext.length)
      .join("") + ext
  );
}

export async function getMediaQuota(account: TMediaActor, now = new Date()): Promise<TMediaQuota> {
  await assertFeature(account.id, "multimediaLibrary", now);
  const { start, resetAt } = uploadDay(now);
  const used = await repo.countUploadsSince(account.id, start);
  return { used, limit: MEDIA_UPLOADS_PER_DAY, remaining: Math.max(0, MEDIA_UPLOADS_PER_DAY - used), resetAt: resetAt.toISOString() };
}

/** Before reading an upload's body: the edition and the day's allowance (checked again when adding). */
export async function assertCanUpload(account: TMediaActor, now = new Date()) {
  const quota = await getMediaQuota(account, now);
  if (quota.remaining === 0) throw dailyLimitReached(now);
}

export async function uploadMedia(account: TMediaActor, file: TUploadedFile | undefined, fields: { name?: string }, now = new Date()): Promise<TMediaItem> {
  await assertCanUpload(account, now);
  const accepted = acceptMedia(file?.bytes, { image: MEDIA_IMAGE_LIMITS, video: MEDIA_VIDEO_LIMITS });
  const kind = accepted.kind === "jpeg" || accepted.kind === "png" ? "image" : "video";
  const name = mediaName(fields.name, file?.filename ?? "", `${kind}.${accepted.ext}`);
  const size = "width" in accepted ? { width: accepted.width, height: accepted.height } : { width: null, height: null };
  const key = await storeFile(`media/${account.id}`, accepted);
  let row: repo.TMediaRow;
  try {
    row = await withTransaction(async (tx) => {
      await repo.lockAccountUploads(account.id, tx);
      if ((await repo.countUploadsSince(account.id, uploadDay(now).start, tx)) >= MEDIA_UPLOADS_PER_DAY) throw dailyLimitReached(now);
      return repo.createMediaItem(
        { ownerAccountId: account.id, name, kind, fileKey: key, mime: accepted.mime, size: accepted.size, ...size, createdAt: now },
        tx,
      );
    });
  } catch (err) {
    await deleteFiles([key]);
    throw err;
  }
  // After the commit: the worker reads the row on another connection.
  await requestMediaDerivation(row.id);
  return toView(row);
}

export async function listMedia(account: TMediaActor, { kind, page, pageSize }: TListMediaInput): Promise<TMediaPage> {
  await assertFeature(account.id, "multimediaLibrary");
  const { rows, total } = await repo.listMediaItems(account.id, { kind, skip: (page - 1) * pageSize, take: pageSize });
  return { items: rows.map(toView), total, page, pageSize };
}

export async function getMedia(account: TMediaActor, { id }: TMediaIdInput): Promise<TMediaItem> {
  await assertFeature(account.id, "multimediaLibrary");
  const row = await repo.findMediaItem(account.id, id);
  if (!row) throw new AppError("not_found");
  return toView(row);
}

export async function renameMedia(account: TMediaActor, { id, name }: TRenameMediaInput): Promise<TMediaItem> {
  await assertFeature(account.id, "multimediaLibrary");
  if (!(await repo.renameMediaItem(account.id, id, name))) throw new AppError("not_found");
  return getMedia(account, { id });
}

/** The row stays (it counted toward its day); the file and what was made from it go. */
export async function deleteMedia(account: TMediaActor, { id }: TMediaIdInput, now = new Date()): Promise<{ id: string }> {
  await assertFeature(account.id, "multimediaLibrary");
  const deleted = await repo.markMediaItemDeleted(account.id, id, now);
  if (!deleted) throw new AppError("not_found");
  if (deleted.fileKey) await deleteFiles([deleted.fileKey, ...derivedKeysOf(readMediaMeta(deleted.meta))]);
  return { id };
}
