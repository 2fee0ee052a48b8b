// The daily storage charge (job money.storage-charges: 0.01 Z per 100 training characters a
// day beyond the free million). For a China day (yesterday unless the payload names one) each
// account over the allowance pays storageDayPriceMicro(chars) to the platform under the key
// `storage:<accountId>:<YYYYMMDD>`, so reruns charge nothing twice. The job runs every hour:
// an account that cannot pay has its knowledge service paused (sets unavailable, agents invalid);
// a paused account is resumed by the first run that charges it (after it tops up, within the
// hour) or that finds it within the allowance again. The paused days are not charged afterwards.
// Pausing is the knowledge area's to do: the caller passes it in (setKnowledgePaused), so money
// does not reach up into the training sets it charges for.
import { FREE_TRAINING_CHARS, storageDayPriceMicro } from "../money.constants";
import { platform, spend } from "../ledger.service";
import { AppError } from "../../errors/app-error";
import { logger } from "../../lib/logger";
import { chinaYesterday, isChinaDay } from "./china-day";
import * as repo from "./storage-charges.repository";

export const STORAGE_CHARGE_EVERY_MS = 60 * 60 * 1000;

export type TStorageRun = { day: number; charged: number; alreadyCharged: number; paused: string[]; resumed: string[]; failed: number };
/** Pauses (true) or resumes (false) an account's training-set service. */
export type TPauseKnowledge = (accountId: string, paused: boolean) => Promise<void>;

/** `only` limits the run to these accounts (tests, which share a database with others). */
export async function chargeStorage(
  payload: { day?: number },
  pauseKnowledge: TPauseKnowledge,
  now = new Date(),
  only: string[] | null = null,
): Promise<TStorageRun> {
  const day = payload.day ?? chinaYesterday(now);
  if (!isChinaDay(day)) throw new Error(`storage charges: ${day} is not a YYYYMMDD day`);
  const run: TStorageRun = { day, charged: 0, alreadyCharged: 0, paused: [], resumed: [], failed: 0 };
  for (const holder of await repo.listStorageHolders(FREE_TRAINING_CHARS, only)) {
    try {
      const outcome = await chargeOne(holder, day);
      if (outcome === "charged") run.charged++;
      if (outcome === "already") run.alreadyCharged++;
      if (outcome === "unpaid" && !holder.pausedAt) {
        await pauseKnowledge(holder.accountId, true);
        run.paused.push(holder.accountId);
      }
      if (outcome !== "unpaid" && holder.pausedAt) {
        await pauseKnowledge(holder.accountId, false);
        run.resumed.push(holder.accountId);
      }
    } catch (err) {
      // One account's trouble does not stop the others; the next run tries it again.
      run.failed++;
      logger.error({ err, accountId: holder.accountId, day }, "storage charge failed");
    }
  }
  logger.info(run, "storage charges");
  return run;
}

async function chargeOne(holder: repo.TStorageHolder, day: number): Promise<"charged" | "already" | "free" | "unpaid"> {
  const amount = storageDayPriceMicro(holder.chars);
  if (amount <= 0) return "free";
  try {
    const posted = await spend({
      key: `storage:${holder.accountId}:${day}`,
      kind: "storage_charge",
      payer: holder.accountId,
      amount,
      credits: [{ account: platform("platform_revenue"), amount }],
      memo: { chars: holder.chars, day },
    });
    return posted.replayed ? "already" : "charged";
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === "balance_insufficient") return "unpaid";
    // The day was charged already, on the characters kept at that run.
    if (err.code === "idempotency_conflict") return "already";
    throw err;
  }
}
