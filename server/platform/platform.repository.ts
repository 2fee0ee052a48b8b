import { getDb, type TDbOrTx } from "../db/client";

export async function findScreenLockItems(tx: TDbOrTx = getDb()) {
  return tx.screenLockItem.findMany({
    orderBy: { id: "asc" },
    select: { imgName: true, imgUrl: true, screenControl: true },
  });
}

export async function replaceScreenLockItems(items: { imgName: string; imgUrl: string; screenControl: number }[], tx: TDbOrTx = getDb()) {
  await tx.screenLockItem.deleteMany({});
  if (items.length) await tx.screenLockItem.createMany({ data: items });
}

export async function findSetting(key: string, tx: TDbOrTx = getDb()) {
  const row = await tx.systemSetting.findUnique({ where: { key }, select: { value: true } });
  return row?.value ?? null;
}

export async function upsertSetting(key: string, value: unknown, tx: TDbOrTx = getDb()) {
  const json = value as object;
  await tx.systemSetting.upsert({ where: { key }, create: { key, value: json }, update: { value: json } });
}

export async function upsertHeartbeat(name: string, pid: number, startedAt: Date, tx: TDbOrTx = getDb()) {
  const seenAt = new Date();
  await tx.processHeartbeat.upsert({
    where: { name },
    create: { name, pid, startedAt, seenAt },
    update: { pid, startedAt, seenAt },
  });
}

export async function findHeartbeats(tx: TDbOrTx = getDb()) {
  return tx.processHeartbeat.findMany({ select: { name: true, pid: true, seenAt: true } });
}

/** The cheapest round trip to the database, for the health check. */
export async function pingDatabase() {
  await getDb().$queryRaw`SELECT 1`;
}
