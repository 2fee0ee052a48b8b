// The DashScope adapter against a loopback DashScope (tests/fakes/fake-dashscope.ts) that checks
// the bearer key, the async header and bodies as DashScope does and answers in its shapes: what the
// adapter sends, how it reads task states, results and progress, speech, and every refusal.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dashscopeProvider, readDashscopeTask } from "../../server/media/providers/dashscope";
import { pickImageSize } from "../../server/media/providers/dashscope-requests";
import type { TImageRequest, TProviderStatus, TSpeechRequest, TVideoRequest } from "../../server/media/providers/provider";
import { startFakeDashscope } from "../fakes/fake-dashscope";
import { decodeFrame } from "../fakes/fake-dashscope-checks";
import { makePng } from "../helpers/png";
import { contextsFor, pollToEnd, refusalOf } from "../helpers/provider-calls";

type TFake = Awaited<ReturnType<typeof startFakeDashscope>>;
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/media");
const SAMPLE_MP4 = fs.readFileSync(path.join(FIXTURES, "sample.mp4"));
const SAMPLE_MP3 = fs.readFileSync(path.join(FIXTURES, "sample.mp3"));
let fake: TFake;

const contextFor = contextsFor(() => ({ baseUrl: fake.url, secret: fake.apiKey }));
const picture = (width: number, height: number, shade = 90) => ({ bytes: makePng(width, height, shade), mime: "image/png", width, height });
const imageRequest = (over: Partial<TImageRequest> = {}): TImageRequest => ({
  kind: "image",
  model: "wanx2.1-t2i-turbo",
  prompt: "a lighthouse at dawn",
  width: 1024,
  height: 1024,
  aspectRatio: "1:1",
  quality: "standard",
  count: 1,
  ...over,
});
const videoRequest = (over: Partial<TVideoRequest> = {}): TVideoRequest => ({
  kind: "video",
  model: "wanx2.1-i2v-turbo",
  prompt: "the waves roll in",
  firstFrame: picture(320, 240),
  cameraMotion: "none",
  duration: 5,
  mode: "std",
  ...over,
});
const speechRequest = (over: Partial<TSpeechRequest> = {}): TSpeechRequest => ({
  kind: "speech",
  model: "cosyvoice-v2",
  text: "欢迎光临",
  voice: "longxiaochun_v2",
  format: "mp3",
  ...over,
});

const lastSubmit = () => [...fake.requests].reverse().find((r) => r.method === "POST")!;
const outputUrls = (status: TProviderStatus) => (status.state === "succeeded" ? status.outputs.map((o) => ("url" in o ? o.url : "")) : []);

beforeAll(async () => {
  fake = await startFakeDashscope();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.behave({});
});

