// A worker killed in the middle of a generation job: a real worker process submits the job to the
// loopback Kling and is killed (SIGKILL, no goodbye) while the task runs. A second worker picks the
// job up where the row says it is, and the job ends done with the price held once and charged once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { dropSingleton } from "../../server/lib/singleton";
import * as jobs from "../../server/media/media-jobs.service";
import { startFakeKling, type TFakeKling } from "../fakes/fake-kling";
import { addMediaModel, balanceOf, jobPostings, jobRow, makeMediaUser } from "../helpers/media-jobs";
import { startWorker } from "../helpers/platform";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-media-crash-"));
const PRICE = 300_000;
let kling: TFakeKling;
const workers: { stop: () => Promise<void> }[] = [];

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  resetEnvCache();
  dropSingleton("file-store");
  kling = await startFakeKling();
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await kling?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function waitFor<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 45_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? String(x) : x))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const workerEnv = { DATA_DIR: dataDir, MEDIA_POLL_BASE_MS: "200", MEDIA_SWEEP_MS: "500" };

describe("a worker killed mid-job", () => {
  it("leaves the job to the next worker, which finishes it with one hold and one charge", async () => {
    // Jobs earlier files left waiting would be taken first.
    await getDb().mediaJob.updateMany({
      where: { state: { in: ["queued", "generating", "background"] } },
      data: { state: "failed", errorCode: "test_cleared" },
    });
    const model = await addMediaModel({ kind: "image", upstream: "kling-v1", type: "kling", baseUrl: kling.url, secret: kling.secret, unitPriceMicro: PRICE });
    kling.behave({ hold: true });
    const user = await makeMediaUser();
    const before = await balanceOf(user.id);
    const job = await jobs.submitImageJob(user, { model: model.key, prompt: "crash-proof kite", aspectRatio: "1:1", quality: "standard", count: 1 });

    const first = await startWorker(workerEnv);
    workers.push(first);
    const started = await waitFor(
      "the first worker to submit",
      () => jobRow(job.id),
      (r) => Boolean(r.providerTaskId),
    );
    // Polled at least once by the first worker, so its next poll is scheduled when it dies.
    await waitFor(
      "a poll",
      () => jobRow(job.id),
      (r) => r.pollCount >= 1,
    );
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    expect((await jobRow(job.id)).state).toBe("generating");

    kling.finish(started.providerTaskId!);
    const second = await startWorker(workerEnv);
    workers.push(second);
    const done = await waitFor(
      "the second worker to finish the job",
      () => jobRow(job.id),
      (r) => r.state === "done",
    );

    expect(Number(done.chargedMicro)).toBe(PRICE);
    expect(await balanceOf(user.id)).toBe(before - PRICE);
    expect((await jobPostings(job.id)).map((p) => p.kind)).toEqual(["media_hold", "media_charge"]);
    expect(await getDb().mediaItem.count({ where: { jobId: job.id } })).toBe(1);
    // Kling saw the task submitted once: the second worker polled the task the row named.
    expect(kling.requests.filter((r) => r.method === "POST" && r.body?.prompt === "crash-proof kite")).toHaveLength(1);
  });
});
