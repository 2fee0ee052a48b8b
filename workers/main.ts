// The worker process: binds every queue of server/jobs/jobs.ts to its handlers.
import type { Job } from "bullmq";
import { parseEnv } from "../server/env";
import { logger } from "../server/lib/logger";
import { GATEWAY_QUEUES, JOBS, scheduleRepeatingJob, type TGatewayJobId, type TJobId } from "../server/jobs/jobs";
import { createWorker } from "../server/jobs/queue";
import { handlePlatformHeartbeat } from "./jobs/platform-heartbeat/handler";
import { handleKnowledgeIndex, setKnowledgePaused } from "../server/knowledge/indexing.service";
import { handleMarketRankings, RANKING_EVERY_MS } from "../server/market/ranking.service";
import { handleAppExport } from "../server/apps/app-export.service";
import { CLOSE_STALE_ORDERS_EVERY_MS, handleCloseStaleOrders } from "../server/money/payments/close-stale-orders";
import { chargeStorage, STORAGE_CHARGE_EVERY_MS } from "../server/money/metering/storage-charges.service";
import { wireTurnDependencies } from "../server/wiring/turn-dependencies";
import { setFileWork } from "../server/media/file-work";
import { handleMediaDerive } from "../server/media/media-derive.service";
import { createFileWork } from "./media";
import { getEnv } from "../server/env";
import { handleMediaDispatch, handleMediaPoll, handleMediaSweep } from "../server/media/media-job-runner";
import { handleFigureMeasure, handleFigurePrepare } from "../server/digital/figure-work.service";
import { registerFigureHooks } from "../server/digital/figure-training.service";
import { handleVoiceMeasure, registerVoiceHooks } from "../server/digital/voice-training.service";
import { handleDigitalRender, registerRenderHooks } from "../server/digital/render.service";
import { handleInstanceSweep, INSTANCE_SWEEP_EVERY_MS } from "../server/digital/instance-billing";
import { handleAppClip, registerAppClipHooks } from "../server/apps/digital-clips.service";
import { handleWorkshopCarry, handleWorkshopSweep, workshopSweepEveryMs } from "../server/workshops/run-jobs";

const HANDLERS: { [J in Exclude<TJobId, TGatewayJobId>]: (payload: never, job: Job) => Promise<unknown> } = {
  "platform.heartbeat": handlePlatformHeartbeat,
  "knowledge.index": handleKnowledgeIndex,
  "market.rankings": handleMarketRankings,
  "apps.export": handleAppExport,
  "money.close-stale-orders": handleCloseStaleOrders,
  "money.storage-charges": (payload: { day?: number }) => chargeStorage(payload, setKnowledgePaused),
  "media.dispatch": handleMediaDispatch,
  "media.poll": handleMediaPoll,
  "media.sweep": () => handleMediaSweep(),
  "media.derive": handleMediaDerive,
  "digital.figure-measure": handleFigureMeasure,
  "digital.figure-prepare": handleFigurePrepare,
  "digital.voice-measure": handleVoiceMeasure,
  "digital.render": handleDigitalRender,
  "digital.instances-sweep": () => handleInstanceSweep(),
  "digital.app-clip": handleAppClip,
  "workshops.carry": handleWorkshopCarry,
  "workshops.sweep": () => handleWorkshopSweep(),
};

/** Queues whose steps wait on providers for long: more than one at a time per worker. */
function concurrencyOf(queue: string) {
  if (queue === "workshops") return getEnv().WORKSHOP_WORKER_CONCURRENCY;
  return queue === "media" ? getEnv().MEDIA_WORKER_CONCURRENCY : 1;
}

export async function startWorkers() {
  // Jobs that run agent turns run them here.
  wireTurnDependencies();
  // Derivatives of stored media (pictures, posters, playable copies, icons) are made here, with sharp and ffmpeg.
  setFileWork(createFileWork());
  // A figure's avatar training ending makes it trained (or leaves it a green-screen figure).
  registerFigureHooks();
  // A voice clone ending makes the voice ready (or failed, its package slot given back).
  registerVoiceHooks();
  // A render's lip-sync ending moves it on to its composite (or fails it).
  registerRenderHooks();
  // A digital-human app's lip-synced reply joins its instance's files, to be cleared with it.
  registerAppClipHooks();
  // The bots queue belongs to the bot gateway processes (bot-gateway/core/gateway.ts).
  const queues = new Set(
    Object.values(JOBS)
      .map((j) => j.queue)
      .filter((q) => !GATEWAY_QUEUES.has(q)),
  );
  const workers = [...queues].map((queue) =>
    createWorker(
      queue,
      async (job) => {
        const id = job.name as Exclude<TJobId, TGatewayJobId>;
        const def = JOBS[id];
        if (!def) throw new Error(`no handler for job ${job.name}`);
        return HANDLERS[id](def.payload.parse(job.data) as never, job);
      },
      { concurrency: concurrencyOf(queue) },
    ),
  );
  for (const w of workers) w.on("failed", (job, err) => logger.warn({ job: job?.name, id: job?.id, err }, "job failed"));
  await scheduleRepeatingJob("worker-heartbeat", "platform.heartbeat", { process: "worker" }, 5_000);
  // The market's ranking lists and app counters, rebuilt every few minutes.
  await scheduleRepeatingJob("market-rankings", "market.rankings", {}, RANKING_EVERY_MS);
  // Payment orders nobody paid in time are closed (after asking the provider whether they were paid).
  await scheduleRepeatingJob("money-close-stale-orders", "money.close-stale-orders", {}, CLOSE_STALE_ORDERS_EVERY_MS);
  // Storage beyond the free million, charged once per China day (yesterday); hourly so a paused account resumes soon after it tops up.
  await scheduleRepeatingJob("money-storage-charges", "money.storage-charges", {}, STORAGE_CHARGE_EVERY_MS);
  // Generation jobs past their deadline, polls lost with a killed worker, queue tokens for waiting jobs.
  await scheduleRepeatingJob("media-sweep", "media.sweep", {}, getEnv().MEDIA_SWEEP_MS);
  // Digital-human instances: idle ones stopped, the next hour of busy ones charged to their apps' owners.
  await scheduleRepeatingJob("digital-instances-sweep", "digital.instances-sweep", {}, INSTANCE_SWEEP_EVERY_MS);
  // Workshop runs whose worker died, resumed by a live one from their last finished turn.
  await scheduleRepeatingJob("workshops-sweep", "workshops.sweep", {}, workshopSweepEveryMs());
  return workers;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.ZELIN_PROCESS ??= "worker";
  parseEnv();
  const workers = await startWorkers();
  logger.info({ queues: workers.map((w) => w.name) }, "worker ready");
  const stop = async () => {
    await Promise.all(workers.map((w) => w.close()));
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
