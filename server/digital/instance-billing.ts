// How a digital-human instance is paid for and when it stops, run every minute (job
// digital.instances-sweep). The app's owner pays each started hour at the price the instance
// started with, gift credit first, to the platform's revenue, under the key
// `digital-instance:<id>:hour:<n>`. A sweep:
// - stops instances nobody used for INSTANCE_IDLE_MS ("idle");
// - stops instances whose app is no longer served: deleted, removed or taken off the shelf ("app_closed");
// - charges the next hour of each instance whose paid hours ended while it was in use. The hour is
//   counted on the row and posted to the ledger in one transaction that first moves the row on from
//   the hours it was read with: a second sweep at the same time waits for the row, finds it moved and
//   charges nothing, and a retried sweep finds the key posted. An owner who cannot pay has the
//   instance stopped ("balance").
// Stopping never deletes the instance's files: an administrator's deletion does (instances.service.ts).
import { isServedByLink, type TReviewedApp } from "../app-review-policy";
import { runTransaction, type TTx } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { logger } from "../lib/logger";
import { platform, spend } from "../money/ledger.service";
import { INSTANCE_HOUR_MS, INSTANCE_IDLE_MS } from "./instances.schema";
import * as repo from "./instances.repository";

export const INSTANCE_SWEEP_EVERY_MS = 60_000;
/** Instances charged per sweep at most; the rest wait a minute for the next. */
const DUE_BATCH = 500;

export const instanceHourKey = (instanceId: string, hour: number) => `digital-instance:${instanceId}:hour:${hour}`;

export type TInstanceHourCharge = { instanceId: string; hour: number; ownerAccountId: string; priceMicro: number; appId: string; appName: string };

/** Posts one hour of an instance to its app's owner (nothing at a free price); balance_insufficient when they cannot pay. */
export async function chargeInstanceHour(c: TInstanceHourCharge, tx: TTx) {
  if (c.priceMicro <= 0) return;
  await spend(
    {
      key: instanceHourKey(c.instanceId, c.hour),
      kind: "metered_charge",
      payer: c.ownerAccountId,
      amount: c.priceMicro,
      credits: [{ account: platform("platform_revenue"), amount: c.priceMicro }],
      // Statements read the app and `what` (statements:what.digital_instance).
      memo: { what: "digital_instance", appId: c.appId, appName: c.appName, instanceId: c.instanceId, hour: c.hour },
    },
    tx,
  );
}

/** Whether an instance of this app must stop: deleted, removed or off the shelf. */
export function isAppClosed(app: TReviewedApp & { deletedAt: Date | null }): boolean {
  if (app.deletedAt) return true;
  // An app waiting for review stays open to its owner's previews; the runtime keeps others out by the review policy.
  return app.state !== "under_review" && !isServedByLink(app);
}

export type TInstanceSweep = { idle: number; closed: number; charged: number; unpaid: number; failed: number };

/** One sweep; `only` limits it to these instances (tests, which share a database with others). */
export async function sweepInstances(now = new Date(), only: string[] | null = null): Promise<TInstanceSweep> {
  const run: TInstanceSweep = { idle: 0, closed: 0, charged: 0, unpaid: 0, failed: 0 };
  run.idle = await repo.stopIdleInstances(new Date(now.getTime() - INSTANCE_IDLE_MS), now, only);
  const running = await repo.listRunningWithApps(only);
  run.closed = await repo.stopInstances(
    running.filter((r) => isAppClosed(r.app)).map((r) => r.id),
    "app_closed",
    now,
  );
  for (const row of await repo.listDueInstances(now, DUE_BATCH, only)) {
    try {
      const outcome = await chargeNextHour(row, now);
      if (outcome === "charged") run.charged++;
      if (outcome === "unpaid") run.unpaid++;
      if (outcome === "idle") run.idle++;
    } catch (err) {
      // One instance's trouble does not stop the others; the next sweep tries it again.
      run.failed++;
      logger.error({ err, instanceId: row.id }, "digital instance: an hour could not be charged");
    }
  }
  return run;
}

async function chargeNextHour(row: repo.TDueInstanceRow, now: Date): Promise<"charged" | "taken" | "unpaid" | "idle"> {
  // Not used during the hour that ended: nobody is on the stage to pay another hour for.
  if (row.lastActiveAt.getTime() < row.billedUntil.getTime() - INSTANCE_HOUR_MS) {
    return (await repo.stopInstances([row.id], "idle", now, { hoursBilled: row.hoursBilled })) ? "idle" : "taken";
  }
  const priceMicro = Number(row.hourPriceMicro);
  try {
    const moved = await runTransaction(async (tx) => {
      const next = { billedUntil: new Date(row.billedUntil.getTime() + INSTANCE_HOUR_MS), priceMicro };
      if (!(await repo.advanceBilledHour(row, next, tx))) return false;
      const charge = { instanceId: row.id, hour: row.hoursBilled + 1, ownerAccountId: row.ownerAccountId, priceMicro, appId: row.appId, appName: row.app.name };
      await chargeInstanceHour(charge, tx);
      return true;
    });
    return moved ? "charged" : "taken";
  } catch (err) {
    if (!(err instanceof AppError && err.code === "balance_insufficient")) throw err;
    await repo.stopInstances([row.id], "balance", now, { hoursBilled: row.hoursBilled });
    return "unpaid";
  }
}

/** The worker's job: a sweep of every instance, logged when it did anything. */
export async function handleInstanceSweep() {
  const run = await sweepInstances();
  if (run.idle || run.closed || run.charged || run.unpaid || run.failed) logger.info(run, "digital instances swept");
  return run;
}
