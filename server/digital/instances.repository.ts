// The only queries of digital-human instances and their files, and of the platform's hourly price.
// Every change of a running instance is one conditional UPDATE naming the state it expects (still
// running, the hours billed as read), so two sweeps or a sweep and an administrator never both act.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TInstanceFilter, TInstanceStopReason } from "./instances.schema";

const HOUR_PRICE_SETTING = "digital_instance_hour_price";

export async function readHourPriceSetting(tx: TDbOrTx = getDb()): Promise<unknown> {
  const row = await tx.systemSetting.findUnique({ where: { key: HOUR_PRICE_SETTING }, select: { value: true } });
  return row?.value ?? null;
}

export async function writeHourPriceSetting(priceMicro: number, tx: TDbOrTx = getDb()) {
  const value = { priceMicro };
  await tx.systemSetting.upsert({ where: { key: HOUR_PRICE_SETTING }, create: { key: HOUR_PRICE_SETTING, value }, update: { value } });
}

const APP_FACTS = { id: true, name: true, ownerAccountId: true, type: true, state: true, removedAt: true, deletedAt: true } as const;
export type TInstanceAppRow = Prisma.AppGetPayload<{ select: typeof APP_FACTS }>;

export function findAppForInstance(appId: string, tx: TDbOrTx = getDb()) {
  return tx.app.findUnique({ where: { id: appId }, select: APP_FACTS });
}

const RUNNING = { state: "running", deletedAt: null } as const;

export function findRunningInstance(appId: string, tx: TDbOrTx = getDb()) {
  return tx.digitalInstance.findFirst({ where: { appId, ...RUNNING }, select: { id: true, lastActiveAt: true } });
}

/** Marks the instance used now, unless it was marked since `staleBefore` (spares a write per reply). */
export async function touchInstance(id: string, now: Date, staleBefore: Date, tx: TDbOrTx = getDb()) {
  await tx.digitalInstance.updateMany({ where: { id, ...RUNNING, lastActiveAt: { lt: staleBefore } }, data: { lastActiveAt: now } });
}

/** A running instance with its first hour paid for; a second running one of the app breaks the partial unique index. */
export function createInstance(data: { appId: string; ownerAccountId: string; hourPriceMicro: number; now: Date; billedUntil: Date }, tx: TDbOrTx = getDb()) {
  const { now, hourPriceMicro, ...rest } = data;
  return tx.digitalInstance.create({
    data: {
      ...rest,
      state: "running",
      hourPriceMicro: BigInt(hourPriceMicro),
      hoursBilled: 1,
      chargedMicro: BigInt(hourPriceMicro),
      startedAt: now,
      lastActiveAt: now,
    },
    select: { id: true },
  });
}

export function findInstance(id: string, tx: TDbOrTx = getDb()) {
  return tx.digitalInstance.findFirst({ where: { id, deletedAt: null }, select: { id: true, state: true, appId: true, ownerAccountId: true } });
}

/** Records a file of a live instance; answers false when the instance is missing or deleted. Idempotent on (instance, key). */
export async function insertInstanceFile(instanceId: string, file: { fileKey: string; kind: string; bytes: number }, tx: TDbOrTx = getDb()) {
  // One statement: a file cannot be recorded for an instance deleted meanwhile.
  const rows = await tx.$queryRaw<{ live: boolean }[]>`
    WITH live AS (SELECT id FROM digital_instance WHERE id = ${instanceId} AND deleted_at IS NULL),
    added AS (
      INSERT INTO digital_instance_file (id, instance_id, file_key, kind, bytes)
      SELECT 'f' || md5(random()::text || clock_timestamp()::text), id, ${file.fileKey}, ${file.kind}, ${file.bytes} FROM live
      ON CONFLICT (instance_id, file_key) DO NOTHING
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM live) AS live`;
  return rows[0]?.live === true;
}

export type TStopCondition = { hoursBilled?: number };

/** Stops those of `ids` still running (and, when given, still at `hoursBilled`); answers how many it stopped. */
export async function stopInstances(ids: string[], reason: TInstanceStopReason, now: Date, cond: TStopCondition = {}, tx: TDbOrTx = getDb()) {
  if (!ids.length) return 0;
  const res = await tx.digitalInstance.updateMany({
    where: { id: { in: ids }, state: "running", ...(cond.hoursBilled !== undefined ? { hoursBilled: cond.hoursBilled } : {}) },
    data: { state: "stopped", stopReason: reason, stoppedAt: now },
  });
  return res.count;
}

/** `only` limits a sweep to these instances (tests, which share a database with others). */
const scope = (only: string[] | null) => (only ? { id: { in: only } } : {});