describe("DashScope drawing", () => {
  it("submits text-to-image as an async task and reads the pictures back", async () => {
    const ctx = contextFor();
    const req = imageRequest({ negativePrompt: "people", count: 2, seed: 42, style: "<watercolor>", width: 1344, height: 768, aspectRatio: "16:9" });
    const { taskId, status } = await dashscopeProvider.submit(ctx, req);
    expect(status).toBeUndefined();
    expect(fake.tasks.get(taskId)?.status).toBe("PENDING");

    const sent = lastSubmit();
    expect(sent.path).toBe("/api/v1/services/aigc/text2image/image-synthesis");
    expect(sent.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(sent.headers["x-dashscope-async"]).toBe("enable");
    expect(sent.body).toEqual({
      model: "wanx2.1-t2i-turbo",
      input: { prompt: "a lighthouse at dawn", negative_prompt: "people" },
      parameters: { size: "1344*768", n: 2, style: "<watercolor>", seed: 42 },
    });

    const { final, seen } = await pollToEnd(dashscopeProvider, ctx, taskId, req);
    expect(seen[0]).toMatchObject({ state: "running", providerState: "RUNNING" });
    expect(final.state).toBe("succeeded");
    const urls = outputUrls(final);
    expect(urls).toHaveLength(2);
    expect(final.state === "succeeded" && final.outputs.every((o) => o.mime === "image/png")).toBe(true);
    for (const url of urls) {
      expect(url).toMatch(/\?Expires=\d+&OSSAccessKeyId=\w+&Signature=/);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const png = Buffer.from(await res.arrayBuffer());
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 293]);
    }
  });

  it("sends a size wanx-v1 draws and lets an API base URL end in /api/v1", async () => {
    expect(pickImageSize("wanx-v1", 1344, 768)).toBe("1280*720");
    expect(pickImageSize("wanx-v1", 896, 1152)).toBe("768*1152");
    expect(pickImageSize("wanx2.1-t2i-plus", 2048, 1024)).toBe("1440*720");
    expect(pickImageSize("wanx2.1-t2i-plus", 256, 256)).toBe("512*512");
    const ctx = contextFor({ baseUrl: `${fake.url}/api/v1/` });
    const { taskId } = await dashscopeProvider.submit(ctx, imageRequest({ model: "wanx-v1", width: 896, height: 1152, aspectRatio: "3:4" }));
    expect(lastSubmit().body.parameters.size).toBe("768*1152");
    expect((await pollToEnd(dashscopeProvider, ctx, taskId, imageRequest())).final.state).toBe("succeeded");
  });

  it("reports PENDING as queued and counts finished pictures as progress while RUNNING", async () => {
    fake.behave({ pendingPolls: 1, pollsUntilDone: 3 });
    const ctx = contextFor();
    const req = imageRequest({ count: 4 });
    const { taskId } = await dashscopeProvider.submit(ctx, req);
    const { final, seen } = await pollToEnd(dashscopeProvider, ctx, taskId, req);
    expect(seen.slice(0, 4)).toEqual([
      { state: "queued", providerState: "PENDING" },
      { state: "running", progress: 25, providerState: "RUNNING" },
      { state: "running", progress: 50, providerState: "RUNNING" },
      { state: "running", progress: 75, providerState: "RUNNING" },
    ]);
    expect(final).toMatchObject({ state: "succeeded", providerState: "SUCCEEDED" });
    expect(outputUrls(final)).toHaveLength(4);
  });

  it("keeps a held task running until it is finished", async () => {
    fake.behave({ hold: true });
    const ctx = contextFor();
    const req = imageRequest();
    const { taskId } = await dashscopeProvider.submit(ctx, req);
    for (let i = 0; i < 3; i++) expect((await dashscopeProvider.poll(ctx, taskId, req)).state).toBe("running");
    fake.finish(taskId);
    expect((await dashscopeProvider.poll(ctx, taskId, req)).state).toBe("succeeded");
  });

  it("fails a task DashScope failed, and one whose result its review refused", async () => {
    const ctx = contextFor();
    fake.behave({ outcome: "failed" });
    const failed = await dashscopeProvider.submit(ctx, imageRequest());
    const { final } = await pollToEnd(dashscopeProvider, ctx, failed.taskId, imageRequest());
    expect(final).toMatchObject({ state: "failed", failure: "upstream", providerState: "FAILED" });
    expect(final.state === "failed" && final.message).toMatch(/^InternalError\.Algo: /);

    fake.behave({ outcome: "content_output" });
    const refused = await dashscopeProvider.submit(ctx, imageRequest());
    expect((await pollToEnd(dashscopeProvider, ctx, refused.taskId, imageRequest())).final).toMatchObject({
      state: "failed",
      failure: "content_output",
      providerState: "FAILED",
    });
  });

  it("reads a review that refused a picture after acceptance as the input's, and each picture refused as the result's", () => {
    expect(
      readDashscopeTask({ task_status: "FAILED", code: "DataInspectionFailed", message: "Input data may contain inappropriate content." }, "video"),
    ).toMatchObject({
      failure: "content_input",
    });
    const allRefused = { task_status: "SUCCEEDED", results: [{ code: "DataInspectionFailed", message: "Output data may contain inappropriate content." }] };
    expect(readDashscopeTask(allRefused, "image")).toMatchObject({ state: "failed", failure: "content_output" });
    const partly = {
      task_status: "SUCCEEDED",
      results: [{ url: "https://oss.example/a.png?Expires=1" }, { code: "DataInspectionFailed", message: "Output data may contain inappropriate content." }],
    };
    expect(readDashscopeTask(partly, "image")).toEqual({
      state: "succeeded",
      outputs: [{ url: "https://oss.example/a.png?Expires=1", mime: "image/png" }],
      providerState: "SUCCEEDED",
    });
  });

  it("fails a task DashScope no longer knows, and one cancelled there", async () => {
    const ctx = contextFor();
    expect(await dashscopeProvider.poll(ctx, crypto.randomUUID(), imageRequest())).toMatchObject({
      state: "failed",
      failure: "upstream",
      providerState: "UNKNOWN",
    });

    fake.behave({ pendingPolls: 5 });
    const { taskId } = await dashscopeProvider.submit(ctx, imageRequest());
    const cancel = await fetch(`${fake.url}/api/v1/tasks/${taskId}/cancel`, { method: "POST", headers: { authorization: `Bearer ${fake.apiKey}` } });
    expect(cancel.status).toBe(200);
    expect(await dashscopeProvider.poll(ctx, taskId, imageRequest())).toMatchObject({ state: "failed", failure: "upstream", providerState: "CANCELED" });
  });

  it("answers the result links even when they have expired, which a plain download then finds refused", async () => {
    fake.behave({ expiredLinks: true });
    const ctx = contextFor();
    const { taskId } = await dashscopeProvider.submit(ctx, imageRequest());
    const { final } = await pollToEnd(dashscopeProvider, ctx, taskId, imageRequest());
    const [url] = outputUrls(final);
    expect(url).toContain(fake.url);
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Request has expired.");
  });
});

