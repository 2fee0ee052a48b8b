// The Kling adapter against a loopback Kling (tests/fakes/fake-kling.ts) that verifies each
// request's JWT with its own HMAC, checks bodies as Kling does and answers in Kling's envelope:
// what the adapter sends, how it reads task states, results, callbacks, and every refusal.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CAMERA_MOTIONS } from "../../server/media/generation.schema";
import { getKlingToken, signKlingToken } from "../../server/media/providers/kling-jwt";
import { buildCameraControl, klingProvider } from "../../server/media/providers/kling";
import type { TImageRequest, TVideoRequest } from "../../server/media/providers/provider";
import { startFakeKling, type TFakeKling } from "../fakes/fake-kling";
import { makePng } from "../helpers/png";
import { contextsFor, newJobId, pollToEnd, refusalOf } from "../helpers/provider-calls";

const SAMPLE_MP4 = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/media/sample.mp4"));
let fake: TFakeKling;

const contextFor = contextsFor(() => ({ baseUrl: fake.url, secret: fake.secret }));
const picture = (width: number, height: number, shade = 90) => ({ bytes: makePng(width, height, shade), mime: "image/png", width, height });
const imageRequest = (over: Partial<TImageRequest> = {}): TImageRequest => ({
  kind: "image",
  model: "kling-v1",
  prompt: "a lighthouse at dawn",
  width: 1344,
  height: 768,
  aspectRatio: "16:9",
  quality: "standard",
  count: 1,
  ...over,
});
const videoRequest = (over: Partial<TVideoRequest> = {}): TVideoRequest => ({
  kind: "video",
  model: "kling-v1-6",
  prompt: "the waves roll in",
  firstFrame: picture(320, 320),
  cameraMotion: "none",
  duration: 5,
  mode: "std",
  ...over,
});

const lastCreate = () => [...fake.requests].reverse().find((r) => r.method === "POST")!;
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

beforeAll(async () => {
  fake = await startFakeKling();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.behave({});
});

describe("Kling images", () => {
  it("submits with a signed token and the request's fields, then reads submitted → processing → succeed into PNG links", async () => {
    const ctx = contextFor({ callbackUrl: "https://zelin.example/api/media/callbacks/kling" });
    const req = imageRequest({ negativePrompt: "blurry, text", count: 2 });
    const { taskId } = await klingProvider.submit(ctx, req);
    expect(taskId).toMatch(/^\d+$/);

    const sent = lastCreate();
    expect(sent.path).toBe("/v1/images/generations");
    expect(sent.body).toEqual({
      model_name: "kling-v1",
      prompt: "a lighthouse at dawn",
      negative_prompt: "blurry, text",
      n: 2,
      aspect_ratio: "16:9",
      callback_url: "https://zelin.example/api/media/callbacks/kling",
      external_task_id: ctx.jobId,
    });
    const [header, payload] = String(sent.headers.authorization).replace("Bearer ", "").split(".").slice(0, 2);
    expect(JSON.parse(Buffer.from(header, "base64url").toString())).toEqual({ alg: "HS256", typ: "JWT" });
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    expect(claims.iss).toBe(fake.accessKey);
    expect(claims.exp - claims.nbf).toBe(1805);

    const { final, seen } = await pollToEnd(klingProvider, ctx, taskId, req);
    expect(seen.map((s) => [s.state, s.providerState])).toEqual([
      ["queued", "submitted"],
      ["running", "processing"],
      ["succeeded", "succeed"],
    ]);
    if (final.state !== "succeeded") throw new Error("expected success");
    expect(final.outputs).toHaveLength(2);
    for (const output of final.outputs) {
      if (!("url" in output)) throw new Error("Kling answers links");
      expect(output.mime).toBe("image/png");
      const res = await fetch(output.url);
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(1, 4).toString()).toBe("PNG");
      expect(pngSize(bytes)).toEqual({ width: 512, height: 288 });
    }
  });

  it("sends a reference picture as bare base64, without the negative prompt Kling refuses beside it, and names its use for kling-v1-5", async () => {
    const reference = picture(400, 300, 30);
    const { taskId } = await klingProvider.submit(contextFor(), imageRequest({ model: "kling-v1-5", reference, negativePrompt: "fog", aspectRatio: "3:4" }));
    const sent = lastCreate();
    expect(Buffer.from(sent.body.image, "base64").equals(reference.bytes)).toBe(true);
    expect(sent.body.image_reference).toBe("subject");
    expect(sent.body).not.toHaveProperty("negative_prompt");
    expect(fake.tasks.get(taskId)?.body.aspect_ratio).toBe("3:4");
  });

  it("recognises a resubmission of the same job: Kling keeps one task per external_task_id", async () => {
    const ctx = contextFor();
    const first = await klingProvider.submit(ctx, imageRequest());
    const again = await klingProvider.submit(ctx, imageRequest());
    expect(again.taskId).toBe(first.taskId);
    expect([...fake.tasks.values()].filter((t) => t.externalTaskId === ctx.jobId)).toHaveLength(1);
    const lookup = fake.requests.at(-1)!;
    expect([lookup.method, lookup.path, lookup.query]).toEqual(["GET", "/v1/images/generations", `?external_task_id=${ctx.jobId}`]);
  });
});

