// Runs through the queue every few seconds, so a fresh "worker" heartbeat proves that jobs are
// being enqueued, picked up and finished, not merely that the worker process is alive.
import { recordHeartbeat } from "../../../server/platform/platform.service";

const startedAt = new Date();

export async function handlePlatformHeartbeat(payload: { process: string }) {
  await recordHeartbeat(payload.process, startedAt);
}
