// Personal voices end to end on the real services: recordings uploaded through the REST route
// (refusals write nothing: no row, no file, no coin), voice packages bought from the balance (gift
// credit first, one package per request, nothing written when the balance is short), the check job
// "digital.voice-measure" run with the worker's real file tools (ffmpeg) on generated tones, a clone
// through the loopback DashScope, and the clone's end reaching the voice through its job-end hook.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { withTransaction } from "../../server/db/transaction";
import { VOICE_CUSTOM_PRICE_MICRO, VOICE_PACKAGE } from "../../server/digital/digital.schema";
import { buyVoicePackage, listVoicePackages } from "../../server/digital/voice-packages.service";
import { applyVoiceCloneEnd, handleVoiceMeasure, registerVoiceHooks } from "../../server/digital/voice-training.service";
import * as voices from "../../server/digital/voices.service";
import { resetEnvCache } from "../../server/env";
import { getQueue } from "../../server/jobs/queue";
import { setFileWork } from "../../server/media/file-work";
import { clearJobEndHooks } from "../../server/media/job-finish-hooks";
import { getWallet } from "../../server/money/ledger.service";
import { createFileWork } from "../../workers/media";
import { Browser } from "../helpers/api-client";
import { startFakeDashscope } from "../fakes/fake-dashscope";
import { addMediaModel, jobPostings, runMediaWorkerSteps } from "../helpers/media-jobs";
import { fundAccount } from "../helpers/money";
import { makePng } from "../helpers/png";
import { useApiWithTempFiles } from "../helpers/temp-files-api";
import { makeToneWav } from "../helpers/voice-samples";

const run = crypto.randomBytes(3).toString("hex");
const server = useApiWithTempFiles("zl-voices-");
let n = 0;

/** Voice models other files left enabled that could clone: off while this file runs, so "no provider clones" holds. */
let cloners: string[] = [];
beforeAll(async () => {
  setFileWork(createFileWork());
  registerVoiceHooks();
  const found = await getDb().model.findMany({ where: { kind: "voice", enabled: true, upstreamModel: { startsWith: "cosyvoice-v" } }, select: { key: true } });
  cloners = found.map((m) => m.key);
  await getDb().model.updateMany({ where: { key: { in: cloners } }, data: { enabled: false } });
});
afterAll(async () => {
  setFileWork(null);
  clearJobEndHooks();
  await getDb().model.updateMany({ where: { key: { in: cloners } }, data: { enabled: true } });
});

async function makeUser() {
  const row = await getDb().account.create({
    data: {
      account: `vc${run}${++n}`,
      nickname: `Voice ${n}`,
      roles: ["individual_developer"] as never,
      edition: "professional",
      editionExpiresAt: new Date(Date.now() + 30 * 86_400_000),
    },
    select: { id: true },
  });
  const { token } = await startSession(row.id);
  const browser = new Browser(server.base, `10.9.${n}.1`);
  browser.cookies.set("zl_session", token);
  return { id: row.id, browser };
}
type TUser = Awaited<ReturnType<typeof makeUser>>;

const TONE_60 = makeToneWav({ seconds: 60, peakDbfs: -20 });
const upload = (user: TUser, bytes: Uint8Array, o: { kind?: string; name?: string; filename?: string; type?: string } = {}) =>
  user.browser.upload("/api/v1/digital/voices", {
    fields: { name: o.name ?? "My voice", sample_kind: o.kind ?? "personal", source: "uploaded" },
    files: { file: { bytes, filename: o.filename ?? "voice.wav", type: o.type ?? "audio/wav" } },
  });
const voiceFiles = (accountId: string) => {
  const dir = path.join(server.dataDir, "files", "media", accountId, "voices");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.endsWith(".meta.json")) : [];
};
const voiceRows = (accountId: string) => getDb().digitalVoice.findMany({ where: { ownerAccountId: accountId }, orderBy: { createdAt: "asc" } });