describe("Kling videos", () => {
  it("sends the first and tail frames as base64 with duration as a string, and reads the finished video", async () => {
    const ctx = contextFor();
    const req = videoRequest({ tailFrame: picture(400, 320, 200), negativePrompt: "shaky", duration: 10, mode: "pro" });
    const { taskId } = await klingProvider.submit(ctx, req);
    const sent = lastCreate();
    expect(sent.path).toBe("/v1/videos/image2video");
    expect(Buffer.from(sent.body.image, "base64").equals(req.firstFrame.bytes)).toBe(true);
    expect(Buffer.from(sent.body.image_tail, "base64").equals(req.tailFrame!.bytes)).toBe(true);
    expect(sent.body).toMatchObject({
      model_name: "kling-v1-6",
      prompt: "the waves roll in",
      negative_prompt: "shaky",
      duration: "10",
      mode: "pro",
      external_task_id: ctx.jobId,
    });
    expect(sent.body).not.toHaveProperty("camera_control");
    expect(sent.body).not.toHaveProperty("callback_url");

    const { final } = await pollToEnd(klingProvider, ctx, taskId, req);
    if (final.state !== "succeeded" || !("url" in final.outputs[0])) throw new Error("expected a video link");
    expect(final.outputs).toEqual([{ url: expect.stringContaining(`/kcdn/${taskId}/output.mp4?`), mime: "video/mp4" }]);
    const res = await fetch(final.outputs[0].url);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await res.arrayBuffer()).equals(SAMPLE_MP4)).toBe(true);
  });

  it("maps every camera motion onto camera_control, and Kling takes each of them", async () => {
    expect(buildCameraControl("none")).toBeUndefined();
    expect(buildCameraControl("zoom")).toEqual({ type: "simple", config: { zoom: 5 } });
    expect(buildCameraControl("roll")).toEqual({ type: "simple", config: { roll: 5 } });
    expect(buildCameraControl("down_back")).toEqual({ type: "down_back" });
    for (const motion of CAMERA_MOTIONS) {
      await klingProvider.submit(contextFor(), videoRequest({ model: "kling-v1-5", mode: "pro", cameraMotion: motion }));
      expect(lastCreate().body.camera_control).toEqual(buildCameraControl(motion));
    }
    expect(lastCreate().body.camera_control).toEqual({ type: "left_turn_forward" });
  });

  it("refuses a tail frame for kling-v1-5, and a tail frame with a camera motion, without calling Kling", async () => {
    const before = fake.requests.length;
    const noTail = await refusalOf(klingProvider.submit(contextFor(), videoRequest({ model: "kling-v1-5", tailFrame: picture(320, 320) })));
    expect(noTail.failure).toBe("bad_request");
    const both = await refusalOf(klingProvider.submit(contextFor(), videoRequest({ tailFrame: picture(320, 320), cameraMotion: "pan" })));
    expect(both.failure).toBe("bad_request");
    expect(fake.requests.length).toBe(before);
  });

  it("the fake refuses what Kling refuses: a kling-v1-5 tail frame, a numeric duration, a data: prefix, a tiny picture", async () => {
    const token = await signKlingToken(fake.accessKey, fake.secretKey);
    const frame = makePng(320, 320).toString("base64");
    const post = async (body: object) => {
      const res = await fetch(`${fake.url}/v1/videos/image2video`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, ...((await res.json()) as { code: number; message: string }) };
    };
    expect(await post({ model_name: "kling-v1-5", image: frame, image_tail: frame })).toMatchObject({ status: 400, code: 1201 });
    expect(await post({ model_name: "kling-v1-6", image: frame, duration: 5 })).toMatchObject({ status: 400, code: 1201 });
    expect(await post({ model_name: "kling-v1-6", image: `data:image/png;base64,${frame}` })).toMatchObject({ status: 400, code: 1201 });
    expect(await post({ model_name: "kling-v1-6", image: makePng(64, 64).toString("base64") })).toMatchObject({ status: 400, code: 1201 });
    expect(await post({ model_name: "kling-v1-6", image: frame, camera_control: { type: "simple", config: { zoom: 5, pan: 5 } } })).toMatchObject({
      code: 1201,
    });
    expect(await post({ model_name: "kling-v1-6", image: frame, duration: "10" })).toMatchObject({ status: 200, code: 0 });
  });

  it("passes Kling's own parameter refusal on as bad_request", async () => {
    const err = await refusalOf(klingProvider.submit(contextFor(), videoRequest({ firstFrame: picture(100, 100) })));
    expect(err.failure).toBe("bad_request");
    expect(err.message).toContain("1201");
  });
});

