// An app's spoken replies, billed: POST /v2/app/speech and the auto-played reply's close.audio are
// speech jobs on the fake OpenAI upstream, paid by the app's owner through a hold and one
// settlement. The price is exact for the text's length at the configured rate (or the model's own
// unit price); a short balance refuses before anything is written or asked; an upstream failure
// releases the hold; a retried job id is charged once; speech needs a valid entitlement and uses
// no count; the announcer comes from the voice list.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { ERROR_CODES } from "../../server/errors/codes";
import { mapError } from "../../server/errors/map-error";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";
import { getWallet } from "../../server/money/ledger.service";
import { resetMeteringSettings } from "../../server/money/metering/metering-settings";
import { appRouter } from "../../server/trpc/app-router";
import { VOICES } from "../../server/media/voices";
import { startFakeDashscope } from "../fakes/fake-dashscope";
import { FAKE_MP3 } from "../fakes/fake-openai";
import { Browser } from "../helpers/api-client";
import { createTestApp, validAppInput } from "../helpers/apps";
import { contentOf, cookieOf, dataOf, makeAgent, makeUser, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";
import { fundAccount } from "../helpers/money";

const h = useChatHarness();
const base = () => h.api.base;
const uid = () => crypto.randomBytes(4).toString("hex");
const SSE_PATH = "/api/v2/app/send_message/sse";
let ip = 0;
let voice: { modelKey: string; key: string };
let othersEnabled: string[] = [];

/** The platform's speech price, written out: 0.024 USD per 1000 characters at `rate` yuan per dollar. */
const expectedPrice = (chars: number, rate = 7.2) => Math.ceil((24_000 * chars * rate) / 1000);

function makeVisitor(): TUser {
  const browser = new Browser(base(), `10.78.${Math.floor(++ip / 250)}.${ip % 250}`);
  browser.cookies.set("zl_visitor", crypto.randomBytes(16).toString("hex"));
  browser.cookies.set("lang", "en");
  return { id: "", browser, actor: { id: "", roles: [], enterpriseId: null } };
}

/** An on-shelf app of a fresh owner (10 Z unless `funds` says otherwise) on the fake upstream. */
async function makeApp(input: Record<string, unknown>, opts: { funds?: number } = {}) {
  const owner = await makeUser(base(), { funded: opts.funds === undefined });
  if (opts.funds) await fundAccount(owner.id, opts.funds);
  const agent = await makeAgent(h, owner, { publish: true });
  const { appId } = await createTestApp({ owner: { id: owner.id, roles: [], enterpriseId: null }, agentId: agent.agentId, input: input as never });
  return { appId, owner };
}

async function speak(who: TUser, body: Record<string, unknown>) {
  const res = await fetch(`${base()}/api/v2/app/speech`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      cookie: cookieOf(who),
      "x-csrf-token": who.browser.cookies.get("zl_csrf")!,
      "x-forwarded-for": who.browser.ip,
    },
    body: JSON.stringify(body),
  });
  if ((res.headers.get("content-type") ?? "").includes("json")) return { http: res.status, envelope: await res.json(), bytes: null, url: null };
  return { http: res.status, envelope: null, bytes: Buffer.from(await res.arrayBuffer()), url: res.headers.get("x-audio-url") };
}

const available = async (accountId: string) => (await getWallet(accountId)).available;
const speechCalls = () => h.fake.audio.filter((a) => a.kind === "speech").length;
const jobId = () => `job${crypto.randomBytes(12).toString("hex")}`;
const ledgerAt = (key: string) =>
  getDb().ledgerTransaction.findUnique({
    where: { idempotencyKey: key },
    select: { kind: true, entries: { select: { ledgerAccountId: true, amountMicro: true } } },
  });
const jobRow = (id: string) => getDb().mediaJob.findUnique({ where: { id } });
const callerFor = (accountId: string) =>
  appRouter.createCaller({
    lng: "en",
    isPlatformAdmin: false,
    account: { id: accountId, roles: [], enterpriseId: null, account: "x", nickname: "x", avatarUrl: null, phone: null, edition: "flagship" } as never,
  });

