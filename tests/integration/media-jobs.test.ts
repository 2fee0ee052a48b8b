// Generation jobs end to end inside the worker's steps, against the loopback Kling: the hold at
// submit, the charge on success, the release on every kind of failure, the checks made before any
// provider is paid, the fair queue, racing finishers and the deadline sweep. Steps are called one by
// one (dispatch, poll, sweep) so each state in between can be looked at; the killed-worker case runs
// real worker processes (media-worker-crash.test.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { dropSingleton } from "../../server/lib/singleton";
import { ZVideoJobInput } from "../../server/media/generation.schema";
import { handleMediaDispatch, handleMediaPoll, handleMediaSweep } from "../../server/media/media-job-runner";
import * as jobs from "../../server/media/media-jobs.service";
import { getMediaQuota } from "../../server/media/media.service";
import { getFileStore } from "../../server/uploads/file-store";
import { startFakeKling, type TFakeKling } from "../fakes/fake-kling";
import { startFakeSdWebui } from "../fakes/fake-sd-webui";
import { addLibraryPicture, addMediaModel, balanceOf, jobPostings, jobRow, makeMediaUser, refusalIn, runJobToEnd } from "../helpers/media-jobs";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-media-jobs-"));
let kling: TFakeKling;
let image: { key: string };
let video: { key: string };
let videoV15: { key: string };
const IMAGE_PRICE = 200_000;
const VIDEO_PRICE_PER_S = 500_000;

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  process.env.MEDIA_POLL_BASE_MS = "100";
  process.env.MEDIA_JOBS_PER_ACCOUNT = "2";
  resetEnvCache();
  dropSingleton("file-store");
  kling = await startFakeKling();
  const channel = { type: "kling", baseUrl: kling.url, secret: kling.secret };
  image = await addMediaModel({ kind: "image", upstream: "kling-v1", unitPriceMicro: IMAGE_PRICE, ...channel });
  video = await addMediaModel({ kind: "video", upstream: "kling-v1-6", unitPriceMicro: VIDEO_PRICE_PER_S, ...channel });
  videoV15 = await addMediaModel({ kind: "video", upstream: "kling-v1-5", unitPriceMicro: VIDEO_PRICE_PER_S, ...channel });
});

afterAll(async () => {
  await kling?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  kling.behave({ pollsUntilDone: 1 });
  // Jobs other tests left waiting would take this test's queue turns.
  await getDb().mediaJob.updateMany({ where: { state: { in: ["queued", "generating", "background"] } }, data: { state: "failed", errorCode: "test_cleared" } });
});