/** Running instances nobody used since `idleBefore`, stopped as idle. */
export async function stopIdleInstances(idleBefore: Date, now: Date, only: string[] | null, tx: TDbOrTx = getDb()) {
  const res = await tx.digitalInstance.updateMany({
    where: { state: "running", lastActiveAt: { lt: idleBefore }, ...scope(only) },
    data: { state: "stopped", stopReason: "idle", stoppedAt: now },
  });
  return res.count;
}

/** Running instances with their app's facts (whether it is still served). */
export function listRunningWithApps(only: string[] | null, tx: TDbOrTx = getDb()) {
  return tx.digitalInstance.findMany({
    where: { state: "running", ...scope(only) },
    select: { id: true, app: { select: APP_FACTS } },
  });
}

const DUE = {
  id: true,
  appId: true,
  ownerAccountId: true,
  hourPriceMicro: true,
  hoursBilled: true,
  billedUntil: true,
  lastActiveAt: true,
  app: { select: { name: true } },
} as const;
export type TDueInstanceRow = Prisma.DigitalInstanceGetPayload<{ select: typeof DUE }>;

/** Running instances whose paid hours ended by `now`, longest due first. */
export function listDueInstances(now: Date, limit: number, only: string[] | null, tx: TDbOrTx = getDb()) {
  return tx.digitalInstance.findMany({
    where: { state: "running", billedUntil: { lte: now }, ...scope(only) },
    select: DUE,
    orderBy: { billedUntil: "asc" },
    take: limit,
  });
}

/**
 * Moves a running instance on by one paid hour, if it is still where it was read (`hoursBilled`,
 * `billedUntil`); answers whether it did. The row stays locked until the caller's transaction ends,
 * so a second sweep waits and then finds it moved.
 */
export async function advanceBilledHour(
  row: { id: string; hoursBilled: number; billedUntil: Date },
  next: { billedUntil: Date; priceMicro: number },
  tx: TDbOrTx = getDb(),
) {
  const res = await tx.digitalInstance.updateMany({
    where: { id: row.id, state: "running", hoursBilled: row.hoursBilled, billedUntil: row.billedUntil },
    data: { hoursBilled: { increment: 1 }, chargedMicro: { increment: BigInt(next.priceMicro) }, billedUntil: next.billedUntil },
  });
  return res.count === 1;
}

const LISTED = {
  id: true,
  state: true,
  stopReason: true,
  startedAt: true,
  lastActiveAt: true,
  stoppedAt: true,
  hourPriceMicro: true,
  hoursBilled: true,
  chargedMicro: true,
  app: { select: { id: true, name: true } },
  owner: { select: { id: true, nickname: true } },
  _count: { select: { files: true } },
} as const;
export type TListedInstanceRow = Prisma.DigitalInstanceGetPayload<{ select: typeof LISTED }>;

function listWhere(state: TInstanceFilter): Prisma.DigitalInstanceWhereInput {
  return { deletedAt: null, ...(state === "all" ? {} : { state }) };
}

/** A page of instances that were not deleted: running before stopped ("running" sorts first), newest first. */
export async function listInstances(q: { state: TInstanceFilter; skip: number; take: number }, tx: TDbOrTx = getDb()) {
  const where = listWhere(q.state);
  const [rows, total] = await Promise.all([
    tx.digitalInstance.findMany({ where, select: LISTED, orderBy: [{ state: "asc" }, { startedAt: "desc" }, { id: "desc" }], skip: q.skip, take: q.take }),
    tx.digitalInstance.count({ where }),
  ]);
  return { rows, total };
}

/** Bytes recorded per instance. */
export async function sumFileBytes(instanceIds: string[], tx: TDbOrTx = getDb()) {
  if (!instanceIds.length) return new Map<string, number>();
  const sums = await tx.digitalInstanceFile.groupBy({ by: ["instanceId"], where: { instanceId: { in: instanceIds } }, _sum: { bytes: true } });
  return new Map(sums.map((s) => [s.instanceId, s._sum.bytes ?? 0]));
}

export function listInstanceFiles(instanceId: string, limit: number, tx: TDbOrTx = getDb()) {
  return tx.digitalInstanceFile.findMany({ where: { instanceId }, select: { id: true, fileKey: true, bytes: true }, orderBy: { id: "asc" }, take: limit });
}

/** Forgets a file whose bytes are gone from the store; answers whether this call removed it. */
export async function deleteInstanceFileRow(id: string, tx: TDbOrTx = getDb()) {
  const res = await tx.digitalInstanceFile.deleteMany({ where: { id } });
  return res.count === 1;
}

export async function markInstanceDeleted(id: string, now: Date, tx: TDbOrTx = getDb()) {
  await tx.digitalInstance.updateMany({ where: { id, deletedAt: null }, data: { deletedAt: now } });
}