/** Nothing of the account's changed: no voice, no file, the same balance. */
async function expectNothingWritten(user: TUser, balance: number) {
  expect(await voiceRows(user.id)).toEqual([]);
  expect(voiceFiles(user.id)).toEqual([]);
  expect((await getWallet(user.id)).available).toBe(balance);
}

async function userWithPackage() {
  const user = await makeUser();
  await fundAccount(user.id, VOICE_PACKAGE.priceMicro, "spendable");
  await buyVoicePackage(user, { requestId: crypto.randomUUID() });
  return user;
}

/** Uploads a recording and runs its check job as the worker would. */
async function uploadAndMeasure(user: TUser, bytes: Uint8Array, kind = "personal") {
  const res = await upload(user, bytes, { kind });
  expect(res.body.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.data.id as string;
  const job = await getQueue("digital-files").getJob(`voice-measure-${id}-first`);
  expect(job?.name).toBe("digital.voice-measure");
  const outcome = await handleVoiceMeasure(job!.data);
  return { id, outcome, row: await getDb().digitalVoice.findUniqueOrThrow({ where: { id } }) };
}

describe("uploading a recording", () => {
  it("refuses a wrong format, a file too big, an empty file, a bad name and a missing package, writing nothing", async () => {
    const user = await makeUser();
    await fundAccount(user.id, 1_000_000);
    const forged = await user.browser.upload(
      "/api/v1/digital/voices",
      { fields: { name: "Forged", sample_kind: "custom" }, files: { file: { bytes: TONE_60, filename: "voice.wav", type: "audio/wav" } } },
      { csrf: null },
    );
    expect(forged.body.status).toBe(420114);
    const wrong = await upload(user, makePng(400, 400), { filename: "voice.mp3", type: "audio/mpeg" });
    expect(wrong.body.status).toBe(421703);
    const disguised = await upload(user, TONE_60, { filename: "voice.txt", type: "text/plain" });
    expect(disguised.body.status).toBe(421703);
    const big = await upload(user, Buffer.concat([TONE_60, Buffer.alloc(20 * 1024 * 1024)]));
    expect(big.body.status).toBe(420017);
    const empty = await upload(user, Buffer.alloc(0));
    expect(empty.body.status).toBe(420018);
    const unnamed = await upload(user, TONE_60, { name: " " });
    expect(unnamed.body.status).toBe(400001);
    const kindless = await upload(user, TONE_60, { kind: "famous" });
    expect(kindless.body.status).toBe(400001);
    const unpaid = await upload(user, TONE_60, { kind: "personal" });
    expect(unpaid.body).toMatchObject({ status: 420030, description: expect.any(String) });
    const zh = await user.browser.upload(
      "/api/v1/digital/voices",
      { fields: { name: "我的声音", sample_kind: "personal" }, files: { file: { bytes: TONE_60, filename: "voice.wav", type: "audio/wav" } } },
      { lang: "zh_hans" },
    );
    expect(zh.body.description).toBe("暂无个人声音套餐，请先购买");
    // A custom voice costs its price: 1 Z of gift credit is not enough.
    const poor = await upload(user, TONE_60, { kind: "custom" });
    expect(poor.body.status).toBe(420001);
    await expectNothingWritten(user, 1_000_000);
  });

  it("keeps a browser's WebM recording under the account's public voices folder, checking, its job queued", async () => {
    const user = await makeUser();
    await fundAccount(user.id, VOICE_CUSTOM_PRICE_MICRO);
    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]), Buffer.from("webm"), Buffer.alloc(400)]);
    const res = await upload(user, webm, { kind: "custom", filename: "recording.webm", type: "audio/webm;codecs=opus" });
    expect(res.body.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ state: "checking", sampleKind: "custom", problems: [], speakerId: `own:${res.body.data.id}` });
    expect(res.body.data.sampleUrl).toMatch(new RegExp(`^/files/media/${user.id}/voices/.+\\.webm$`));
    expect(voiceFiles(user.id)).toHaveLength(1);
    const file = await user.browser.fetchRaw(res.body.data.sampleUrl);
    expect([file.http, file.headers.get("content-type")]).toEqual([200, "audio/webm"]);
    // An unreadable recording: no sound to clone (on the job's last attempt).
    const outcome = await handleVoiceMeasure({ voiceId: res.body.data.id });
    expect(outcome).toBe("refused");
    expect((await voices.getDigitalVoice(user, { id: res.body.data.id })).problems).toEqual(["no_audio"]);
  });
});