describe("a drawing", () => {
  it("holds the price at submit, charges it on success, and keeps the pictures in the library", async () => {
    const user = await makeMediaUser();
    const before = await balanceOf(user.id);
    const job = await jobs.submitImageJob(user, { model: image.key, prompt: "a red kite over the sea", aspectRatio: "16:9", quality: "standard", count: 2 });
    expect(job.state).toBe("queued");
    expect(job.priceMicro).toBe(2 * IMAGE_PRICE);
    expect(await balanceOf(user.id)).toBe(before - 2 * IMAGE_PRICE);

    const ended = await runJobToEnd(job.id);
    expect(ended.state).toBe("done");
    expect(Number(ended.chargedMicro)).toBe(2 * IMAGE_PRICE);
    expect(await balanceOf(user.id)).toBe(before - 2 * IMAGE_PRICE);

    // What Kling was asked: a signed request with the prompt, count and ratio.
    const submit = kling.requests.find((r) => r.method === "POST" && r.path === "/v1/images/generations")!;
    expect(submit.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(submit.body).toMatchObject({ model_name: "kling-v1", prompt: "a red kite over the sea", n: 2, aspect_ratio: "16:9" });

    const view = await jobs.getMediaJob(user, { id: job.id });
    expect(view.outputs).toHaveLength(2);
    for (const out of view.outputs) {
      expect(out.url).toMatch(new RegExp(`^/files/media/${user.id}/generated/`));
      const stored = await getFileStore().get(out.url.replace("/files/", ""));
      expect(stored?.contentType).toBe("image/png");
    }
    const items = await getDb().mediaItem.findMany({ where: { jobId: job.id } });
    expect(items.map((i) => [i.kind, i.source, i.ownerAccountId])).toEqual([
      ["image", "generated", user.id],
      ["image", "generated", user.id],
    ]);

    const postings = await jobPostings(job.id);
    expect(postings.map((p) => p.kind)).toEqual(["media_hold", "media_charge"]);
    // Generated pictures are in the library without using the day's uploads.
    expect((await getMediaQuota(user)).used).toBe(0);
  });

  it("refuses before anything is written: short balance, a count over the model's, an unknown model", async () => {
    const poor = await makeMediaUser(100_000);
    const r1 = await refusalIn(jobs.submitImageJob(poor, { model: image.key, prompt: "x", aspectRatio: "1:1", quality: "standard", count: 1 }));
    expect(r1.envelope.status).toBe(420001);
    const r2 = await refusalIn(jobs.submitImageJob(poor, { model: image.key, prompt: "x", aspectRatio: "1:1", quality: "standard", count: 9 }));
    expect(r2.envelope.description).toMatch(/allowed range/);
    const r3 = await refusalIn(jobs.submitImageJob(poor, { model: video.key, prompt: "x", aspectRatio: "1:1", quality: "standard", count: 1 }));
    expect(r3.httpStatus).toBe(404);
    expect(await getDb().mediaJob.count({ where: { ownerAccountId: poor.id } })).toBe(0);
    expect(await balanceOf(poor.id)).toBe(100_000);
  });

  const failures = [
    { name: "the provider's failure", behave: { outcome: "failed" as const }, state: "failed", code: "generation_failed" },
    { name: "an output that failed review", behave: { outcome: "content_output" as const }, state: "failed_review", code: "output_review_failed" },
    { name: "a prompt the provider refused", behave: { submitError: "content_input" as const }, state: "failed", code: "content_illegal" },
    { name: "the provider's empty balance", behave: { submitError: "balance" as const }, state: "failed", code: "system_busy" },
    { name: "a refused key", behave: { submitError: "auth" as const }, state: "failed", code: "key_banned" },
    { name: "an expired result link", behave: { expiredLinks: true }, state: "failed", code: "media_result_expired" },
  ];
  for (const f of failures) {
    it(`releases the hold after ${f.name}`, async () => {
      kling.behave({ pollsUntilDone: 1, ...f.behave });
      const user = await makeMediaUser();
      const before = await balanceOf(user.id);
      const job = await jobs.submitImageJob(user, { model: image.key, prompt: "a kite", aspectRatio: "1:1", quality: "standard", count: 1 });
      const ended = await runJobToEnd(job.id);
      expect([ended.state, ended.errorCode]).toEqual([f.state, f.code]);
      expect(await balanceOf(user.id)).toBe(before);
      expect((await jobPostings(job.id)).map((p) => p.kind)).toEqual(["media_hold", "media_release"]);
      const view = await jobs.getMediaJob(user, { id: job.id });
      expect(view.outputs).toEqual([]);
      expect(await getDb().mediaItem.count({ where: { jobId: job.id } })).toBe(0);
    });
  }

  it("waits out a rate limit and then succeeds", async () => {
    kling.behave({ submitError: "rate_limited" });
    const user = await makeMediaUser();
    const job = await jobs.submitImageJob(user, { model: image.key, prompt: "a kite", aspectRatio: "1:1", quality: "standard", count: 1 });
    await handleMediaDispatch();
    let row = await jobRow(job.id);
    expect(row.state).toBe("generating");
    expect(row.providerTaskId).toBeNull();
    expect(row.pollCount).toBe(1);
    kling.behave({ pollsUntilDone: 1 });
    for (let i = 0; i < 5 && row.state === "generating"; i++) {
      await handleMediaPoll({ jobId: job.id });
      row = await jobRow(job.id);
    }
    expect(row.state).toBe("done");
  });

  it("charges once when two finishers race (a callback and a poll)", async () => {
    const user = await makeMediaUser();
    const before = await balanceOf(user.id);
    kling.behave({ pollsUntilDone: 0 });
    const job = await jobs.submitImageJob(user, { model: image.key, prompt: "twins", aspectRatio: "1:1", quality: "standard", count: 1 });
    await handleMediaDispatch();
    await Promise.all([handleMediaPoll({ jobId: job.id }), handleMediaPoll({ jobId: job.id }), handleMediaPoll({ jobId: job.id })]);
    const row = await jobRow(job.id);
    expect(row.state).toBe("done");
    expect(await balanceOf(user.id)).toBe(before - IMAGE_PRICE);
    expect(await getDb().mediaItem.count({ where: { jobId: job.id } })).toBe(1);
    expect((await jobPostings(job.id)).map((p) => p.kind)).toEqual(["media_hold", "media_charge"]);
  });
});

describe("a first-and-tail-frame video", () => {
  it("sends both frames and is charged by its seconds", async () => {
    const user = await makeMediaUser();
    const first = await addLibraryPicture(user.id, 40);
    const tail = await addLibraryPicture(user.id, 200);
    const before = await balanceOf(user.id);
    const input = ZVideoJobInput.parse({ model: video.key, prompt: "the kite lands", firstFrameId: first, tailFrameId: tail, duration: 10 });
    const job = await jobs.submitVideoJob(user, input);
    expect(job.priceMicro).toBe(10 * VIDEO_PRICE_PER_S);
    const ended = await runJobToEnd(job.id);
    expect(ended.state).toBe("done");
    const submit = kling.requests.find((r) => r.method === "POST" && r.path === "/v1/videos/image2video" && r.body.prompt === "the kite lands")!;
    expect(submit.body).toMatchObject({ model_name: "kling-v1-6", duration: "10" });
    expect(submit.body.image.length).toBeGreaterThan(100);
    expect(submit.body.image_tail.length).toBeGreaterThan(100);
    expect(submit.body.camera_control).toBeUndefined();
    const items = await getDb().mediaItem.findMany({ where: { jobId: job.id } });
    expect(items.map((i) => [i.kind, i.mime])).toEqual([["video", "video/mp4"]]);
    expect(await balanceOf(user.id)).toBe(before - 10 * VIDEO_PRICE_PER_S);
  });

  it("refuses a tail frame on kling-v1-5, a 7-second video, and another account's picture, writing nothing", async () => {
    const user = await makeMediaUser();
    const stranger = await makeMediaUser();
    const mine = await addLibraryPicture(user.id);
    const theirs = await addLibraryPicture(stranger.id);
    const r1 = await refusalIn(jobs.submitVideoJob(user, ZVideoJobInput.parse({ model: videoV15.key, firstFrameId: mine, tailFrameId: mine })));
    expect(r1.envelope.description).toMatch(/tail frame/);
    expect(() => ZVideoJobInput.parse({ model: video.key, firstFrameId: mine, duration: 7 })).toThrow(/video_duration/);
    // Kling takes a camera motion or a tail frame, not both.
    const r2 = await refusalIn(
      jobs.submitVideoJob(user, ZVideoJobInput.parse({ model: video.key, firstFrameId: mine, tailFrameId: mine, cameraMotion: "zoom" })),
    );
    expect(r2.envelope.description).toMatch(/camera motion/);
    const r3 = await refusalIn(jobs.submitVideoJob(user, ZVideoJobInput.parse({ model: video.key, firstFrameId: theirs })));
    expect(r3.httpStatus).toBe(404);
    expect(await getDb().mediaJob.count({ where: { ownerAccountId: user.id } })).toBe(0);
    // kling-v1-5 without a tail frame is fine, and a camera motion goes with a first frame alone.
    const ok = await jobs.submitVideoJob(user, ZVideoJobInput.parse({ model: videoV15.key, firstFrameId: mine, cameraMotion: "zoom" }));
    expect(ok.state).toBe("queued");
    const ended = await runJobToEnd(ok.id);
    expect(ended.state).toBe("done");
    const submit = kling.requests.find((r) => r.method === "POST" && r.path === "/v1/videos/image2video" && r.body.model_name === "kling-v1-5")!;
    expect(submit.body.camera_control?.config?.zoom).toBeTruthy();
    expect(submit.body.image_tail).toBeUndefined();
  });
});

describe("a self-hosted Stable Diffusion WebUI", () => {
  it("draws with the screen's sampler, steps and guidance, reports progress while it blocks, and keeps the pictures", async () => {
    const sd = await startFakeSdWebui({ credentials: "painter:secret" });
    try {
      sd.behave({ pollsUntilDone: 4, stepMs: 400 });
      const model = await addMediaModel({
        kind: "image",
        upstream: "sd_xl_base_1.0",
        type: "sdwebui",
        baseUrl: sd.url,
        secret: "painter:secret",
        unitPriceMicro: IMAGE_PRICE,
      });
      const user = await makeMediaUser();
      const job = await jobs.submitImageJob(user, {
        model: model.key,
        prompt: "a lighthouse at dusk",
        negativePrompt: "blurry",
        aspectRatio: "1:1",
        size: "768x512",
        sampler: "DPM++ 2M Karras",
        steps: 24,
        guidance: 6.5,
        quality: "standard",
        count: 2,
      });
      const seen: number[] = [];
      const watching = setInterval(() => void jobRow(job.id).then((r) => seen.push(r.progress)), 150);
      await handleMediaDispatch();
      clearInterval(watching);
      const row = await jobRow(job.id);
      expect(row.state).toBe("done");
      expect(
        seen.some((p) => p > 0 && p < 100),
        `progress seen: ${seen.join(",")}`,
      ).toBe(true);
      const sent = sd.requests.find((r) => r.path === "/sdapi/v1/txt2img")!;
      expect(sent.body).toMatchObject({
        prompt: "a lighthouse at dusk",
        negative_prompt: "blurry",
        sampler_name: "DPM++ 2M Karras",
        steps: 24,
        cfg_scale: 6.5,
        width: 768,
        height: 512,
        batch_size: 2,
      });
      expect(await getDb().mediaItem.count({ where: { jobId: job.id } })).toBe(2);
      // A sampler the WebUI does not offer is refused before anything is held.
      const r = await refusalIn(
        jobs.submitImageJob(user, { model: model.key, prompt: "x", aspectRatio: "1:1", sampler: "Made Up", quality: "standard", count: 1 }),
      );
      expect(r.httpStatus).toBe(400);
    } finally {
      await sd.close();
    }
  });
});

describe("the fair queue", () => {
  it("gives a second account a turn before the first account's backlog, and never more than the per-account cap", async () => {
    kling.behave({ hold: true });
    const busy = await makeMediaUser();
    const other = await makeMediaUser();
    const backlog = [];
    for (let i = 0; i < 5; i++)
      backlog.push(await jobs.submitImageJob(busy, { model: image.key, prompt: `busy ${i}`, aspectRatio: "1:1", quality: "standard", count: 1 }));
    const late = await jobs.submitImageJob(other, { model: image.key, prompt: "late", aspectRatio: "1:1", quality: "standard", count: 1 });
    const started: (string | null)[] = [];
    for (let i = 0; i < 4; i++) started.push((await handleMediaDispatch()).started);
    // busy's first job, then other's (never started before), then busy's second; then busy is at its cap.
    expect(started).toEqual([backlog[0].id, late.id, backlog[1].id, null]);
    expect(await getDb().mediaJob.count({ where: { ownerAccountId: busy.id, state: "generating" } })).toBe(2);
  });
});

describe("the sweep", () => {
  it("fails a job past its deadline and releases its hold", async () => {
    kling.behave({ hold: true });
    const user = await makeMediaUser();
    const before = await balanceOf(user.id);
    const job = await jobs.submitImageJob(user, { model: image.key, prompt: "slow", aspectRatio: "1:1", quality: "standard", count: 1 });
    await handleMediaDispatch();
    await getDb().mediaJob.update({ where: { id: job.id }, data: { deadlineAt: new Date(Date.now() - 1000) } });
    await handleMediaSweep();
    const row = await jobRow(job.id);
    expect([row.state, row.errorCode]).toEqual(["failed", "generation_timeout"]);
    expect(await balanceOf(user.id)).toBe(before);
  });

  it("moves a watched job to the background and back into the gallery's view, and hides only finished jobs", async () => {
    kling.behave({ hold: true });
    const user = await makeMediaUser();
    const stranger = await makeMediaUser();
    const job = await jobs.submitImageJob(user, { model: image.key, prompt: "away", aspectRatio: "1:1", quality: "standard", count: 1 });
    expect((await refusalIn(jobs.moveToBackground(stranger, [job.id]))).httpStatus).toBe(404);
    expect((await jobRow(job.id)).state).toBe("queued");
    expect((await jobs.continueInBackground(user, { id: job.id })).state).toBe("background");
    expect((await refusalIn(jobs.continueInBackground(stranger, { id: job.id }))).httpStatus).toBe(404);
    expect((await refusalIn(jobs.removeMediaJob(user, { id: job.id }))).httpStatus).toBe(409);
    const page = await jobs.listMediaJobs(user, { page: 1, pageSize: 10 });
    expect(page.items.map((j) => [j.id, j.state])).toEqual([[job.id, "background"]]);
    expect((await jobs.listMediaJobs(stranger, { page: 1, pageSize: 10 })).total).toBe(0);
  });
});
