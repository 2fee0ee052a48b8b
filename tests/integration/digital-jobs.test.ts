// Digital humans' jobs through the media pipeline's worker steps, against loopback providers:
// lip-sync (HeyGem for any clip, HeyGen for a trained avatar), avatar training (HeyGen) and voice
// cloning (DashScope CosyVoice). One hold at submit, one charge or release at the end, the clip
// kept without a library item, a training's result reaching the hooks, refusals that write nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { AVATAR_TRAINING_PRICE_MICRO, priceLipsync } from "../../server/digital/digital.schema";
import { resetEnvCache } from "../../server/env";
import { mapError } from "../../server/errors/map-error";
import { sealSecret } from "../../server/lib/secret-box";
import { dropSingleton } from "../../server/lib/singleton";
import { submitAvatarTraining, submitLipsyncJob, submitVoiceClone } from "../../server/media/digital-jobs.service";
import { clearJobEndHooks, onMediaJobEnded, type TEndedJob } from "../../server/media/job-finish-hooks";
import { handleMediaDispatch, handleMediaPoll } from "../../server/media/media-job-runner";
import { getFileStore } from "../../server/uploads/file-store";
import { startFakeDashscope } from "../fakes/fake-dashscope";
import { startFakeHeygem, type TFakeHeygem } from "../fakes/fake-heygem";
import { startFakeHeygen, type TFakeHeygen } from "../fakes/fake-heygen";
import { balanceOf, jobPostings, jobRow, makeMediaUser, refusalIn, runJobToEnd } from "../helpers/media-jobs";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-digital-jobs-"));
const run = Date.now().toString(36);
let heygem: TFakeHeygem;
let heygen: TFakeHeygen;
let dashscope: Awaited<ReturnType<typeof startFakeDashscope>>;
let disabled: string[] = [];
const ended: TEndedJob[] = [];
let hookFails = false;
const FIVE_SECONDS = priceLipsync(5_000);

async function addModel(kind: "lipsync" | "voice", upstream: string, type: string, baseUrl: string, secret: string) {
  const key = `${upstream}-${run}-${type}`;
  await getDb().model.create({ data: { key, displayName: key.slice(0, 8), kind, upstreamModel: upstream } });
  await getDb().channel.create({ data: { name: key, type: type as never, baseUrl, keyEncrypted: sealSecret(secret), keyHint: "…", models: [key] } });
  return key;
}

const lipsyncOf = (ownerAccountId: string, over: Partial<Parameters<typeof submitLipsyncJob>[0]> = {}) =>
  submitLipsyncJob({
    ownerAccountId,
    videoKey: `media/${ownerAccountId}/figures/loop.mp4`,
    audioKey: `media/${ownerAccountId}/digital/speech.mp3`,
    audioDurationMs: 5_000,
    origin: "digital_video",
    originRef: "dv_test",
    ...over,
  });

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  process.env.MEDIA_POLL_BASE_MS = "100";
  process.env.MEDIA_JOBS_PER_ACCOUNT = "1";
  process.env.PUBLIC_URL = "https://zelin.example";
  resetEnvCache();
  dropSingleton("file-store");
  // Other files' lip-sync and voice models (their fakes long gone) must not be chosen here.
  const others = await getDb().model.findMany({ where: { enabled: true, kind: { in: ["lipsync", "voice"] } }, select: { id: true } });
  disabled = others.map((m) => m.id);
  await getDb().model.updateMany({ where: { id: { in: disabled } }, data: { enabled: false } });
  [heygem, heygen, dashscope] = await Promise.all([startFakeHeygem(), startFakeHeygen(), startFakeDashscope()]);
  onMediaJobEnded(["lipsync", "avatar_training", "voice_clone"], async (job) => {
    if (hookFails) throw new Error("the hook refused");
    ended.push(job);
  });
});

