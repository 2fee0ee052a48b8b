// AppExport rows: an owner's export of an app's dialogues, from pending to a file (or a failure).
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";

const EXPORT = {
  id: true,
  appId: true,
  accountId: true,
  filters: true,
  state: true,
  rowCount: true,
  fileKey: true,
  error: true,
  createdAt: true,
  finishedAt: true,
} as const satisfies Prisma.AppExportSelect;
export type TAppExportRow = Prisma.AppExportGetPayload<{ select: typeof EXPORT }>;

export async function insertExport(data: { appId: string; accountId: string; filters: Prisma.InputJsonValue }, tx: TDbOrTx = getDb()) {
  return tx.appExport.create({ data, select: EXPORT });
}

export async function findExportById(id: string, tx: TDbOrTx = getDb()) {
  return tx.appExport.findUnique({ where: { id }, select: EXPORT });
}

export async function listExportsOf(appId: string, accountId: string, take: number, tx: TDbOrTx = getDb()) {
  return tx.appExport.findMany({ where: { appId, accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take, select: EXPORT });
}

/** pending -> running, once: a second worker picking the same job (a retry) finds it taken. */
export async function claimExport(id: string, tx: TDbOrTx = getDb()) {
  const { count } = await tx.appExport.updateMany({
    where: { id, state: { in: ["pending", "failed"] } },
    data: { state: "running", error: null, rowCount: 0 },
  });
  return count === 1;
}

export async function updateExportRows(id: string, rowCount: number, tx: TDbOrTx = getDb()) {
  await tx.appExport.update({ where: { id }, data: { rowCount } });
}

export async function finishExport(
  id: string,
  data: { state: "done" | "failed"; rowCount?: number; fileKey?: string | null; error?: string | null },
  tx: TDbOrTx = getDb(),
) {
  return tx.appExport.update({ where: { id }, data: { ...data, finishedAt: new Date() }, select: EXPORT });
}