beforeAll(async () => {
  // Only this file's voice model speaks, so the model (and its price) that answers is known.
  othersEnabled = (await getDb().model.findMany({ where: { kind: "voice", enabled: true }, select: { id: true } })).map((m) => m.id);
  await getDb().model.updateMany({ where: { id: { in: othersEnabled } }, data: { enabled: false } });
  voice = { modelKey: `tts-${uid()}`, key: `sk-tts-${uid()}` };
  await createModel(ZCreateModelInput.parse({ key: voice.modelKey, display_name: "语音合成", kind: "voice", upstream_model: voice.modelKey }));
  await createChannel(
    ZCreateChannelInput.parse({ name: `ch ${voice.modelKey}`, type: "openai", base_url: h.fake.base, key: voice.key, models: [voice.modelKey], weight: 1 }),
  );
});

afterAll(async () => {
  await getDb().model.updateMany({ where: { key: voice.modelKey }, data: { enabled: false } });
  await getDb().model.updateMany({ where: { id: { in: othersEnabled } }, data: { enabled: true } });
  delete process.env.USD_CNY_RATE;
  resetMeteringSettings();
});

describe("POST /v2/app/speech, billed", () => {
  it("charges the app's owner 0.024 USD per 1000 characters at the configured rate, through a hold and its charge", async () => {
    const { appId, owner } = await makeApp({ output_modes: ["text", "voice"], speaker: "nova" });
    const visitor = makeVisitor();
    for (const [text, rate] of [
      ["Hello there", 7.2],
      ["你好，世界！", 7.2],
      ["Hello there, a different rate", 6.5],
    ] as const) {
      process.env.USD_CNY_RATE = String(rate);
      resetMeteringSettings();
      const before = await available(owner.id);
      const id = jobId();
      const r = await speak(visitor, { app_id: appId, text, job_id: id });
      expect(r.http).toBe(200);
      expect(r.bytes!.equals(FAKE_MP3)).toBe(true);
      const price = expectedPrice([...text].length, rate);
      expect(before - (await available(owner.id))).toBe(price);
      expect(h.fake.audio.at(-1)).toMatchObject({ key: voice.key, kind: "speech", body: { input: text, voice: "nova", model: voice.modelKey } });

      const job = await jobRow(id);
      expect(job).toMatchObject({ kind: "speech", state: "done", origin: "app", appId, ownerAccountId: owner.id, modelKey: voice.modelKey });
      expect([Number(job!.holdMicro), Number(job!.chargedMicro)]).toEqual([price, price]);
      expect(job!.params).toMatchObject({ textLength: [...text].length, voice: "nova", model: voice.modelKey });
      // The kept audio is public under the owner's media folder, at an unguessable key.
      const output = (job!.outputs as { fileKey: string }[])[0];
      expect(output.fileKey).toMatch(new RegExp(`^media/${owner.id}/speech/`));
      expect(r.url).toBe(`/files/${output.fileKey}`);
      expect((await visitor.browser.fetchRaw(r.url!)).bytes.equals(FAKE_MP3)).toBe(true);

      const hold = await ledgerAt(`media-hold:${id}`);
      const settle = await ledgerAt(`media-settle:${id}`);
      expect(hold?.kind).toBe("media_hold");
      expect(settle?.kind).toBe("media_charge");
      expect(settle!.entries.find((e) => e.ledgerAccountId === "platform_revenue")?.amountMicro).toBe(BigInt(price));
    }
    delete process.env.USD_CNY_RATE;
    resetMeteringSettings();
  });

  it("charges the voice model's own unit price per 1000 characters when it sets one", async () => {
    await getDb().model.update({ where: { key: voice.modelKey }, data: { unitPriceMicro: 50_000 } });
    try {
      const { appId, owner } = await makeApp({ output_modes: ["text", "voice"] });
      const before = await available(owner.id);
      const text = "x".repeat(333);
      const r = await speak(makeVisitor(), { app_id: appId, text });
      expect(r.http).toBe(200);
      // 50,000 micro-Z per 1000 characters: 333 characters cost 16,650.
      expect(before - (await available(owner.id))).toBe(16_650);
      // No announcer chosen: the default voice.
      expect(h.fake.audio.at(-1)!.body.voice).toBe("alloy");
    } finally {
      await getDb().model.update({ where: { key: voice.modelKey }, data: { unitPriceMicro: 0 } });
    }
  });

  it("refuses when the owner cannot pay: nothing held, no job, no upstream call", async () => {
    const { appId, owner } = await makeApp({ output_modes: ["text", "voice"] }, { funds: 0 });
    const calls = speechCalls();
    const id = jobId();
    const r = await speak(makeVisitor(), { app_id: appId, text: "Hello there", job_id: id });
    expect(r.envelope.status).toBe(ERROR_CODES.app_owner_balance_insufficient.status);
    expect(r.envelope.description).toMatch(/balance/i);
    expect(speechCalls()).toBe(calls);
    expect(await jobRow(id)).toBeNull();
    expect(await ledgerAt(`media-hold:${id}`)).toBeNull();
    expect(await getDb().mediaJob.count({ where: { appId } })).toBe(0);
    expect(await available(owner.id)).toBe(0);
  });

  it("releases the hold when the upstream fails: hold and release in the ledger, balance unchanged, the job failed", async () => {
    const { appId, owner } = await makeApp({ output_modes: ["text", "voice"] });
    const before = await available(owner.id);
    const visitor = makeVisitor();
    h.fake.failSpeech(500);
    const id = jobId();
    try {
      const r = await speak(visitor, { app_id: appId, text: "Hello there", job_id: id });
      expect(r.http).toBe(503);
      expect(r.envelope.status).toBe(ERROR_CODES.voice_unavailable.status);
    } finally {
      h.fake.failSpeech(null);
    }
    expect(await available(owner.id)).toBe(before);
    const price = expectedPrice(11);
    const hold = await ledgerAt(`media-hold:${id}`);
    const settle = await ledgerAt(`media-settle:${id}`);
    expect(hold?.kind).toBe("media_hold");
    expect(hold!.entries.find((e) => e.ledgerAccountId === "escrow")?.amountMicro).toBe(BigInt(price));
    expect(settle?.kind).toBe("media_release");
    expect(settle!.entries.find((e) => e.ledgerAccountId === "escrow")?.amountMicro).toBe(BigInt(-price));
    expect(settle!.entries.some((e) => e.ledgerAccountId === "platform_revenue")).toBe(false);
    expect(await jobRow(id)).toMatchObject({ state: "failed", errorCode: "generation_failed", chargedMicro: 0n });
    // The same id again answers the recorded failure, asking nobody.
    const calls = speechCalls();
    const again = await speak(visitor, { app_id: appId, text: "Hello there", job_id: id });
    expect(again.envelope.status).toBe(ERROR_CODES.voice_unavailable.status);
    expect(speechCalls()).toBe(calls);
  });

  it("charges a retried job id once and answers the same audio; the same id for another text is a conflict", async () => {
    const { appId, owner } = await makeApp({ output_modes: ["text", "voice"], speaker: "echo" });
    const visitor = makeVisitor();
    const before = await available(owner.id);
    const calls = speechCalls();
    const id = jobId();
    const first = await speak(visitor, { app_id: appId, text: "Say it once", job_id: id });
    const second = await speak(visitor, { app_id: appId, text: "Say it once", job_id: id });
    expect([first.http, second.http]).toEqual([200, 200]);
    expect(second.bytes!.equals(first.bytes!)).toBe(true);
    expect(second.url).toBe(first.url);
    expect(speechCalls()).toBe(calls + 1);
    expect(before - (await available(owner.id))).toBe(expectedPrice(11));
    expect(await getDb().mediaJob.count({ where: { appId } })).toBe(1);

    const other = await speak(visitor, { app_id: appId, text: "Something else", job_id: id });
    expect(other.envelope.status).toBe(ERROR_CODES.idempotency_conflict.status);
    // Another visitor naming the same id gets nothing of the first one's audio.
    const stranger = await speak(makeVisitor(), { app_id: appId, text: "Say it once", job_id: id });
    expect(stranger.envelope.status).toBe(ERROR_CODES.idempotency_conflict.status);
    expect(speechCalls()).toBe(calls + 1);
    const bad = await speak(visitor, { app_id: appId, text: "Say it", job_id: "short" });
    expect(bad.envelope.status).toBe(ERROR_CODES.validation_failed.status);
  });

  it("speaks only for a valid entitlement, and uses no count", async () => {
    const { appId } = await makeApp({ output_modes: ["text", "voice"], free_per_day: 1 });
    const visitor = makeVisitor();
    for (let i = 0; i < 3; i++) expect((await speak(visitor, { app_id: appId, text: `Read this ${i}` })).http).toBe(200);
    const view = await visitor.browser.call(`/api/v2/app/entitlement?app_id=${appId}`);
    expect(view.body.data).toMatchObject({ basis: "free", remainingToday: 1 });

    const r = await sendSse(base(), visitor, { app_id: appId, content: "hello" }, { path: SSE_PATH });
    expect(contentOf(r)).toBe("word0 word1 word2 ");
    const calls = speechCalls();
    const refused = await speak(visitor, { app_id: appId, text: "One more" });
    expect(refused.envelope.status).toBe(ERROR_CODES.times_exhausted.status);
    expect(speechCalls()).toBe(calls);
  });

  it("speaks an announcer saved as free text before the list in the default voice", async () => {
    const { appId } = await makeApp({ output_modes: ["text", "voice"] });
    await getDb().app.update({ where: { id: appId }, data: { speaker: "Robot Bob" } });
    expect((await speak(makeVisitor(), { app_id: appId, text: "Hello" })).http).toBe(200);
    expect(h.fake.audio.at(-1)!.body.voice).toBe("alloy");
  });
});