describe("voice packages", () => {
  it("are bought gift credit first, once per request; a short balance buys nothing", async () => {
    const user = await makeUser();
    await fundAccount(user.id, VOICE_PACKAGE.priceMicro - 1);
    await expect(buyVoicePackage(user, { requestId: crypto.randomUUID() })).rejects.toMatchObject({ code: "balance_insufficient" });
    expect(await getDb().voicePackage.count({ where: { accountId: user.id } })).toBe(0);
    expect((await getWallet(user.id)).available).toBe(VOICE_PACKAGE.priceMicro - 1);

    await fundAccount(user.id, 10_000_000, "spendable");
    const requestId = crypto.randomUUID();
    const [a, b] = await Promise.all([buyVoicePackage(user, { requestId }), buyVoicePackage(user, { requestId })]);
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ slots: 1, usedSlots: 0, priceMicro: VOICE_PACKAGE.priceMicro, expired: false });
    expect(new Date(a.expiresAt).getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);
    const wallet = await getWallet(user.id);
    expect(wallet).toMatchObject({ gift: 0, spendable: 10_000_000 - 1 });
    expect(await listVoicePackages(user)).toMatchObject({ slotsLeft: 1, packages: [{ id: a.id }], offer: { priceMicro: VOICE_PACKAGE.priceMicro } });
  });
});

describe("checking and cloning a recording", () => {
  it("passes a 60 s tone at -20 dBFS; without a clone provider the voice fails training and its slot comes back", async () => {
    const user = await userWithPackage();
    const { id, outcome, row } = await uploadAndMeasure(user, TONE_60);
    expect(outcome).toBe("train_failed");
    expect(row).toMatchObject({ state: "train_failed", errorCode: "digital_voice_clone_unavailable", packageId: null });
    expect(row.durationMs).toBeGreaterThan(59_000);
    expect(row.loudnessLufs).toBeGreaterThan(-30);
    expect((await listVoicePackages(user)).slotsLeft).toBe(1);
    await expect(voices.retryDigitalVoice(user, { id })).rejects.toMatchObject({ code: "voice_retry_refused" });
  });

  it("refuses 20 s as too short for a personal voice and a near-silent one as too quiet; a checking recording holds the slot", async () => {
    const user = await userWithPackage();
    const res = await upload(user, makeToneWav({ seconds: 20, peakDbfs: -20 }));
    expect(res.body.status).toBe(200);
    // The one slot is held by the recording being checked.
    expect((await upload(user, TONE_60)).body.status).toBe(420030);
    await handleVoiceMeasure({ voiceId: res.body.data.id });
    const short = await voices.getDigitalVoice(user, { id: res.body.data.id });
    expect(short).toMatchObject({ state: "check_failed", problems: ["too_short"] });

    const quiet = await uploadAndMeasure(user, makeToneWav({ seconds: 60, peakDbfs: -60 }));
    expect(quiet.outcome).toBe("refused");
    expect((await voices.getDigitalVoice(user, { id: quiet.id })).problems).toEqual(["too_quiet"]);
    expect((await listVoicePackages(user)).slotsLeft).toBe(1);
  });

  it("a clone's end makes the voice ready with the provider's voice; a failure gives the slot back", async () => {
    const user = await userWithPackage();
    const ready = await makeTrainingVoice(user, "personal");
    await withTransaction((tx) =>
      applyVoiceCloneEnd(endedJob(user.id, ready, "done", { voiceId: "cosyvoice-v2-zelin-1", provider: "dashscope", modelKey: "cosyvoice-v2" }), tx),
    );
    expect(await getDb().digitalVoice.findUniqueOrThrow({ where: { id: ready.voiceId } })).toMatchObject({
      state: "ready",
      providerVoiceId: "cosyvoice-v2-zelin-1",
      provider: "dashscope",
      modelKey: "cosyvoice-v2",
    });
    expect(await voices.findReadyVoice(user.id, ready.voiceId)).toMatchObject({ providerVoiceId: "cosyvoice-v2-zelin-1" });

    await fundAccount(user.id, VOICE_PACKAGE.priceMicro, "spendable");
    await buyVoicePackage(user, { requestId: crypto.randomUUID() });
    const failed = await makeTrainingVoice(user, "personal");
    expect((await listVoicePackages(user)).slotsLeft).toBe(0);
    await withTransaction((tx) => applyVoiceCloneEnd({ ...endedJob(user.id, failed, "failed", null), errorCode: "generation_failed" }, tx));
    expect(await getDb().digitalVoice.findUniqueOrThrow({ where: { id: failed.voiceId } })).toMatchObject({
      state: "train_failed",
      errorCode: "generation_failed",
      packageId: null,
    });
    expect((await listVoicePackages(user)).slotsLeft).toBe(1);
  });
});