describe("Kling failures", () => {
  it("a failed task is an upstream failure with Kling's reason", async () => {
    fake.behave({ outcome: "failed", pollsUntilDone: 0 });
    const ctx = contextFor();
    const { taskId } = await klingProvider.submit(ctx, imageRequest());
    const { final } = await pollToEnd(klingProvider, ctx, taskId, imageRequest());
    expect(final).toMatchObject({ state: "failed", failure: "upstream", providerState: "failed", message: expect.stringContaining("internal error") });
  });

  it("a result that fails Kling's review is content_output, never a result", async () => {
    fake.behave({ outcome: "content_output" });
    const ctx = contextFor();
    const req = videoRequest();
    const { taskId } = await klingProvider.submit(ctx, req);
    const { final } = await pollToEnd(klingProvider, ctx, taskId, req);
    expect(final).toMatchObject({ state: "failed", failure: "content_output" });
    expect(fake.tasks.get(taskId)?.results).toEqual([]);
  });

  it.each([
    ["content_input", "content_input", 1301],
    ["balance", "balance", 1102],
    ["auth", "auth", 1103],
    ["bad_request", "bad_request", 1201],
  ] as const)("a submit refused as %s (Kling code %i) is a ProviderError %s", async (submitError, failure, code) => {
    fake.behave({ submitError });
    const err = await refusalOf(klingProvider.submit(contextFor(), imageRequest()));
    expect(err.failure).toBe(failure);
    expect(err.message).toContain(String(code));
  });

  it("a rate limit is rate_limited, with Retry-After when one was sent", async () => {
    fake.behave({ submitError: "rate_limited" });
    const plain = await refusalOf(klingProvider.submit(contextFor(), imageRequest()));
    expect([plain.failure, plain.retryAfterMs]).toEqual(["rate_limited", undefined]);
    fake.behave({ submitError: "rate_limited", retryAfterSec: 7 });
    const timed = await refusalOf(klingProvider.submit(contextFor(), videoRequest()));
    expect([timed.failure, timed.retryAfterMs]).toEqual(["rate_limited", 7000]);
  });

  it("a wrong secret or access key is refused by Kling (401) and reported as auth", async () => {
    const wrongSecret = await refusalOf(klingProvider.submit(contextFor({ secret: `${fake.accessKey}:not-the-secret` }), imageRequest()));
    expect(wrongSecret.failure).toBe("auth");
    expect(wrongSecret.message).toContain("1002");
    const wrongAccess = await refusalOf(klingProvider.submit(contextFor({ secret: `ak-someone-else:${fake.secretKey}` }), imageRequest()));
    expect(wrongAccess.failure).toBe("auth");
    expect(wrongAccess.message).toContain("1000");
    const before = fake.requests.length;
    expect((await refusalOf(klingProvider.submit(contextFor({ secret: "no-colon-here" }), imageRequest()))).failure).toBe("auth");
    expect(fake.requests.length).toBe(before);
  });

  it("Kling refuses an expired token with 1004; the adapter's cached token is renewed before it gets there", async () => {
    const stale = await signKlingToken(fake.accessKey, fake.secretKey, Date.now() - 3600_000);
    const res = await fetch(`${fake.url}/v1/images/generations/1`, { headers: { authorization: `Bearer ${stale}` } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: number }).code).toBe(1004);

    const now = Date.now();
    const secret = `ak-cache-check:${crypto.randomUUID()}`;
    const first = await getKlingToken(secret, now);
    expect(await getKlingToken(secret, now + 20 * 60_000)).toBe(first);
    expect(await getKlingToken(secret, now + 26 * 60_000)).not.toBe(first);
  });

  it("a poll refused for the key is a failed status; a poll Kling cannot answer now is thrown to be retried", async () => {
    const ctx = contextFor();
    const { taskId } = await klingProvider.submit(ctx, imageRequest());
    const refused = await klingProvider.poll(contextFor({ secret: `${fake.accessKey}:wrong` }), taskId, imageRequest());
    expect(refused).toMatchObject({ state: "failed", failure: "auth" });
    const unknown = await klingProvider.poll(ctx, "999", imageRequest());
    expect(unknown).toMatchObject({ state: "failed", failure: "bad_request" });
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const down = await refusalOf(klingProvider.poll(contextFor({ baseUrl: `http://127.0.0.1:${port}` }), taskId, imageRequest()));
    expect(down.failure).toBe("upstream");
  });

  it("an expired result link: the adapter hands back the url, and fetching it fails", async () => {
    fake.behave({ expiredLinks: true, pollsUntilDone: 0 });
    const ctx = contextFor();
    const { taskId } = await klingProvider.submit(ctx, imageRequest());
    const { final } = await pollToEnd(klingProvider, ctx, taskId, imageRequest());
    if (final.state !== "succeeded" || !("url" in final.outputs[0])) throw new Error("expected a link");
    expect(final.outputs[0].url).toContain(`/kcdn/${taskId}/0.png?`);
    const res = await fetch(final.outputs[0].url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("AccessDenied");
  });
});

