// The HeyGen adapter against a loopback HeyGen (tests/fakes/fake-heygen.ts) that checks the API key,
// the bodies and answers in HeyGen's envelopes: an avatar's lip-sync on green, an avatar's
// training, and each failure in our words.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { probeMediaChannel } from "../../server/media/channel-probe";
import { HEYGEN_BACKGROUND, heygenProvider } from "../../server/media/providers/heygen";
import type { TAvatarTrainingRequest, TLipsyncRequest } from "../../server/media/providers/provider";
import { startFakeHeygen, type TFakeHeygen } from "../fakes/fake-heygen";
import { contextsFor, expectLateFailures, expectSubmitRefusals, expiredLinkStatus, pollToEnd, refusalOf } from "../helpers/provider-calls";

let fake: TFakeHeygen;
const ctxFor = contextsFor(() => ({ baseUrl: fake.url, secret: fake.apiKey }));
const lipsync = (over: Partial<TLipsyncRequest> = {}): TLipsyncRequest => ({
  kind: "lipsync",
  model: "heygen-v2",
  video: { url: "https://zelin.example/files/media/a/digital/clip.mp4", durationMs: 12_000 },
  audio: { url: "https://zelin.example/files/media/a/digital/speech.mp3", durationMs: 7_000 },
  avatarId: "preset_avatar_0001",
  ...over,
});
const training = (): TAvatarTrainingRequest => ({
  kind: "avatar_training",
  model: "heygen-v2",
  name: "Ada",
  footage: { url: "https://zelin.example/files/media/a/figures/ada.mp4" },
  consent: { url: "https://zelin.example/files/media/a/figures/ada-consent.mp4" },
});

beforeAll(async () => {
  fake = await startFakeHeygen();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.behave({}));

describe("HeyGen lip-sync", () => {
  it("asks for the figure's avatar voiced by our audio on pure green, and reads pending → processing → completed into the clip", async () => {
    const ctx = ctxFor();
    const { taskId } = await heygenProvider.submit(ctx, lipsync());
    const sent = fake.requests.find((r) => r.path === "/v2/video/generate")!;
    expect(sent.headers["x-api-key"]).toBe(fake.apiKey);
    expect(sent.body).toEqual({
      video_inputs: [
        {
          character: { type: "avatar", avatar_id: "preset_avatar_0001", avatar_style: "normal" },
          voice: { type: "audio", audio_url: "https://zelin.example/files/media/a/digital/speech.mp3" },
          background: { type: "color", value: HEYGEN_BACKGROUND },
        },
      ],
      callback_id: ctx.jobId,
    });
    const { final, seen } = await pollToEnd(heygenProvider, ctx, taskId, lipsync());
    expect(seen.map((s) => [s.state, s.providerState])).toEqual([
      ["queued", "pending"],
      ["running", "processing"],
      ["succeeded", "completed"],
    ]);
    if (final.state !== "succeeded" || !("url" in final.outputs[0])) throw new Error("expected a link");
    const res = await fetch(final.outputs[0].url);
    expect(res.status).toBe(200);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(4, 8)
        .toString("latin1"),
    ).toBe("ftyp");
  });

  it("refuses a lip-sync without an avatar before calling HeyGen: it cannot re-time our clip", async () => {
    const before = fake.requests.length;
    const err = await refusalOf(heygenProvider.submit(ctxFor(), lipsync({ avatarId: undefined })));
    expect(err.failure).toBe("bad_request");
    expect(fake.requests.length).toBe(before);
    expect(heygenProvider.lipsyncNeedsAvatar).toBe(true);
  });

  it("no face found, too long, a late failure, an expired link", async () => {
    await expectSubmitRefusals(heygenProvider, fake, ctxFor, lipsync(), [
      ["no_face", "no_face"],
      ["too_long", "too_long"],
    ]);

    await expectLateFailures(heygenProvider, fake, ctxFor, lipsync(), "failed");

    expect(await expiredLinkStatus(heygenProvider, fake, ctxFor, lipsync())).toBe(404);
  });

  it("a wrong key is auth (at submit, and as a failed poll); a rate limit and a spent balance are theirs", async () => {
    expect((await refusalOf(heygenProvider.submit(ctxFor({ secret: "wrong" }), lipsync()))).failure).toBe("auth");
    const ctx = ctxFor();
    const { taskId } = await heygenProvider.submit(ctx, lipsync());
    expect(await heygenProvider.poll({ ...ctx, secret: "wrong" }, taskId, lipsync())).toMatchObject({ state: "failed", failure: "auth" });
    fake.behave({ submitError: "rate_limited" });
    const limited = await refusalOf(heygenProvider.submit(ctxFor(), lipsync()));
    expect([limited.failure, limited.retryAfterMs]).toEqual(["rate_limited", 1000]);
    await expectSubmitRefusals(heygenProvider, fake, ctxFor, lipsync(), [["balance", "balance"]]);
  });
});

describe("HeyGen avatar training", () => {
  it("sends the footage (and it as the consent clip), polls in_progress → completed and answers the avatar's id", async () => {
    const ctx = ctxFor();
    const { taskId } = await heygenProvider.submit(ctx, training());
    const sent = fake.requests.find((r) => r.path === "/v2/video_avatar")!;
    expect(sent.body).toEqual({
      training_footage_url: "https://zelin.example/files/media/a/figures/ada.mp4",
      video_consent_url: "https://zelin.example/files/media/a/figures/ada-consent.mp4",
      avatar_name: "Ada",
      callback_id: ctx.jobId,
    });
    const { final } = await pollToEnd(heygenProvider, ctx, taskId, training());
    expect(final).toEqual({ state: "succeeded", outputs: [], result: { avatarId: taskId }, providerState: "completed" });
    // The trained avatar now lip-syncs.
    expect(fake.avatars.has(taskId)).toBe(true);
    expect((await heygenProvider.submit(ctxFor(), lipsync({ avatarId: taskId }))).taskId).toBeTruthy();
  });

  it("a training that finds no face fails as no_face", async () => {
    fake.behave({ outcome: "no_face" });
    const ctx = ctxFor();
    const { taskId } = await heygenProvider.submit(ctx, training());
    expect((await pollToEnd(heygenProvider, ctx, taskId, training())).final).toMatchObject({ state: "failed", failure: "no_face" });
  });

  it("makes nothing else, and the channel test asks for the quota", async () => {
    expect(heygenProvider.kinds).toEqual(["lipsync", "avatar_training"]);
    expect((await refusalOf(heygenProvider.submit(ctxFor(), { kind: "speech", model: "x", text: "hi", voice: "v", format: "mp3" }))).failure).toBe(
      "bad_request",
    );
    expect(await probeMediaChannel({ type: "heygen", baseUrl: fake.url, secret: fake.apiKey, guarded: false })).toEqual({ ok: true });
    expect(await probeMediaChannel({ type: "heygen", baseUrl: fake.url, secret: "wrong", guarded: false })).toMatchObject({ ok: false, keyRefused: true });
  });
});
