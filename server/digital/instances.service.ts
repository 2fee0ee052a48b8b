// Digital-human instances: what runs while someone is on a digital-human app's stage, billed to the
// app's owner per started hour (instance-billing.ts), listed and deleted by administrators.
// - openInstance answers the app's running instance, or starts one with its first hour paid. Two
//   opens at once make one instance: the database allows one running instance per app, so the
//   loser's insert fails and it answers the winner. An owner who cannot pay the first hour gets
//   app_owner_balance_insufficient and nothing is written.
// - The hourly price is the platform's (an administrator's setting, DEFAULT_INSTANCE_HOUR_PRICE_MICRO
//   until set); an instance keeps the price it started with.
// - Deleting an instance stops it and clears its files (speech and lip-synced clips) from the store.
import { isUniqueViolation, runTransaction, type TTx } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { logger } from "../lib/logger";
import { getFileStore } from "../uploads/file-store";
import { isValidKey } from "../uploads/stored-file";
import { chargeInstanceHour, isAppClosed } from "./instance-billing";
import {
  DEFAULT_INSTANCE_HOUR_PRICE_MICRO,
  INSTANCE_HOUR_MS,
  INSTANCE_PAGE_SIZE,
  INSTANCE_STOP_REASONS,
  MAX_INSTANCE_HOUR_PRICE_MICRO,
  ZHourPriceMicro,
  ZInstanceFile,
  ZInstanceIdInput,
  type THourPrice,
  type TInstanceFile,
  type TInstanceListInput,
  type TInstancePage,
  type TInstanceStopReason,
  type TInstanceView,
  type TRemovedInstance,
  type TSetHourPriceInput,
} from "./instances.schema";
import * as repo from "./instances.repository";

export { DEFAULT_INSTANCE_HOUR_PRICE_MICRO, INSTANCE_IDLE_MS } from "./instances.schema";
export { sweepInstances, instanceHourKey } from "./instance-billing";

/** lastActiveAt is written at most this often: a reply every few seconds need not write each time. */
const TOUCH_EVERY_MS = 60_000;
const FILE_BATCH = 200;

/** The hourly price new instances start at. */
export async function getInstanceHourPrice(): Promise<number> {
  const stored = (await repo.readHourPriceSetting()) as { priceMicro?: unknown } | null;
  const parsed = ZHourPriceMicro.safeParse(stored?.priceMicro);
  return parsed.success ? parsed.data : DEFAULT_INSTANCE_HOUR_PRICE_MICRO;
}

export async function getHourPriceView(): Promise<THourPrice> {
  return { priceMicro: await getInstanceHourPrice(), defaultMicro: DEFAULT_INSTANCE_HOUR_PRICE_MICRO, maxMicro: MAX_INSTANCE_HOUR_PRICE_MICRO };
}

/** Sets the price of instances started from now on; running ones keep theirs. */
export async function setInstanceHourPrice(adminId: string | null, input: TSetHourPriceInput): Promise<THourPrice> {
  await repo.writeHourPriceSetting(input.priceMicro);
  logger.info({ adminId, priceMicro: input.priceMicro }, "digital instance hour price set");
  return getHourPriceView();
}

export type TOpenInstanceInput = { appId: string; ownerAccountId: string; now?: Date };

/** The app's running instance (marked used), or a new one with its first hour charged to the app's owner. */
export async function openInstance({ appId, ownerAccountId, now = new Date() }: TOpenInstanceInput): Promise<{ id: string }> {
  const app = await repo.findAppForInstance(appId);
  if (!app || app.ownerAccountId !== ownerAccountId || app.type !== "digital_human" || isAppClosed(app)) throw new AppError("not_found");
  // Twice at most: a loser of a race reads the winner, which could only be gone if it stopped at once.
  for (let attempt = 0; ; attempt++) {
    const running = await repo.findRunningInstance(appId);
    if (running) return keepAlive(running, now);
    try {
      return await startInstance(app, now);
    } catch (err) {
      if (!isUniqueViolation(err) || attempt > 0) throw err;
    }
  }
}

async function keepAlive(running: { id: string; lastActiveAt: Date }, now: Date) {
  const staleBefore = new Date(now.getTime() - TOUCH_EVERY_MS);
  if (running.lastActiveAt < staleBefore) await repo.touchInstance(running.id, now, staleBefore);
  return { id: running.id };
}

