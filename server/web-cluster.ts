// WEB_CONCURRENCY > 1: the web process becomes a primary that loads none of the app and keeps that
// many workers serving the same port (node:cluster hands each new connection to the next worker).
// One event loop relays every stream of a process, so a busy server spreads its streams over its
// cores this way rather than queueing them on one; nothing a turn needs lives in only one worker
// (docs/decisions/0017-web-workers-per-core.md).
import cluster, { type Worker } from "node:cluster";
import { logger } from "./lib/logger";
import { WEB_V8_FLAGS } from "./web-v8-flags";

/** A worker that dies within this long of its start counts towards giving up. */
const EARLY_DEATH_MS = 10_000;
const MAX_EARLY_DEATHS = 5;
// Under the 5 s the supervisor gives the web process before its own SIGKILL, which would orphan them.
const STOP_GRACE_MS = 4_000;

/**
 * Forks `count` workers and keeps them running. `onListening` runs once every worker listens;
 * a worker that dies is replaced after a second, unless workers keep dying right after their start,
 * when the primary gives up (exit 1) so whoever runs it (the supervisor, systemd) sees a failure.
 */
export function runWebCluster(count: number, onListening: () => void) {
  let stopping = false;
  let earlyDeaths = 0;
  const listening = new Set<number>();
  const startedAt = new Map<number, number>();
  // The workers' own command line: the memory reducer can only be turned off there.
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...WEB_V8_FLAGS.filter((f) => !process.execArgv.includes(f))] });

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };

  cluster.on("listening", (worker: Worker) => {
    if (listening.has(worker.id)) return;
    listening.add(worker.id);
    if (listening.size === count) onListening();
  });
  cluster.on("exit", (worker: Worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) return;
    if (lived < EARLY_DEATH_MS && ++earlyDeaths >= MAX_EARLY_DEATHS) {
      logger.fatal({ code, signal }, "web workers keep dying right after they start; giving up");
      return stop(1);
    }
    logger.error({ worker: worker.id, code, signal }, "web worker exited; starting another");
    setTimeout(() => !stopping && fork(), 1000).unref();
  });

  const stop = (exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
    let left = workers.length;
    const done = () => --left <= 0 && process.exit(exitCode);
    if (left === 0) process.exit(exitCode);
    for (const w of workers) {
      const timer = setTimeout(() => w.process.kill("SIGKILL"), STOP_GRACE_MS);
      w.process.once("exit", () => {
        clearTimeout(timer);
        done();
      });
      // The worker's own SIGTERM handler closes its server and lets its streams finish.
      w.process.kill("SIGTERM");
    }
  };
  process.on("SIGTERM", () => stop());
  process.on("SIGINT", () => stop());

  for (let i = 0; i < count; i++) fork();
}