describe("DashScope video", () => {
  it("sends a first frame inline to image-to-video and reads the video back", async () => {
    const ctx = contextFor();
    const req = videoRequest({ negativePrompt: "blur", duration: 10 });
    const { taskId } = await dashscopeProvider.submit(ctx, req);
    const sent = lastSubmit();
    expect(sent.path).toBe("/api/v1/services/aigc/video-generation/video-synthesis");
    expect(sent.headers["x-dashscope-async"]).toBe("enable");
    expect(sent.body.model).toBe("wanx2.1-i2v-turbo");
    expect(sent.body.input).toMatchObject({ prompt: "the waves roll in", negative_prompt: "blur" });
    expect(sent.body.input.img_url).toMatch(/^data:image\/png;base64,/);
    expect(decodeFrame(sent.body.input.img_url)?.bytes.equals(req.firstFrame.bytes)).toBe(true);
    expect(sent.body.parameters).toEqual({ duration: 10 });

    const { final } = await pollToEnd(dashscopeProvider, ctx, taskId, req);
    expect(final).toMatchObject({ state: "succeeded", outputs: [{ mime: "video/mp4" }] });
    const video = Buffer.from(await (await fetch(outputUrls(final)[0])).arrayBuffer());
    expect(video.equals(SAMPLE_MP4)).toBe(true);
  });

  it("sends a first and a tail frame to the first-and-last-frame endpoint", async () => {
    const ctx = contextFor();
    const req = videoRequest({ model: "wanx2.1-kf2v-plus", prompt: "", tailFrame: picture(320, 240, 200) });
    const { taskId } = await dashscopeProvider.submit(ctx, req);
    const sent = lastSubmit();
    expect(sent.path).toBe("/api/v1/services/aigc/image2video/video-synthesis");
    expect(Object.keys(sent.body.input).sort()).toEqual(["first_frame_url", "last_frame_url"]);
    expect(decodeFrame(sent.body.input.first_frame_url)?.bytes.equals(req.firstFrame.bytes)).toBe(true);
    expect(decodeFrame(sent.body.input.last_frame_url)?.bytes.equals(req.tailFrame!.bytes)).toBe(true);
    expect((await pollToEnd(dashscopeProvider, ctx, taskId, req)).final.state).toBe("succeeded");
  });
});

describe("DashScope speech", () => {
  it("synthesises with CosyVoice over HTTP and answers at once with the audio link", async () => {
    const ctx = contextFor();
    const { taskId, status } = await dashscopeProvider.submit(ctx, speechRequest());
    const sent = lastSubmit();
    expect(sent.path).toBe("/api/v1/services/audio/tts/SpeechSynthesizer");
    expect(sent.headers["x-dashscope-async"]).toBeUndefined();
    expect(sent.body).toEqual({ model: "cosyvoice-v2", input: { text: "欢迎光临", voice: "longxiaochun_v2", format: "mp3", sample_rate: 24000 } });
    expect(taskId).toMatch(/^audio_/);
    expect(status).toMatchObject({ state: "succeeded", outputs: [{ mime: "audio/mpeg" }], providerState: "stop" });
    const audio = Buffer.from(await (await fetch(outputUrls(status!)[0])).arrayBuffer());
    expect(audio.equals(SAMPLE_MP3)).toBe(true);
  });

  it("asks for WAV when told, and speaks Qwen-TTS models through multimodal generation", async () => {
    const ctx = contextFor();
    const wav = await dashscopeProvider.submit(ctx, speechRequest({ format: "wav" }));
    expect(wav.status).toMatchObject({ state: "succeeded", outputs: [{ mime: "audio/wav" }] });
    const bytes = Buffer.from(await (await fetch(outputUrls(wav.status!)[0])).arrayBuffer());
    expect(bytes.toString("latin1", 0, 4) + bytes.toString("latin1", 8, 12)).toBe("RIFFWAVE");

    const qwen = await dashscopeProvider.submit(ctx, speechRequest({ model: "qwen-tts", voice: "Cherry" }));
    expect(lastSubmit().path).toBe("/api/v1/services/aigc/multimodal-generation/generation");
    expect(lastSubmit().body).toEqual({ model: "qwen-tts", input: { text: "欢迎光临", voice: "Cherry" } });
    expect(qwen.status).toMatchObject({ state: "succeeded", outputs: [{ mime: "audio/wav" }] });
  });

  it("refuses speech the service refuses, and has no speech task to poll", async () => {
    const err = await refusalOf(dashscopeProvider.submit(contextFor(), speechRequest({ voice: " " })));
    expect(err.failure).toBe("bad_request");
    expect(err.message).toContain("input.voice");
    expect(await dashscopeProvider.poll(contextFor(), "audio_x", speechRequest())).toMatchObject({ state: "failed", failure: "upstream" });
  });
});