describe("the announcer list", () => {
  it("refuses an announcer outside the list on save (the form's procedure), accepts a listed one", async () => {
    const owner = await makeUser(base());
    const agent = await makeAgent(h, owner, { publish: true });
    const caller = callerFor(owner.id);
    const calls = await getDb().app.count({ where: { ownerAccountId: owner.id } });
    const err = await caller.apps.create({ ...(await validAppInput(agent.agentId)), speaker: "Robot Bob" }).then(
      () => null,
      (e) => e,
    );
    const mapped = mapError(err?.cause ?? err, "en");
    expect(mapped.code).toBe("validation_failed");
    expect((mapped.envelope.data as { fields: unknown[] }).fields).toEqual([{ path: "speaker", message: "Choose an announcer from the list" }]);
    expect(await getDb().app.count({ where: { ownerAccountId: owner.id } })).toBe(calls);
    const app = await caller.apps.create(await validAppInput(agent.agentId, { speaker: "longwan" }));
    expect(app.input.speaker).toBe("longwan");
  });

  it("voices.list answers the voices of the enabled voice models' channel types", async () => {
    const caller = callerFor((await makeUser(base())).id);
    const list = await caller.voices.list();
    expect(list.voices).toEqual(VOICES.openai.map((id) => ({ id, family: "openai" })));
    expect(list.default_voice).toBe("alloy");
    await getDb().model.update({ where: { key: voice.modelKey }, data: { enabled: false } });
    try {
      expect(await caller.voices.list()).toEqual({ voices: [], default_voice: null });
    } finally {
      await getDb().model.update({ where: { key: voice.modelKey }, data: { enabled: true } });
    }
  });
});