async function startInstance(app: repo.TInstanceAppRow, now: Date) {
  const priceMicro = await getInstanceHourPrice();
  try {
    return await runTransaction(async (tx) => {
      const created = await repo.createInstance(
        { appId: app.id, ownerAccountId: app.ownerAccountId, hourPriceMicro: priceMicro, now, billedUntil: new Date(now.getTime() + INSTANCE_HOUR_MS) },
        tx,
      );
      await chargeInstanceHour({ instanceId: created.id, hour: 1, ownerAccountId: app.ownerAccountId, priceMicro, appId: app.id, appName: app.name }, tx);
      return { id: created.id };
    });
  } catch (err) {
    if (err instanceof AppError && err.code === "balance_insufficient") throw new AppError("app_owner_balance_insufficient", { cause: err });
    throw err;
  }
}

/**
 * Records a file made for the instance (cleared when it is deleted); the same key twice is one file.
 * Answers false, recording nothing, when the instance is gone (deleted meanwhile, or never was): the
 * callers record from the end of a reply or of a job, which must not fail for it.
 */
export async function recordInstanceFile(instanceId: string, file: TInstanceFile, tx?: TTx): Promise<boolean> {
  const parsed = ZInstanceFile.parse(file);
  // The store refuses such keys: a caller naming one has a bug, not a user's bad input.
  if (!isValidKey(parsed.fileKey)) throw new Error(`digital instance: invalid file key ${JSON.stringify(parsed.fileKey)}`);
  const recorded = await repo.insertInstanceFile(instanceId, parsed, tx);
  if (!recorded) logger.warn({ instanceId, fileKey: parsed.fileKey }, "digital instance: a file of an instance that is gone was not recorded");
  return recorded;
}

const toStopReason = (v: string | null): TInstanceStopReason | null =>
  (INSTANCE_STOP_REASONS as readonly string[]).includes(v ?? "") ? (v as TInstanceStopReason) : null;

function toView(row: repo.TListedInstanceRow, bytes: number): TInstanceView {
  return {
    id: row.id,
    app: row.app,
    owner: row.owner,
    state: row.state === "running" ? "running" : "stopped",
    stopReason: toStopReason(row.stopReason),
    startedAt: row.startedAt.toISOString(),
    lastActiveAt: row.lastActiveAt.toISOString(),
    stoppedAt: row.stoppedAt?.toISOString() ?? null,
    hourPriceMicro: Number(row.hourPriceMicro),
    hoursBilled: row.hoursBilled,
    chargedMicro: Number(row.chargedMicro),
    fileCount: row._count.files,
    fileBytes: bytes,
  };
}

/** A page of instances for administrators: running first, then the newest; deleted ones are not listed. */
export async function listInstancesForAdmin(input: TInstanceListInput): Promise<TInstancePage> {
  const { rows, total } = await repo.listInstances({ state: input.state, skip: (input.page - 1) * INSTANCE_PAGE_SIZE, take: INSTANCE_PAGE_SIZE });
  const bytes = await repo.sumFileBytes(rows.map((r) => r.id));
  return { items: rows.map((r) => toView(r, bytes.get(r.id) ?? 0)), total, page: input.page, pageSize: INSTANCE_PAGE_SIZE };
}

/** Stops the instance (if running), clears its files from the store and hides it; answers what was cleared. */
export async function deleteInstance(adminId: string | null, instanceId: string, now = new Date()): Promise<TRemovedInstance> {
  const { id } = ZInstanceIdInput.parse({ id: instanceId });
  if (!(await repo.findInstance(id))) throw new AppError("not_found");
  await repo.stopInstances([id], "admin", now);
  const cleared = await clearInstanceFiles(id);
  await repo.markInstanceDeleted(id, now);
  // A reply in flight may have recorded a file between the clearing and the mark; none can after it.
  const late = await clearInstanceFiles(id);
  const removed = { id, files: cleared.files + late.files, bytes: cleared.bytes + late.bytes };
  logger.info({ adminId, ...removed }, "digital instance deleted");
  return removed;
}

/**
 * Deletes the instance's files from the store, then their rows. A store that fails leaves the rest
 * recorded and the error reaches the administrator, who deletes again; a file already gone is fine.
 */
async function clearInstanceFiles(instanceId: string) {
  const store = getFileStore();
  const cleared = { files: 0, bytes: 0 };
  for (;;) {
    const batch = await repo.listInstanceFiles(instanceId, FILE_BATCH);
    if (!batch.length) return cleared;
    for (const f of batch) {
      if (isValidKey(f.fileKey)) await store.delete(f.fileKey);
      if (await repo.deleteInstanceFileRow(f.id)) {
        cleared.files++;
        cleared.bytes += f.bytes;
      }
    }
  }
}
