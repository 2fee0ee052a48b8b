// The same job code runs on BullMQ's Postgres backend (embedded default) and on Redis (REDIS_URL).
import { afterAll, describe, expect, it } from "vitest";
import type { Worker } from "bullmq";
import { getDb } from "../../server/db/client";
import { enqueueJob, JOBS } from "../../server/jobs/jobs";
import { getQueueBackendKind } from "../../server/jobs/queue";
import { startWorkers } from "../../workers/main";

let workers: Worker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
});

async function waitFor<T>(fn: () => Promise<T | null | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out");
}

describe(`job queue (${process.env.REDIS_URL ? "redis" : "postgres"} backend)`, () => {
  it("uses the backend the settings ask for", () => {
    expect(getQueueBackendKind()).toBe(process.env.REDIS_URL ? "redis" : "postgres");
  });

  it("a job enqueued by one process is run by the worker, with two workers running", async () => {
    workers = [...(await startWorkers()), ...(await startWorkers())];
    const name = `itest-${Date.now()}`;
    const job = await enqueueJob("platform.heartbeat", { process: name });
    const row = await waitFor(() => getDb().processHeartbeat.findUnique({ where: { name } }));
    expect(row.name).toBe(name);
    await waitFor(async () => (await job.getState()) === "completed");
  });

  it("refuses a payload that does not match the job's schema before anything is queued", async () => {
    await expect(enqueueJob("platform.heartbeat", { process: 42 } as never)).rejects.toThrow();
    expect(Object.keys(JOBS)).toContain("platform.heartbeat");
  });
});