describe("Kling task progress and callbacks", () => {
  it("a held task reads queued, then running until it is finished", async () => {
    fake.behave({ hold: true });
    const ctx = contextFor();
    const req = videoRequest();
    const { taskId } = await klingProvider.submit(ctx, req);
    const states = [];
    for (let i = 0; i < 4; i++) states.push((await klingProvider.poll(ctx, taskId, req)).state);
    expect(states).toEqual(["queued", "running", "running", "running"]);
    fake.finish(taskId);
    expect((await klingProvider.poll(ctx, taskId, req)).state).toBe("succeeded");
  });

  it("posts the finished task to callback_url, and readCallback reads it into the same status", async () => {
    const received: unknown[] = [];
    const sink = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(200).end("ok");
    });
    await new Promise<void>((r) => sink.listen(0, "127.0.0.1", () => r()));
    try {
      fake.behave({ hold: true });
      const ctx = contextFor({ callbackUrl: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/api/media/callbacks/kling` });
      const { taskId } = await klingProvider.submit(ctx, imageRequest({ count: 3 }));
      fake.finish(taskId);
      await expect.poll(() => received.length).toBe(1);
      const read = klingProvider.readCallback!(received[0]);
      expect(read?.taskId).toBe(taskId);
      expect(read?.status).toMatchObject({ state: "succeeded", providerState: "succeed" });
      if (read?.status.state === "succeeded") expect(read.status.outputs).toHaveLength(3);
      expect(received[0]).toMatchObject({ task_id: taskId, task_status: "succeed", task_info: { external_task_id: ctx.jobId } });

      // A task left to finish by itself calls back with nobody polling.
      fake.behave({ finishAfterMs: 20, outcome: "content_output" });
      const unpolled = await klingProvider.submit({ ...ctx, jobId: newJobId() }, videoRequest());
      await expect.poll(() => received.length).toBe(2);
      expect(klingProvider.readCallback!(received[1])).toMatchObject({ taskId: unpolled.taskId, status: { state: "failed", failure: "content_output" } });
      expect(fake.tasks.get(unpolled.taskId)?.polls).toBe(0);
    } finally {
      await new Promise<void>((r) => sink.close(() => r()));
    }
  });

  it("readCallback reads Kling's envelope and a review failure, and ignores what is not a Kling task", () => {
    const envelope = { code: 0, message: "SUCCEED", request_id: "r1", data: { task_id: "42", task_status: "processing" } };
    expect(klingProvider.readCallback!(envelope)).toEqual({ taskId: "42", status: { state: "running", providerState: "processing" } });
    const review = { task_id: "43", task_status: "failed", task_status_msg: "Failure to pass the risk control system" };
    expect(klingProvider.readCallback!(review)?.status).toMatchObject({ state: "failed", failure: "content_output" });
    expect(klingProvider.readCallback!({ output: { task_id: "x", task_status: "SUCCEEDED" } })).toBeNull();
    expect(klingProvider.readCallback!({ task_id: "44", task_status: "done" })).toBeNull();
    expect(klingProvider.readCallback!("nope")).toBeNull();
  });
});
