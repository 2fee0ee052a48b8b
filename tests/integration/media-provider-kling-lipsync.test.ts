// Kling's lip-sync against the loopback Kling (tests/fakes/fake-kling.ts): audio2video with both
// files by URL, the task read back on its own path, and the failures a digital human must tell
// apart (no person in the clip, too long), besides a late failure, an expired link and a bad key.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { klingProvider } from "../../server/media/providers/kling";
import type { TLipsyncRequest } from "../../server/media/providers/provider";
import { startFakeKling, type TFakeKling } from "../fakes/fake-kling";
import { contextsFor, expectLateFailures, expectSubmitRefusals, expiredLinkStatus, pollToEnd, refusalOf } from "../helpers/provider-calls";

let fake: TFakeKling;
const ctxFor = contextsFor(() => ({ baseUrl: fake.url, secret: fake.secret }));
const lipsync = (over: Partial<TLipsyncRequest> = {}): TLipsyncRequest => ({
  kind: "lipsync",
  model: "kling-lipsync",
  video: { url: "https://zelin.example/files/media/a/digital/clip.mp4", durationMs: 8_000 },
  audio: { url: "https://zelin.example/files/media/a/digital/speech.mp3", durationMs: 6_000 },
  ...over,
});

beforeAll(async () => {
  fake = await startFakeKling();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.behave({}));

describe("Kling lip-sync", () => {
  it("sends audio2video with both links and the callback, then reads the clip from /v1/videos/lip-sync/{id}", async () => {
    const ctx = ctxFor({ callbackUrl: "https://zelin.example/api/v1/media/callbacks/tok" });
    const { taskId } = await klingProvider.submit(ctx, lipsync());
    const sent = fake.requests.filter((r) => r.method === "POST").at(-1)!;
    expect(sent.path).toBe("/v1/videos/lip-sync");
    expect(sent.body).toEqual({
      input: {
        video_url: "https://zelin.example/files/media/a/digital/clip.mp4",
        mode: "audio2video",
        audio_type: "url",
        audio_url: "https://zelin.example/files/media/a/digital/speech.mp3",
      },
      callback_url: "https://zelin.example/api/v1/media/callbacks/tok",
    });
    const { final, seen } = await pollToEnd(klingProvider, ctx, taskId, lipsync());
    expect(seen.map((s) => s.state)).toEqual(["queued", "running", "succeeded"]);
    expect(fake.requests.at(-1)!.path).toBe(`/v1/videos/lip-sync/${taskId}`);
    if (final.state !== "succeeded" || !("url" in final.outputs[0])) throw new Error("expected a link");
    expect(final.outputs[0].mime).toBe("video/mp4");
    expect((await fetch(final.outputs[0].url)).status).toBe(200);
    expect(klingProvider.kinds).toContain("lipsync");
  });

  it("a clip longer than Kling takes is too_long before any call; Kling's own refusals are no_face and too_long", async () => {
    const before = fake.requests.length;
    expect((await refusalOf(klingProvider.submit(ctxFor(), lipsync({ video: { url: "https://x.example/c.mp4", durationMs: 30_000 } })))).failure).toBe(
      "too_long",
    );
    expect(fake.requests.length).toBe(before);
    await expectSubmitRefusals(klingProvider, fake, ctxFor, lipsync(), [
      ["no_face", "no_face"],
      ["too_long", "too_long"],
    ]);
  });

  it("failing late: no person found, too long, Kling's own fault", async () => {
    await expectLateFailures(klingProvider, fake, ctxFor, lipsync(), "failed");
  });

  it("an expired result link answers 403; a wrong key is auth", async () => {
    expect(await expiredLinkStatus(klingProvider, fake, ctxFor, lipsync())).toBe(403);
    fake.behave({});
    expect((await refusalOf(klingProvider.submit(ctxFor({ secret: `${fake.accessKey}:wrong-secret` }), lipsync()))).failure).toBe("auth");
  });
});
