// The queries of speech jobs (MediaJob rows of kind speech): a synthesis runs while its request
// waits, so its row is made already generating and ends done or failed in the same request. It is
// never marked started, so the worker's queue and its resubmission of lost jobs pass it by; only
// the deadline sweep (which releases the hold) touches one left behind by a killed process.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { findMediaJob, insertMediaJob, type TMediaJobRow, type TNewMediaJob } from "./media-jobs.repository";

export type TSpeechJobRow = TMediaJobRow;
export type TNewSpeechJob = Omit<TNewMediaJob, "kind" | "createdAt">;

export function findSpeechJob(id: string, tx: TDbOrTx = getDb()): Promise<TSpeechJobRow | null> {
  return findMediaJob(id, tx);
}

export function insertSpeechJob(data: TNewSpeechJob, tx: TDbOrTx = getDb()) {
  return insertMediaJob({ ...data, kind: "speech", state: "generating", createdAt: new Date() }, tx);
}

export type TSpeechEnding =
  | {
      state: "done";
      modelKey: string;
      provider: string;
      channelId: string;
      params: Prisma.InputJsonValue;
      outputs: Prisma.InputJsonValue;
      chargedMicro: number;
    }
  | { state: "failed"; errorCode: string; errorDetail: string | null };

/** Ends a generating speech job; false when it had already ended (the deadline sweep came first). */
export async function endSpeechJob(id: string, ending: TSpeechEnding, now: Date, tx: TDbOrTx = getDb()) {
  const data: Prisma.MediaJobUpdateManyMutationInput =
    ending.state === "done" ? { ...ending, chargedMicro: BigInt(ending.chargedMicro), progress: 100, finishedAt: now } : { ...ending, finishedAt: now };
  const { count } = await tx.mediaJob.updateMany({ where: { id, kind: "speech", state: "generating" }, data });
  return count === 1;
}