describe("my voices", () => {
  it("renames, lists, and removes (the recording goes); another account's voice is not found on every verb", async () => {
    const ada = await userWithPackage();
    const bob = await makeUser();
    const res = await upload(ada, TONE_60, { name: "Ada narrates" });
    const id = res.body.data.id as string;
    for (const call of [
      () => voices.getDigitalVoice(bob, { id }),
      () => voices.renameDigitalVoice(bob, { id, name: "mine" }),
      () => voices.removeDigitalVoice(bob, { id }),
      () => voices.retryDigitalVoice(bob, { id }),
    ])
      await expect(call()).rejects.toMatchObject({ code: "not_found" });
    expect((await voices.listDigitalVoices(bob)).mine).toEqual([]);

    expect((await voices.renameDigitalVoice(ada, { id, name: "Ada reads" })).name).toBe("Ada reads");
    expect((await voices.retryDigitalVoice(ada, { id })).state).toBe("checking");
    expect((await voices.listDigitalVoices(ada)).mine.map((v) => v.id)).toEqual([id]);
    await voices.removeDigitalVoice(ada, { id });
    expect(voiceFiles(ada.id)).toEqual([]);
    expect((await voices.listDigitalVoices(ada)).mine).toEqual([]);
    await expect(voices.getDigitalVoice(ada, { id })).rejects.toMatchObject({ code: "not_found" });
    // The check of a removed recording does nothing.
    expect(await handleVoiceMeasure({ voiceId: id })).toBe("gone");
  });
});

