// Replies streaming in this process. A stop served here cancels at once; a stop served by another
// instance only moves the row to "stopped", which one poller per process notices (one query a
// second for all of this process's streams, however many there are).
import { findStoppedAmong } from "./dialogues.repository";

const POLL_MS = 1000;
const stoppables = new Map<string, { ownerId: string; stop: () => void }>();
let timer: NodeJS.Timeout | undefined;

export function registerStoppable(messageId: string, ownerId: string, stop: () => void) {
  stoppables.set(messageId, { ownerId, stop });
  timer ??= setInterval(poll, POLL_MS).unref();
}

export function forgetStoppable(messageId: string) {
  stoppables.delete(messageId);
  if (stoppables.size === 0 && timer) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** True when the reply was streaming here (for this owner, when given) and is now being stopped. */
export function stopLocally(messageId: string, ownerId?: string) {
  const entry = stoppables.get(messageId);
  if (!entry || (ownerId && entry.ownerId !== ownerId)) return false;
  entry.stop();
  return true;
}

async function poll() {
  if (stoppables.size === 0) return;
  try {
    for (const id of await findStoppedAmong([...stoppables.keys()])) stoppables.get(id)?.stop();
  } catch {
    // The next tick tries again; a lost poll only delays a stop by a second.
  }
}