describe("close.audio", () => {
  const send = (visitor: TUser, appId: string) => sendSse(base(), visitor, { app_id: appId, content: "hello" }, { path: SSE_PATH });

  it("carries the spoken reply's URL for an app with voice output and auto-play, billed to the owner", async () => {
    const { appId, owner } = await makeApp({ output_modes: ["text", "voice"], auto_play: true, speaker: "shimmer" });
    const visitor = makeVisitor();
    const before = await available(owner.id);
    const r = await send(visitor, appId);
    expect(contentOf(r)).toBe("word0 word1 word2 ");
    const close = dataOf(r, "close")[0];
    expect(close.audio).toMatch(new RegExp(`^/files/media/${owner.id}/speech/`));
    expect((await visitor.browser.fetchRaw(close.audio)).bytes.equals(FAKE_MP3)).toBe(true);
    expect(h.fake.audio.at(-1)).toMatchObject({ kind: "speech", body: { input: "word0 word1 word2", voice: "shimmer" } });
    // The reply's channel fee and the speech of its 17 characters.
    expect(before - (await available(owner.id))).toBe(3_000 + expectedPrice(17));
    expect(await jobRow(`${close.id}-speech`)).toMatchObject({
      state: "done",
      origin: "app",
      originRef: close.id,
      appId,
      chargedMicro: BigInt(expectedPrice(17)),
    });
  });

  it("has no audio without auto-play or without voice output, and asks no voice model", async () => {
    const calls = speechCalls();
    for (const input of [
      { output_modes: ["text", "voice"], auto_play: false },
      { output_modes: ["text"], auto_play: true },
    ]) {
      const { appId } = await makeApp(input);
      const r = await send(makeVisitor(), appId);
      expect(contentOf(r)).toBe("word0 word1 word2 ");
      expect(dataOf(r, "close")[0].audio).toBeNull();
    }
    expect(speechCalls()).toBe(calls);
  });

  it("closes with audio null and the whole text when the owner cannot pay for the speech", async () => {
    // Enough for the reply's channel fee (3,000) but not its speech (2,938 more).
    const { appId, owner } = await makeApp({ output_modes: ["text", "voice"], auto_play: true }, { funds: 4_000 });
    const calls = speechCalls();
    const r = await send(makeVisitor(), appId);
    expect(contentOf(r)).toBe("word0 word1 word2 ");
    const close = dataOf(r, "close")[0];
    expect(close.audio).toBeNull();
    expect(speechCalls()).toBe(calls);
    expect(await jobRow(`${close.id}-speech`)).toBeNull();
    expect(await available(owner.id)).toBe(1_000);
  });

  it("closes with audio null and the whole text when the speech fails, its hold released", async () => {
    const { appId, owner } = await makeApp({ output_modes: ["text", "voice"], auto_play: true });
    const before = await available(owner.id);
    h.fake.failSpeech(429);
    let r;
    try {
      r = await send(makeVisitor(), appId);
    } finally {
      h.fake.failSpeech(null);
    }
    expect(contentOf(r)).toBe("word0 word1 word2 ");
    expect(r.events.at(-1)!.event).toBe("close");
    const close = dataOf(r, "close")[0];
    expect(close.audio).toBeNull();
    expect(await jobRow(`${close.id}-speech`)).toMatchObject({ state: "failed", chargedMicro: 0n });
    expect((await ledgerAt(`media-settle:${close.id}-speech`))?.kind).toBe("media_release");
    expect(before - (await available(owner.id))).toBe(3_000);
  });
});