describe("DashScope refusals", () => {
  it("maps each refusal at submit onto our failures, and creates no task", async () => {
    const cases = [
      ["content_input", "content_input", "DataInspectionFailed"],
      ["rate_limited", "rate_limited", "Throttling.RateQuota"],
      ["balance", "balance", "Arrearage"],
      ["auth", "auth", "AccessDenied.Unpurchased"],
      ["bad_request", "bad_request", "InvalidParameter"],
    ] as const;
    for (const [submitError, failure, code] of cases) {
      fake.behave({ submitError });
      const before = fake.tasks.size;
      const err = await refusalOf(dashscopeProvider.submit(contextFor(), imageRequest()));
      expect({ submitError, failure: err.failure }).toEqual({ submitError, failure });
      expect(err.message).toContain(code);
      expect(fake.tasks.size).toBe(before);
    }
    fake.behave({ submitError: "content_input" });
    expect((await refusalOf(dashscopeProvider.submit(contextFor(), speechRequest()))).failure).toBe("content_input");
  });

  it("passes on when to come back after a rate limit", async () => {
    fake.behave({ submitError: "rate_limited", retryAfterSec: 7 });
    const err = await refusalOf(dashscopeProvider.submit(contextFor(), videoRequest()));
    expect(err).toMatchObject({ failure: "rate_limited", retryAfterMs: 7000 });
  });

  it("is refused with DashScope's own answer for a wrong key, at submit and at poll", async () => {
    const wrong = contextFor({ secret: "sk-someone-else" });
    const err = await refusalOf(dashscopeProvider.submit(wrong, imageRequest()));
    expect(err.failure).toBe("auth");
    expect(err.message).toBe("DashScope InvalidApiKey: Invalid API-key provided.");
    const raw = await fetch(`${fake.url}/api/v1/tasks/x`, { headers: { authorization: "Bearer sk-someone-else" } });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ code: "InvalidApiKey", message: "Invalid API-key provided.", request_id: expect.any(String) });

    const { taskId } = await dashscopeProvider.submit(contextFor(), imageRequest());
    expect(await dashscopeProvider.poll(wrong, taskId, imageRequest())).toMatchObject({ state: "failed", failure: "auth" });
  });

  it("refuses parameters DashScope refuses, in its words", async () => {
    const tooMany = await refusalOf(dashscopeProvider.submit(contextFor(), imageRequest({ count: 5 })));
    expect(tooMany).toMatchObject({ failure: "bad_request", message: "DashScope InvalidParameter: Range of n should be [1, 4]." });
    const badFrame = await refusalOf(
      dashscopeProvider.submit(contextFor(), videoRequest({ firstFrame: { bytes: Buffer.from("not a picture"), mime: "image/png", width: 1, height: 1 } })),
    );
    expect(badFrame.failure).toBe("bad_request");
    expect(badFrame.message).toContain("input.img_url");
  });

  it("is refused for a task call without the async header, as DashScope refuses it", async () => {
    const res = await fetch(`${fake.url}/api/v1/services/aigc/text2image/image-synthesis`, {
      method: "POST",
      headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "wanx-v1", input: { prompt: "x" } }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "AccessDenied", message: "current user api does not support synchronous calls" });
  });

  it("throws an unreachable DashScope as an upstream failure, at submit and at poll", async () => {
    const gone = contextFor({ baseUrl: "http://127.0.0.1:1" });
    expect((await refusalOf(dashscopeProvider.submit(gone, imageRequest()))).failure).toBe("upstream");
    expect((await refusalOf(dashscopeProvider.poll(gone, "t", imageRequest()))).failure).toBe("upstream");
  });
});
