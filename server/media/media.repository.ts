// The only queries of the multimedia library. Every read and write names the owner: another
// account's item is simply not there. A deleted item keeps its row (it still counts toward the
// day's uploads), with deletedAt set and its file key cleared.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TMediaKind } from "./media.schema";

const ITEM = { id: true, name: true, kind: true, fileKey: true, mime: true, size: true, width: true, height: true, meta: true, createdAt: true } as const;
export type TMediaRow = Prisma.MediaItemGetPayload<{ select: typeof ITEM }>;

/** Serialises one account's uploads, so two racing requests cannot both take the last place of the day. */
export async function lockAccountUploads(accountId: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('media_uploads:' || ${accountId}))`;
}

/** Uploads since the given moment, deleted ones included. */
export function countUploadsSince(ownerAccountId: string, since: Date, tx: TDbOrTx = getDb()) {
  // Generated pictures and videos join the library without counting against the day's uploads.
  return tx.mediaItem.count({ where: { ownerAccountId, source: "upload", createdAt: { gte: since } } });
}

export function createMediaItem(
  data: {
    ownerAccountId: string;
    name: string;
    kind: TMediaKind;
    fileKey: string;
    mime: string;
    size: number;
    width: number | null;
    height: number | null;
    createdAt: Date;
    /** A generation's result: made by the job, not uploaded. */
    jobId?: string;
  },
  tx: TDbOrTx = getDb(),
) {
  return tx.mediaItem.create({ data: { ...data, source: data.jobId ? "generated" : "upload" }, select: ITEM });
}

export function findMediaItem(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.mediaItem.findFirst({ where: { id, ownerAccountId, deletedAt: null }, select: ITEM });
}

export async function listMediaItems(ownerAccountId: string, opts: { kind?: TMediaKind; skip: number; take: number }, tx: TDbOrTx = getDb()) {
  const where = { ownerAccountId, deletedAt: null, ...(opts.kind ? { kind: opts.kind } : {}) };
  const [rows, total] = await Promise.all([
    tx.mediaItem.findMany({ where, select: ITEM, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: opts.skip, take: opts.take }),
    tx.mediaItem.count({ where }),
  ]);
  return { rows, total };
}

/** Renames a live item of the owner's; false when there is none. */
export async function renameMediaItem(ownerAccountId: string, id: string, name: string, tx: TDbOrTx = getDb()) {
  const { count } = await tx.mediaItem.updateMany({ where: { id, ownerAccountId, deletedAt: null }, data: { name } });
  return count === 1;
}

/**
 * Marks a live item deleted and clears its key. Answers the key its file had, or null when there was
 * no such item (or a racing delete took it first: only one caller gets the key).
 */
export async function markMediaItemDeleted(ownerAccountId: string, id: string, now: Date, tx: TDbOrTx = getDb()) {
  const row = await tx.mediaItem.findFirst({ where: { id, ownerAccountId, deletedAt: null }, select: { fileKey: true, meta: true } });
  if (!row) return null;
  const { count } = await tx.mediaItem.updateMany({ where: { id, ownerAccountId, deletedAt: null }, data: { deletedAt: now, fileKey: null } });
  return count === 1 ? { fileKey: row.fileKey, meta: row.meta } : null;
}

/** A live item's file, whoever owns it (the worker derives files for every account); null once deleted. */
export function findItemForDerivation(id: string, tx: TDbOrTx = getDb()) {
  return tx.mediaItem.findFirst({ where: { id, deletedAt: null }, select: { id: true, fileKey: true, mime: true, kind: true } });
}

/**
 * Keeps what the worker made from the item's file, and the shown size it learnt (a photo's EXIF
 * turn, a video's size), while the item still has that file. False when it was deleted meanwhile:
 * the caller then removes the derivatives it wrote.
 */
export async function saveMediaMeta(
  id: string,
  fileKey: string,
  data: { meta: Record<string, string | number | null>; width: number | null; height: number | null },
  tx: TDbOrTx = getDb(),
) {
  const size = data.width && data.height ? { width: data.width, height: data.height } : {};
  const { count } = await tx.mediaItem.updateMany({ where: { id, fileKey, deletedAt: null }, data: { meta: data.meta, ...size } });
  return count === 1;
}
