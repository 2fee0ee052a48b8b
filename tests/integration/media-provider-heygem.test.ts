// The HeyGem (Duix.Avatar) adapter against a loopback face2face service (tests/fakes/fake-heygem.ts):
// the submission under our job's code, progress, the result path on the same server, each failure
// in our words, and a proxy's bearer token.
import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { probeMediaChannel } from "../../server/media/channel-probe";
import { heygemProvider } from "../../server/media/providers/heygem";
import { providerMakes } from "../../server/media/providers";
import { ProviderError, type TLipsyncRequest, type TProviderContext, type TProviderStatus } from "../../server/media/providers/provider";
import { startFakeHeygem, type TFakeHeygem } from "../fakes/fake-heygem";

let fake: TFakeHeygem;
let guarded: TFakeHeygem;
const ctxFor = (over: Partial<TProviderContext> = {}): TProviderContext => ({
  baseUrl: fake.url,
  secret: "",
  fetch: (url, init) => fetch(url, init),
  jobId: `mj${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`,
  ...over,
});
const lipsync = (): TLipsyncRequest => ({
  kind: "lipsync",
  model: "heygem",
  video: { url: "https://zelin.example/files/media/a/digital/clip.mp4", durationMs: 30_000 },
  audio: { url: "https://zelin.example/files/media/a/digital/speech.wav", durationMs: 9_000 },
});

async function pollToEnd(ctx: TProviderContext, taskId: string) {
  const seen: TProviderStatus[] = [];
  for (let i = 0; i < 10; i++) {
    const status = await heygemProvider.poll(ctx, taskId, lipsync());
    seen.push(status);
    if (status.state !== "queued" && status.state !== "running") return { final: status, seen };
  }
  throw new Error("the task never finished");
}

async function refusalOf(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

beforeAll(async () => {
  fake = await startFakeHeygem();
  guarded = await startFakeHeygem({ token: "proxy-token-1" });
});
afterAll(async () => {
  await fake.close();
  await guarded.close();
});
beforeEach(() => fake.behave({}));

describe("HeyGem lip-sync", () => {
  it("submits both links under the job's code, reads progress, and finds the clip on the same server", async () => {
    const ctx = ctxFor();
    const { taskId } = await heygemProvider.submit(ctx, lipsync());
    expect(taskId).toBe(ctx.jobId);
    expect(fake.requests.find((r) => r.path === "/easy/submit")!.body).toEqual({
      audio_url: "https://zelin.example/files/media/a/digital/speech.wav",
      video_url: "https://zelin.example/files/media/a/digital/clip.mp4",
      code: ctx.jobId,
      chaofen: 0,
      watermark_switch: 0,
      pn: 1,
    });
    fake.behave({});
    const { final, seen } = await pollToEnd(ctx, taskId);
    expect(seen[0]).toMatchObject({ state: "running", progress: 50, providerState: "1" });
    expect(final).toEqual({ state: "succeeded", outputs: [{ url: `${fake.url}/temp/${ctx.jobId}-r.mp4`, mime: "video/mp4" }], providerState: "2" });
    const res = await fetch((final as { outputs: { url: string }[] }).outputs[0].url);
    expect(res.status).toBe(200);
  });

  it("a resubmission after a lost answer adopts the task already under the job's code", async () => {
    const ctx = ctxFor();
    await heygemProvider.submit(ctx, lipsync());
    expect((await heygemProvider.submit(ctx, lipsync())).taskId).toBe(ctx.jobId);
    expect(fake.tasks.size).toBeGreaterThan(0);
  });

  it("no face found, too long, failing late, a busy server, an unknown task, an expired result", async () => {
    fake.behave({ submitError: "no_face" });
    expect((await refusalOf(heygemProvider.submit(ctxFor(), lipsync()))).failure).toBe("no_face");
    fake.behave({ submitError: "too_long" });
    expect((await refusalOf(heygemProvider.submit(ctxFor(), lipsync()))).failure).toBe("too_long");
    fake.behave({ submitError: "busy" });
    expect((await refusalOf(heygemProvider.submit(ctxFor(), lipsync()))).failure).toBe("upstream");
    fake.behave({ submitError: "rate_limited" });
    expect((await refusalOf(heygemProvider.submit(ctxFor(), lipsync()))).failure).toBe("rate_limited");

    for (const [outcome, failure] of [
      ["no_face", "no_face"],
      ["too_long", "too_long"],
      ["failed", "upstream"],
    ] as const) {
      fake.behave({ outcome });
      const ctx = ctxFor();
      const { taskId } = await heygemProvider.submit(ctx, lipsync());
      expect((await pollToEnd(ctx, taskId)).final).toMatchObject({ state: "failed", failure, providerState: "3" });
    }
    expect(await heygemProvider.poll(ctxFor(), "never-made", lipsync())).toMatchObject({ state: "failed", failure: "upstream", providerState: "10004" });

    fake.behave({ expiredLinks: true });
    const ctx = ctxFor();
    const { taskId } = await heygemProvider.submit(ctx, lipsync());
    const { final } = await pollToEnd(ctx, taskId);
    expect((await fetch((final as { outputs: { url: string }[] }).outputs[0].url)).status).toBe(404);
  });

  it("behind a proxy: the key goes as a bearer token; a wrong or missing one is auth", async () => {
    const ok = ctxFor({ baseUrl: guarded.url, secret: "proxy-token-1" });
    const { taskId } = await heygemProvider.submit(ok, lipsync());
    expect(guarded.requests.at(-1)!.headers.authorization).toBe("Bearer proxy-token-1");
    expect(await heygemProvider.poll({ ...ok, secret: "wrong" }, taskId, lipsync())).toMatchObject({ state: "failed", failure: "auth" });
    expect((await refusalOf(heygemProvider.submit(ctxFor({ baseUrl: guarded.url }), lipsync()))).failure).toBe("auth");
    expect(await probeMediaChannel({ type: "heygem", baseUrl: guarded.url, secret: "proxy-token-1", guarded: false })).toEqual({ ok: true });
    expect(await probeMediaChannel({ type: "heygem", baseUrl: guarded.url, secret: "", guarded: false })).toMatchObject({ ok: false, keyRefused: true });
  });

  it("trains nothing: a figure needs no avatar to be lip-synced here", () => {
    expect(providerMakes("heygem", "lipsync")).toBe(true);
    expect(providerMakes("heygem", "avatar_training")).toBe(false);
    expect(heygemProvider.lipsyncNeedsAvatar).toBeFalsy();
  });
});
