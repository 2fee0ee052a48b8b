// DashScope's digital-human calls against the loopback DashScope (tests/fakes/fake-dashscope.ts):
// VideoRetalk lip-sync as an async task, CosyVoice voice enrollment until the voice is OK, and the
// failures in our words.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dashscopeProvider } from "../../server/media/providers/dashscope";
import { voicePrefixOf } from "../../server/media/providers/dashscope-digital";
import type { TLipsyncRequest, TVoiceCloneRequest } from "../../server/media/providers/provider";
import { startFakeDashscope } from "../fakes/fake-dashscope";
import { contextsFor, expectLateFailures, expectSubmitRefusals, expiredLinkStatus, pollToEnd, refusalOf } from "../helpers/provider-calls";

let fake: Awaited<ReturnType<typeof startFakeDashscope>>;
const ctxFor = contextsFor(() => ({ baseUrl: fake.url, secret: fake.apiKey }));
const retalk = (over: Partial<TLipsyncRequest> = {}): TLipsyncRequest => ({
  kind: "lipsync",
  model: "videoretalk",
  video: { url: "https://zelin.example/files/media/a/digital/clip.mp4", durationMs: 20_000 },
  audio: { url: "https://zelin.example/files/media/a/digital/speech.mp3", durationMs: 30_000 },
  ...over,
});
const clone = (): TVoiceCloneRequest => ({
  kind: "voice_clone",
  model: "cosyvoice-v2",
  name: "Mine",
  sample: { url: "https://zelin.example/files/media/a/voices/s.wav" },
});

beforeAll(async () => {
  fake = await startFakeDashscope();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.behave({}));

describe("DashScope VideoRetalk", () => {
  it("submits an async task with both links and video_extension, and reads the clip", async () => {
    const ctx = ctxFor();
    const { taskId } = await dashscopeProvider.submit(ctx, retalk());
    const sent = fake.requests.filter((r) => r.method === "POST").at(-1)!;
    expect(sent.path).toBe("/api/v1/services/aigc/image2video/video-synthesis");
    expect(sent.headers["x-dashscope-async"]).toBe("enable");
    expect(sent.body).toEqual({
      model: "videoretalk",
      input: { video_url: "https://zelin.example/files/media/a/digital/clip.mp4", audio_url: "https://zelin.example/files/media/a/digital/speech.mp3" },
      parameters: { video_extension: true },
    });
    const { final } = await pollToEnd(dashscopeProvider, ctx, taskId, retalk());
    if (final.state !== "succeeded" || !("url" in final.outputs[0])) throw new Error("expected a link");
    expect((await fetch(final.outputs[0].url)).status).toBe(200);
  });

  it("audio or a clip over 120 s is too_long before any call; DashScope's refusals and late failures are read for their meaning", async () => {
    const before = fake.requests.length;
    expect((await refusalOf(dashscopeProvider.submit(ctxFor(), retalk({ audio: { url: "https://x.example/a.mp3", durationMs: 121_000 } })))).failure).toBe(
      "too_long",
    );
    expect(fake.requests.length).toBe(before);
    await expectSubmitRefusals(dashscopeProvider, fake, ctxFor, retalk(), [
      ["no_face", "no_face"],
      ["too_long", "too_long"],
    ]);
    await expectLateFailures(dashscopeProvider, fake, ctxFor, retalk(), "FAILED");
  });

  it("an expired result link answers 403; a wrong key is auth", async () => {
    expect(await expiredLinkStatus(dashscopeProvider, fake, ctxFor, retalk())).toBe(403);
    fake.behave({});
    expect((await refusalOf(dashscopeProvider.submit(ctxFor({ secret: "sk-wrong" }), retalk()))).failure).toBe("auth");
  });
});

describe("DashScope CosyVoice voice enrollment", () => {
  it("creates the voice for the model under the job's prefix, and answers its id once the voice is OK", async () => {
    const ctx = ctxFor();
    const { taskId } = await dashscopeProvider.submit(ctx, clone());
    const create = fake.requests.filter((r) => r.path === "/api/v1/services/audio/tts/customization").at(-1)!;
    expect(create.body).toEqual({
      model: "voice-enrollment",
      input: {
        action: "create_voice",
        target_model: "cosyvoice-v2",
        prefix: voicePrefixOf(ctx.jobId),
        url: "https://zelin.example/files/media/a/voices/s.wav",
      },
    });
    expect(taskId).toMatch(/^cosyvoice-v2-z[a-z0-9]{8}-/);
    const { final, seen } = await pollToEnd(dashscopeProvider, ctx, taskId, clone());
    expect(seen[0]).toEqual({ state: "running", providerState: "DEPLOYING" });
    expect(final).toEqual({ state: "succeeded", outputs: [], result: { voiceId: taskId }, providerState: "OK" });
    // Submitted again after a lost answer: the voice under the job's prefix is adopted, not made twice.
    expect((await dashscopeProvider.submit(ctx, clone())).taskId).toBe(taskId);
    expect([...fake.voices.values()].filter((v) => v.prefix === voicePrefixOf(ctx.jobId))).toHaveLength(1);
  });

  it("a refused recording ends UNDEPLOYED; too long, a rate limit and a wrong key are theirs", async () => {
    fake.behave({ outcome: "failed" });
    const ctx = ctxFor();
    const { taskId } = await dashscopeProvider.submit(ctx, clone());
    expect((await pollToEnd(dashscopeProvider, ctx, taskId, clone())).final).toMatchObject({
      state: "failed",
      failure: "bad_request",
      providerState: "UNDEPLOYED",
    });
    fake.behave({ submitError: "too_long" });
    expect((await refusalOf(dashscopeProvider.submit(ctxFor(), clone()))).failure).toBe("too_long");
    fake.behave({ submitError: "rate_limited" });
    expect((await refusalOf(dashscopeProvider.submit(ctxFor(), clone()))).failure).toBe("rate_limited");
    fake.behave({});
    expect((await refusalOf(dashscopeProvider.submit(ctxFor({ secret: "sk-wrong" }), clone()))).failure).toBe("auth");
    expect(dashscopeProvider.kinds).toEqual(expect.arrayContaining(["lipsync", "voice_clone"]));
    expect(dashscopeProvider.kinds).not.toContain("avatar_training");
  });
});
