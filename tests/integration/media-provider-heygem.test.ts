// The HeyGem (Duix.Avatar) adapter against a loopback face2face service (tests/fakes/fake-heygem.ts):
// the submission under our job's code, progress, the result path on the same server, each failure
// in our words, and a proxy's bearer token.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { probeMediaChannel } from "../../server/media/channel-probe";
import { heygemProvider } from "../../server/media/providers/heygem";
import { providerMakes } from "../../server/media/providers";
import type { TLipsyncRequest } from "../../server/media/providers/provider";
import { startFakeHeygem, type TFakeHeygem } from "../fakes/fake-heygem";
import { contextsFor, expectLateFailures, expectSubmitRefusals, expiredLinkStatus, pollToEnd, refusalOf } from "../helpers/provider-calls";

let fake: TFakeHeygem;
let guarded: TFakeHeygem;
const ctxFor = contextsFor(() => ({ baseUrl: fake.url, secret: "" }));
const lipsync = (): TLipsyncRequest => ({
  kind: "lipsync",
  model: "heygem",
  video: { url: "https://zelin.example/files/media/a/digital/clip.mp4", durationMs: 30_000 },
  audio: { url: "https://zelin.example/files/media/a/digital/speech.wav", durationMs: 9_000 },
});

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
    const { final, seen } = await pollToEnd(heygemProvider, ctx, taskId, lipsync());
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
    await expectSubmitRefusals(heygemProvider, fake, ctxFor, lipsync(), [
      ["no_face", "no_face"],
      ["too_long", "too_long"],
      ["busy", "upstream"],
      ["rate_limited", "rate_limited"],
    ]);

    await expectLateFailures(heygemProvider, fake, ctxFor, lipsync(), "3");
    expect(await heygemProvider.poll(ctxFor(), "never-made", lipsync())).toMatchObject({ state: "failed", failure: "upstream", providerState: "10004" });

    expect(await expiredLinkStatus(heygemProvider, fake, ctxFor, lipsync())).toBe(404);
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
