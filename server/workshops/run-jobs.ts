// The workshops queue's jobs: carrying a run (the engine), and the sweep that hands a run whose
// worker died (its lease lapsed) to a live worker, where it resumes from its last finished turn.
import crypto from "node:crypto";
import { getEnv } from "../env";
import { carryRun } from "./engine/run-engine";
import * as runs from "./runs.repository";
import { carryLater } from "./runs.service";

/** This process's name on the runs it carries. */
const WORKER_ID = `${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
const BUSY_RETRIES = 5;
const BUSY_PAUSE_MS = 1000;

/**
 * Carries the run. Another worker holding it (finishing the step before the person's words came)
 * lets go within moments: the job tries again a few times, and the sweep covers the rest.
 */
export async function handleWorkshopCarry(payload: { runId: string }) {
  for (let attempt = 0; attempt < BUSY_RETRIES; attempt++) {
    const result = await carryRun(payload.runId, WORKER_ID);
    if (result === "continue") await carryLater(payload.runId);
    if (result !== "busy") return result;
    await new Promise((r) => setTimeout(r, BUSY_PAUSE_MS));
  }
  return "busy";
}

export async function handleWorkshopSweep() {
  const stalled = await runs.listStalledRuns(new Date());
  for (const r of stalled) await carryLater(r.id);
  return { resumed: stalled.length };
}

export const workshopSweepEveryMs = () => getEnv().WORKSHOP_SWEEP_MS;
