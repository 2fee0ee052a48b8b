// Every job the platform runs: its id (dotted, `<area>.<verb-noun>`), the queue it goes to, and its payload.
// Producers enqueue through enqueueJob(); workers/main.ts binds each queue to its handlers.
import { z } from "zod";
import { getQueue } from "./queue";

export const JOBS = {
  "platform.heartbeat": { queue: "platform", payload: z.object({ process: z.string() }) },
  "knowledge.index": { queue: "knowledge", payload: z.object({ trainingSetId: z.string(), revision: z.number().int() }) },
  "apps.export": { queue: "apps", payload: z.object({ exportId: z.string(), lng: z.string() }) },
  "market.rankings": { queue: "market", payload: z.object({}) },
  "money.close-stale-orders": { queue: "money", payload: z.object({}) },
  /** The daily storage charge for a China day (YYYYMMDD; yesterday when left out). */
  "money.storage-charges": { queue: "money", payload: z.object({ day: z.number().int().optional() }) },
  /** A token to take the next generation job of the fair queue (whichever job is fairest, not a given one). */
  "media.dispatch": { queue: "media", payload: z.object({}) },
  "media.poll": { queue: "media", payload: z.object({ jobId: z.string() }) },
  "media.sweep": { queue: "media", payload: z.object({}) },
  /** A message or greeting trigger a platform sent to the web process (webhook channels), for a bot gateway to answer. */
  "bots.inbound": { queue: "bots", payload: z.object({ botId: z.string(), message: z.record(z.string(), z.unknown()) }) },
  "bots.greeting": { queue: "bots", payload: z.object({ botId: z.string(), trigger: z.record(z.string(), z.unknown()) }) },
  /**
   * Derivatives of a stored file (server/media/media-derive.service.ts): a library item's (web size,
   * thumbnail, poster, playable copy), an app icon's 200x200 PNG, or any other public picture's web
   * size and thumbnail.
   */
  "media.derive": {
    queue: "media-files",
    payload: z.union([z.object({ mediaItemId: z.string() }), z.object({ fileKey: z.string(), purpose: z.enum(["icon", "picture"]) })]),
  },
  /** A figure's filming video measured and judged, then its loop and keyed still made (server/digital/figure-work.service.ts). */
  "digital.figure-measure": { queue: "digital-files", payload: z.object({ figureId: z.string() }) },
  "digital.figure-prepare": { queue: "digital-files", payload: z.object({ figureId: z.string() }) },
  /** A voice recording measured and judged, then sent to be cloned (server/digital/voice-training.service.ts). */
  "digital.voice-measure": { queue: "digital-files", payload: z.object({ voiceId: z.string() }) },
  /** A digital-human video's render at one step of its chain (server/digital/render.service.ts); the row's recorded step decides. */
  "digital.render": {
    queue: "digital-render",
    payload: z.object({ videoId: z.string(), step: z.enum(["speech", "lipsync", "composite"]), retry: z.number().int().optional() }),
  },
  /** A digital-human app reply's lip-synced clip: the speech measured, the lip-sync submitted (server/apps/digital-clips.service.ts). */
  "digital.app-clip": { queue: "digital-clips", payload: z.object({ appId: z.string(), messageId: z.string() }) },
  /** Digital-human instances: idle and closed ones stopped, the next hour of busy ones charged (server/digital/instance-billing.ts). */
  "digital.instances-sweep": { queue: "digital-instances", payload: z.object({}) },
  /** A workshop run carried turn by turn to its end or the person's turn (server/workshops/engine/run-engine.ts). */
  "workshops.carry": { queue: "workshops", payload: z.object({ runId: z.string() }) },
  /** Runs whose worker died (their lease lapsed) handed to a live one. */
  "workshops.sweep": { queue: "workshops", payload: z.object({}) },
} as const;

/** Queues the bot gateway processes consume (the worker process leaves them alone). */
export const GATEWAY_QUEUES: ReadonlySet<string> = new Set(["bots"]);
export type TGatewayJobId = { [J in keyof typeof JOBS]: (typeof JOBS)[J]["queue"] extends "bots" ? J : never }[keyof typeof JOBS];

export type TJobId = keyof typeof JOBS;
export type TJobPayload<J extends TJobId> = z.infer<(typeof JOBS)[J]["payload"]>;

export async function enqueueJob<J extends TJobId>(id: J, payload: TJobPayload<J>, opts: { jobId?: string; delay?: number; attempts?: number } = {}) {
  const def = JOBS[id];
  return getQueue(def.queue).add(id, def.payload.parse(payload), { ...opts, removeOnComplete: 1000, removeOnFail: 5000 });
}

export async function scheduleRepeatingJob<J extends TJobId>(schedulerId: string, id: J, payload: TJobPayload<J>, everyMs: number) {
  const def = JOBS[id];
  return getQueue(def.queue).upsertJobScheduler(
    schedulerId,
    { every: everyMs },
    { name: id, data: def.payload.parse(payload), opts: { removeOnComplete: 100, removeOnFail: 100 } },
  );
}