afterAll(async () => {
  clearJobEndHooks();
  await getDb().model.updateMany({ where: { id: { in: disabled } }, data: { enabled: true } });
  delete process.env.PUBLIC_URL;
  process.env.MEDIA_JOBS_PER_ACCOUNT = "2";
  resetEnvCache();
  await Promise.all([heygem?.close(), heygen?.close(), dashscope?.close()]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  heygem.behave({});
  heygen.behave({});
  dashscope.behave({});
  hookFails = false;
  await getDb().mediaJob.updateMany({ where: { state: { in: ["queued", "generating", "background"] } }, data: { state: "failed", errorCode: "test_cleared" } });
});

describe("with no provider for the kind", () => {
  it("refuses each submission in the user's words, writing no job and taking no coin", async () => {
    const user = await makeMediaUser(300_000_000);
    const before = await balanceOf(user.id);
    expect((await refusalIn(lipsyncOf(user.id))).code).toBe("media_model_unavailable");
    const training = await refusalIn(
      submitAvatarTraining({ ownerAccountId: user.id, figureId: "fig_1", footageKey: "media/x/f.mp4", consentKey: "media/x/c.mp4", name: "Ada" }),
    );
    expect([training.code, training.envelope.description]).toEqual([
      "digital_training_unavailable",
      "No provider can train figures yet: an administrator adds one",
    ]);
    const clone = await refusalIn(submitVoiceClone({ ownerAccountId: user.id, voiceId: "v_1", sampleKey: "media/x/v.wav", name: "Me", priceMicro: 5_000_000 }));
    expect(clone.code).toBe("digital_voice_clone_unavailable");
    expect(await getDb().mediaJob.count({ where: { ownerAccountId: user.id } })).toBe(0);
    expect(await balanceOf(user.id)).toBe(before);
  });
});

describe("with providers", () => {
  let heygemModel: string;
  let heygenModel: string;
  beforeAll(async () => {
    heygemModel = await addModel("lipsync", "heygem", "heygem", heygem.url, "");
    heygenModel = await addModel("lipsync", "heygen-v2", "heygen", heygen.url, heygen.apiKey);
    await addModel("voice", "cosyvoice-v2", "dashscope", dashscope.url, dashscope.apiKey);
  });

  it("lip-syncs a clip: one hold and one charge of the 5-second price, the clip kept under digital/ with no library item", async () => {
    const user = await makeMediaUser();
    const before = await balanceOf(user.id);
    const { jobId, holdMicro } = await lipsyncOf(user.id);
    expect(holdMicro).toBe(FIVE_SECONDS);
    expect(await balanceOf(user.id)).toBe(before - FIVE_SECONDS);
    const row = await runJobToEnd(jobId);
    expect([row.state, row.modelKey, row.provider, Number(row.chargedMicro)]).toEqual(["done", heygemModel, "heygem", FIVE_SECONDS]);
    expect(heygem.tasks.get(jobId)!.body).toMatchObject({
      video_url: `https://zelin.example/files/media/${user.id}/figures/loop.mp4`,
      audio_url: `https://zelin.example/files/media/${user.id}/digital/speech.mp3`,
    });
    const [output] = row.outputs as { fileKey: string; mime: string; mediaItemId: string | null }[];
    expect(output.fileKey.startsWith(`media/${user.id}/digital/`)).toBe(true);
    expect([output.mime, output.mediaItemId]).toEqual(["video/mp4", null]);
    expect(await getFileStore().get(output.fileKey)).toBeTruthy();
    expect(await getDb().mediaItem.count({ where: { jobId } })).toBe(0);
    expect((await jobPostings(jobId)).map((p) => p.kind)).toEqual(["media_hold", "media_charge"]);
    expect(await balanceOf(user.id)).toBe(before - FIVE_SECONDS);
    expect(ended.find((j) => j.id === jobId)).toMatchObject({ state: "done", kind: "lipsync", params: { videoId: "dv_test" }, result: null, errorCode: null });
  });

  it("a trained figure goes to the provider holding its avatar, and another account may pay", async () => {
    const [owner, payer] = [await makeMediaUser(), await makeMediaUser()];
    const [ownerBefore, payerBefore] = [await balanceOf(owner.id), await balanceOf(payer.id)];
    const avatar = { provider: "heygen", avatarId: "preset_avatar_0001" };
    const { jobId } = await lipsyncOf(owner.id, { payer: payer.id, avatar, origin: "app", originRef: null, appId: null });
    const row = await runJobToEnd(jobId);
    expect([row.state, row.modelKey, row.provider]).toEqual(["done", heygenModel, "heygen"]);
    const sent = heygen.requests.find((r) => r.path === "/v2/video/generate" && r.body.callback_id === jobId)!;
    expect(sent.body.video_inputs[0].character.avatar_id).toBe("preset_avatar_0001");
    expect(await balanceOf(owner.id)).toBe(ownerBefore);
    expect(await balanceOf(payer.id)).toBe(payerBefore - FIVE_SECONDS);
  });

  it("a failure releases the hold and reaches the hooks with the catalogue's code", async () => {
    const user = await makeMediaUser();
    const before = await balanceOf(user.id);
    heygem.behave({ outcome: "no_face" });
    const { jobId } = await lipsyncOf(user.id, { audioDurationMs: 12_000 });
    const row = await runJobToEnd(jobId);
    expect([row.state, row.errorCode, Number(row.chargedMicro)]).toEqual(["failed", "digital_no_face", 0]);
    expect(mapError(new (await import("../../server/errors/app-error")).AppError("digital_no_face"), "en").envelope.description).toBe(
      "No face was found in the figure's video",
    );
    expect((await jobPostings(jobId)).map((p) => p.kind)).toEqual(["media_hold", "media_release"]);
    expect(await balanceOf(user.id)).toBe(before);
    expect(ended.find((j) => j.id === jobId)).toMatchObject({ state: "failed", errorCode: "digital_no_face", outputs: [] });
  });

  it("a payer who cannot pay is refused with nothing written", async () => {
    const poor = await makeMediaUser(0);
    expect((await refusalIn(lipsyncOf(poor.id))).code).toBe("balance_insufficient");
    expect(await getDb().mediaJob.count({ where: { ownerAccountId: poor.id } })).toBe(0);
  });

  it("a hook that fails leaves the job running and uncharged; the next poll ends it", async () => {
    const user = await makeMediaUser();
    const { jobId } = await lipsyncOf(user.id);
    hookFails = true;
    const stuck = await runJobToEnd(jobId, 3);
    expect([stuck.state, Number(stuck.chargedMicro)]).toEqual(["generating", 0]);
    expect((await jobPostings(jobId)).map((p) => p.kind)).toEqual(["media_hold"]);
    hookFails = false;
    await handleMediaPoll({ jobId });
    expect((await jobRow(jobId)).state).toBe("done");
  });

  it("an avatar training ends with the avatar's id for the hook, charged once, storing no file", async () => {
    const user = await makeMediaUser(300_000_000);
    const before = await balanceOf(user.id);
    const { jobId, holdMicro } = await submitAvatarTraining({
      ownerAccountId: user.id,
      figureId: "fig_ada",
      footageKey: `media/${user.id}/figures/ada.mp4`,
      consentKey: `media/${user.id}/figures/ada-consent.mp4`,
      name: "Ada",
    });
    expect(holdMicro).toBe(AVATAR_TRAINING_PRICE_MICRO);
    const row = await runJobToEnd(jobId);
    const sent = [...heygen.jobs.values()].find((j) => j.body.callback_id === jobId)!;
    // HeyGen is given the person's consent clip beside the footage.
    expect(String(sent.body.video_consent_url)).toMatch(new RegExp(`/files/media/${user.id}/figures/ada-consent\\.mp4$`));
    const avatarId = sent.id;
    const result = { avatarId, provider: "heygen", modelKey: heygenModel };
    expect([row.state, row.outputs, (row.params as { result?: unknown }).result]).toEqual(["done", [], result]);
    expect(ended.find((j) => j.id === jobId)).toMatchObject({ state: "done", kind: "avatar_training", result, params: { figureId: "fig_ada" } });
    expect(await balanceOf(user.id)).toBe(before - AVATAR_TRAINING_PRICE_MICRO);
  });

  it("a training takes no running place: a lip-sync starts beside it with one place per account", async () => {
    const user = await makeMediaUser(300_000_000);
    heygen.behave({ pollsUntilDone: 5 });
    const training = await submitAvatarTraining({
      ownerAccountId: user.id,
      figureId: "fig_bo",
      footageKey: `media/${user.id}/figures/bo.mp4`,
      consentKey: `media/${user.id}/figures/bo-consent.mp4`,
      name: "Bo",
    });
    await handleMediaDispatch();
    expect((await jobRow(training.jobId)).state).toBe("generating");
    const { jobId } = await lipsyncOf(user.id);
    await handleMediaDispatch();
    expect((await jobRow(jobId)).startedAt).not.toBeNull();
  });

  it("a voice clone ends with the voice's id on the model that speaks it; a free one holds nothing", async () => {
    const user = await makeMediaUser();
    const before = await balanceOf(user.id);
    const { jobId, holdMicro } = await submitVoiceClone({
      ownerAccountId: user.id,
      voiceId: "voice_1",
      sampleKey: `media/${user.id}/voices/s.wav`,
      name: "Me",
      priceMicro: 5_000_000,
    });
    expect(holdMicro).toBe(5_000_000);
    const row = await runJobToEnd(jobId);
    const voice = [...dashscope.voices.values()].find((v) => v.url === `https://zelin.example/files/media/${user.id}/voices/s.wav`)!;
    expect(row.state).toBe("done");
    expect(ended.find((j) => j.id === jobId)).toMatchObject({
      result: { voiceId: voice.voiceId, provider: "dashscope", modelKey: row.modelKey },
      params: { voiceId: "voice_1" },
    });
    expect(await balanceOf(user.id)).toBe(before - 5_000_000);

    const free = await submitVoiceClone({
      ownerAccountId: user.id,
      voiceId: "voice_2",
      sampleKey: `media/${user.id}/voices/t.wav`,
      name: "Me too",
      priceMicro: 0,
    });
    expect((await runJobToEnd(free.jobId)).state).toBe("done");
    expect(await jobPostings(free.jobId)).toEqual([]);
  });
});