describe("a DashScope voice model", () => {
  let dashscope: Awaited<ReturnType<typeof startFakeDashscope>>;
  const models: string[] = [];
  beforeAll(async () => {
    dashscope = await startFakeDashscope();
    // Only DashScope speaks in this block.
    await getDb().model.updateMany({ where: { key: voice.modelKey }, data: { enabled: false } });
    for (const upstream of ["cosyvoice-v2", "qwen-tts"]) {
      const key = `${upstream}-${uid()}`;
      models.push(key);
      await createModel(ZCreateModelInput.parse({ key, display_name: "阿里语音", kind: "voice", upstream_model: upstream }));
      await createChannel(
        ZCreateChannelInput.parse({ name: `ch ${key}`, type: "dashscope", base_url: dashscope.url, key: dashscope.apiKey, models: [key], weight: 1 }),
      );
    }
  });
  afterAll(async () => {
    await getDb().model.updateMany({ where: { key: { in: models } }, data: { enabled: false } });
    await getDb().model.updateMany({ where: { key: voice.modelKey }, data: { enabled: true } });
    dashscope?.close();
  });
  const spoken = () => dashscope.requests.filter((r) => r.method === "POST" && /SpeechSynthesizer|multimodal-generation/.test(r.path));

  it("speaks CosyVoice's announcer by its v2 name, keeps the audio from the result link, and bills it", async () => {
    const { appId, owner } = await makeApp({ output_modes: ["text", "voice"], speaker: "longwan" });
    const before = await available(owner.id);
    const r = await speak(makeVisitor(), { app_id: appId, text: "你好，欢迎光临" });
    expect(r.http).toBe(200);
    expect(spoken().at(-1)!.body).toMatchObject({ model: "cosyvoice-v2", input: { text: "你好，欢迎光临", voice: "longwan_v2", format: "mp3" } });
    expect(r.bytes!.subarray(0, 3).toString("latin1")).toBe("ID3");
    expect(r.url).toMatch(new RegExp(`^/files/media/${owner.id}/speech/`));
    expect(before - (await available(owner.id))).toBe(expectedPrice(7));
  });

  it("speaks the model's own default for an announcer of another family", async () => {
    const { appId } = await makeApp({ output_modes: ["text", "voice"], speaker: "nova" });
    expect((await speak(makeVisitor(), { app_id: appId, text: "Hello" })).http).toBe(200);
    expect(spoken().at(-1)!.body.input.voice).toBe("longxiaochun_v2");
  });

  it("offers CosyVoice's and Qwen-TTS's voices in voices.list", async () => {
    const list = await callerFor((await makeUser(base())).id).voices.list();
    expect(new Set(list.voices.map((v) => v.family))).toEqual(new Set(["cosyvoice", "qwen_tts"]));
    expect(list.voices.filter((v) => v.family === "qwen_tts").map((v) => v.id)).toEqual(VOICES.qwen_tts);
  });
});
