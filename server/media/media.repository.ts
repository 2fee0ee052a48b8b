// The only queries of the multimedia library. Every read and write names the owner: another
// account's item is simply not there. A deleted item keeps its row (it still counts toward the
// day's uploads), with deletedAt set and its file key cleared.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TMediaKind } from "./media.schema";

const ITEM = { id: true, name: true, kind: true, fileKey: true, mime: true, size: true, width: true, height: true, createdAt: true } as const;
export type TMediaRow = Prisma.MediaItemGetPayload<{ select: typeof ITEM }>;

/** Serialises one account's uploads, so two racing requests cannot both take the last place of the day. */
export async function lockAccountUploads(accountId: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('media_uploads:' || ${accountId}))`;
}

/** Uploads since the given moment, deleted ones included. */
export function countUploadsSince(ownerAccountId: string, since: Date, tx: TDbOrTx = getDb()) {
  return tx.mediaItem.count({ where: { ownerAccountId, createdAt: { gte: since } } });
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
  },
  tx: TDbOrTx = getDb(),
) {
  return tx.mediaItem.create({ data, select: ITEM });
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
  const row = await tx.mediaItem.findFirst({ where: { id, ownerAccountId, deletedAt: null }, select: { fileKey: true } });
  if (!row) return null;
  const { count } = await tx.mediaItem.updateMany({ where: { id, ownerAccountId, deletedAt: null }, data: { deletedAt: now, fileKey: null } });
  return count === 1 ? { fileKey: row.fileKey } : null;
}