describe("cloning through DashScope's voice enrollment", () => {
  let fake: Awaited<ReturnType<typeof startFakeDashscope>>;
  let model: string;
  beforeAll(async () => {
    fake = await startFakeDashscope();
    // The provider fetches the recording from our public files.
    process.env.PUBLIC_URL = server.base;
    resetEnvCache();
    model = (await addMediaModel({ kind: "voice", upstream: "cosyvoice-v2", type: "dashscope", baseUrl: fake.url, secret: fake.apiKey, unitPriceMicro: 0 }))
      .key;
  });
  afterAll(async () => {
    await getDb().model.updateMany({ where: { key: model }, data: { enabled: false } });
    delete process.env.PUBLIC_URL;
    resetEnvCache();
    await fake?.close();
  });

  it("holds a custom voice's price, clones it from the recording's public URL, and charges it when the voice is ready", async () => {
    const user = await makeUser();
    await fundAccount(user.id, VOICE_CUSTOM_PRICE_MICRO + 1_000_000, "spendable");
    const { id, outcome, row } = await uploadAndMeasure(user, makeToneWav({ seconds: 20, peakDbfs: -20 }), "custom");
    expect(outcome).toBe("training");
    expect(row).toMatchObject({ state: "training", trainingJobId: expect.any(String) });
    expect((await getWallet(user.id)).available).toBe(1_000_000);

    const stop = runMediaWorkerSteps();
    try {
      await expect.poll(async () => (await voices.getDigitalVoice(user, { id })).state, { timeout: 30_000, interval: 200 }).toBe("ready");
    } finally {
      await stop();
    }
    const ready = await getDb().digitalVoice.findUniqueOrThrow({ where: { id } });
    expect(ready).toMatchObject({ provider: "dashscope", modelKey: model, providerVoiceId: expect.stringMatching(/^cosyvoice-v2-/) });
    const enrolled = fake.voices.get(ready.providerVoiceId!);
    expect(enrolled?.url).toBe(`${server.base}/files/${row.sampleFileKey}`);
    expect((await jobPostings(row.trainingJobId!)).map((p) => p.kind)).toEqual(["media_hold", "media_charge"]);
    expect((await getWallet(user.id)).available).toBe(1_000_000);
    expect(await voices.findReadyVoice(user.id, id)).toMatchObject({ modelKey: model, providerVoiceId: ready.providerVoiceId });
  });

  it("clones a personal voice on its package slot, for no further money; the slot stays used", async () => {
    const user = await userWithPackage();
    const balance = (await getWallet(user.id)).available;
    const { id, outcome, row } = await uploadAndMeasure(user, TONE_60);
    expect(outcome).toBe("training");
    expect(row.packageId).not.toBeNull();
    const stop = runMediaWorkerSteps();
    try {
      await expect.poll(async () => (await voices.getDigitalVoice(user, { id })).state, { timeout: 30_000, interval: 200 }).toBe("ready");
    } finally {
      await stop();
    }
    expect(await jobPostings(row.trainingJobId!)).toEqual([]);
    expect((await getWallet(user.id)).available).toBe(balance);
    expect(await listVoicePackages(user)).toMatchObject({ slotsLeft: 0, packages: [{ usedSlots: 1 }] });
  });
});

/** A voice in training on a clone job of its own (its slot taken), as the check step leaves it. */
async function makeTrainingVoice(user: TUser, kind: "personal" | "custom") {
  const pkg = await getDb().voicePackage.findFirstOrThrow({ where: { accountId: user.id, usedSlots: 0 } });
  await getDb().voicePackage.update({ where: { id: pkg.id }, data: { usedSlots: 1 } });
  const voice = await getDb().digitalVoice.create({
    data: {
      ownerAccountId: user.id,
      name: "Trained",
      sampleKind: kind,
      source: "recorded",
      sampleFileKey: `media/${user.id}/voices/x.wav`,
      state: "checking",
      packageId: pkg.id,
    },
  });
  const job = await getDb().mediaJob.create({
    data: {
      ownerAccountId: user.id,
      kind: "voice_clone",
      state: "generating",
      modelKey: "cosyvoice-v2",
      provider: "dashscope",
      params: { voiceId: voice.id },
      holdMicro: 0n,
      origin: "digital_voice",
      originRef: voice.id,
      callbackToken: crypto.randomBytes(18).toString("base64url"),
      deadlineAt: new Date(Date.now() + 86_400_000),
    },
  });
  await getDb().digitalVoice.update({ where: { id: voice.id }, data: { state: "training", trainingJobId: job.id } });
  return { voiceId: voice.id, jobId: job.id };
}

function endedJob(ownerAccountId: string, t: { voiceId: string; jobId: string }, state: "done" | "failed", result: Record<string, string> | null) {
  return { id: t.jobId, kind: "voice_clone" as const, ownerAccountId, state, params: { voiceId: t.voiceId }, outputs: [], result, errorCode: null };
}
