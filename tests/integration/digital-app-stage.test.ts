// A digital-human app on its phone page, on the real services: the page's view carries the stage
// (the owner's figure, never another account's); every reply is spoken in the scene's voice whether
// the app auto-plays or not, billed to the owner, and the app's instance runs with that speech among
// its files; a reply becomes a lip-synced clip only for a trained figure and a use a plan (or the
// owner) pays for, through one held job however often the page asks; the clip is asked only of the
// consumer's own reply of that app. The speech upstream is the loopback OpenAI fake.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { lookupH5App } from "../../server/apps/h5-view.service";
import { clipJobIdOf, handleAppClip, registerAppClipHooks } from "../../server/apps/digital-clips.service";
import { DEFAULT_KEY, priceLipsync } from "../../server/digital/digital.schema";
import { ERROR_CODES } from "../../server/errors/codes";
import { getQueue } from "../../server/jobs/queue";
import { runJobEndHooks } from "../../server/media/job-finish-hooks";
import { getFileWork, setFileWork } from "../../server/media/file-work";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";
import { createFileWork } from "../../workers/media";
import { renderTestTone } from "../../workers/media/test-sources";
import { startFakeKling } from "../fakes/fake-kling";
import { FAKE_MP3 } from "../fakes/fake-openai";
import { Browser } from "../helpers/api-client";
import { createTestApp } from "../helpers/apps";
import { contentOf, dataOf, makeAgent, makeUser, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";
import { addMediaModel } from "../helpers/media-jobs";

const h = useChatHarness();
const base = () => h.api.base;
const uid = () => crypto.randomBytes(4).toString("hex");
const SSE_PATH = "/api/v2/app/send_message/sse";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zl-app-stage-"));
let ip = 0;
let voiceModel: string;
let othersEnabled: string[] = [];
let kling: Awaited<ReturnType<typeof startFakeKling>>;
let lipsyncModel: string;

function makeVisitor(): TUser {
  const browser = new Browser(base(), `10.79.${Math.floor(++ip / 250)}.${ip % 250}`);
  browser.cookies.set("zl_visitor", crypto.randomBytes(16).toString("hex"));
  browser.cookies.set("lang", "en");
  return { id: "", browser, actor: { id: "", roles: [], enterpriseId: null } };
}

async function makeFigure(ownerAccountId: string, o: { trained?: boolean } = {}) {
  const k = `media/${ownerAccountId}/digital/${uid()}`;
  return getDb().digitalFigure.create({
    data: {
      ownerAccountId,
      name: `Figure ${uid()}`,
      state: "ready",
      kind: o.trained ? "trained" : "green_screen",
      provider: o.trained ? "kling" : null,
      providerAvatarId: o.trained ? "avatar-1" : null,
      sourceFileKey: `${k}.mp4`,
      loopFileKey: `${k}.loop.mp4`,
      posterFileKey: `${k}.keyed.png`,
      keyColor: DEFAULT_KEY.color,
      keySimilarity: DEFAULT_KEY.similarity,
      keyBlend: DEFAULT_KEY.blend,
    },
    select: { id: true, loopFileKey: true, posterFileKey: true },
  });
}

/** A digital-human app of a fresh owner (10 Z) on the fake upstream, its scene on `figureId`. */
async function makeDigitalApp(o: { trained?: boolean; funded?: boolean; autoPlay?: boolean } = {}) {
  const owner = await makeUser(base(), { funded: o.funded !== false });
  const figure = await makeFigure(owner.id, o);
  const agent = await makeAgent(h, owner, { publish: true });
  const { appId } = await createTestApp({
    owner: { id: owner.id, roles: [], enterpriseId: null },
    agentId: agent.agentId,
    input: {
      type: "digital_human",
      auto_play: o.autoPlay ?? false,
      settings: { figure_id: figure.id, voice_id: "shimmer", orientation: "vertical", placement: { x: 0.4, y: 0.6, scale: 0.8 }, background_color: "#123456" },
    } as never,
  });
  return { appId, owner, figure };
}

const post = (who: TUser, p: string, body: unknown) => who.browser.call(p, { body });
const instancesOf = (appId: string) => getDb().digitalInstance.findMany({ where: { appId }, include: { files: true } });
const askClip = (who: TUser, appId: string, messageId: string) => post(who, "/api/v2/app/digital/clip", { app_id: appId, message_id: messageId });

beforeAll(async () => {
  setFileWork(createFileWork());
  registerAppClipHooks();
  await getQueue("digital-clips").obliterate({ force: true });
  othersEnabled = (await getDb().model.findMany({ where: { kind: { in: ["voice", "lipsync"] }, enabled: true }, select: { id: true } })).map((m) => m.id);
  await getDb().model.updateMany({ where: { id: { in: othersEnabled } }, data: { enabled: false } });
  voiceModel = `tts-${uid()}`;
  await createModel(ZCreateModelInput.parse({ key: voiceModel, display_name: "语音合成", kind: "voice", upstream_model: voiceModel }));
  await createChannel(
    ZCreateChannelInput.parse({ name: `ch ${voiceModel}`, type: "openai", base_url: h.fake.base, key: `sk-${uid()}`, models: [voiceModel], weight: 1 }),
  );
  kling = await startFakeKling();
  lipsyncModel = (
    await addMediaModel({ kind: "lipsync" as never, upstream: "kling-lipsync", type: "kling", baseUrl: kling.url, secret: kling.secret, unitPriceMicro: 0 })
  ).key;
}, 60_000);

afterAll(async () => {
  await getDb().model.updateMany({ where: { key: { in: [voiceModel, lipsyncModel] } }, data: { enabled: false } });
  await getDb().model.updateMany({ where: { id: { in: othersEnabled } }, data: { enabled: true } });
  h.fake.setSpeechAudio(FAKE_MP3);
  await kling?.close();
  setFileWork(null);
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the phone page's stage", () => {
  it("shows the owner's figure where the scene places it, over its background, keyed as the figure is", async () => {
    const { appId, figure } = await makeDigitalApp();
    const found = await lookupH5App(appId, null);
    expect(found.ok).toBe(true);
    const stage = found.ok ? found.app.stage : null;
    expect(stage).toMatchObject({
      orientation: "vertical",
      placement: { x: 0.4, y: 0.6, scale: 0.8 },
      background: { kind: "color", color: "#123456" },
      figure: { loopUrl: `/files/${figure.loopFileKey}`, posterUrl: `/files/${figure.posterFileKey}`, greetingUrl: null, key: DEFAULT_KEY },
      lipsync: false,
    });
  });

  it("never shows another account's figure, even when one is written into the scene behind the service's back", async () => {
    const { appId } = await makeDigitalApp();
    const stranger = await makeUser(base());
    const theirs = await makeFigure(stranger.id);
    const app = await getDb().app.findUniqueOrThrow({ where: { id: appId }, select: { settings: true } });
    await getDb().app.update({ where: { id: appId }, data: { settings: { ...(app.settings as object), figure_id: theirs.id } } });
    const found = await lookupH5App(appId, null);
    expect(found.ok && found.app.stage).toMatchObject({ figure: null, lipsync: false });
  });

  it("has no stage on an H5 app", async () => {
    const { appId } = await createTestApp();
    const found = await lookupH5App(appId, null);
    expect(found.ok && found.app.stage).toBeNull();
  });
});

describe("the instance", () => {
  it("runs once however often the page opens it, and its first hour is charged to the owner", async () => {
    const { appId } = await makeDigitalApp();
    const [a, b] = await Promise.all([
      post(makeVisitor(), "/api/v2/app/digital/open", { app_id: appId }),
      post(makeVisitor(), "/api/v2/app/digital/open", { app_id: appId }),
    ]);
    expect([a.body.data, b.body.data]).toEqual([{ running: true }, { running: true }]);
    const rows = await instancesOf(appId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: "running", hoursBilled: 1 });
  });

  it("rests when the owner cannot pay its hour: the page is told, nothing is written", async () => {
    const { appId } = await makeDigitalApp({ funded: false });
    const r = await post(makeVisitor(), "/api/v2/app/digital/open", { app_id: appId });
    expect(r.body).toMatchObject({ status: 200, data: { running: false } });
    expect(await instancesOf(appId)).toHaveLength(0);
  });

  it("refuses an app that is not a digital human, one that does not exist, and a body without an app", async () => {
    const { appId } = await createTestApp();
    const visitor = makeVisitor();
    for (const body of [{ app_id: appId }, { app_id: "nope" }, { app_id: "x".repeat(65) }, {}]) {
      const r = await post(visitor, "/api/v2/app/digital/open", body);
      expect(r.http, JSON.stringify(body)).toBeLessThan(500);
      expect(r.body.status).not.toBe(200);
    }
    expect((await post(visitor, "/api/v2/app/digital/open", { app_id: appId })).body.status).toBe(ERROR_CODES.not_found.status);
  });
});

describe("spoken replies", () => {
  it("speaks every reply in the scene's voice though the app does not auto-play, with the speech among the instance's files", async () => {
    const { appId, owner } = await makeDigitalApp({ autoPlay: false });
    const r = await sendSse(base(), makeVisitor(), { app_id: appId, content: "hello" }, { path: SSE_PATH });
    expect(contentOf(r)).toBe("word0 word1 word2 ");
    const close = dataOf(r, "close")[0];
    expect(close.audio).toMatch(new RegExp(`^/files/media/${owner.id}/`));
    expect(h.fake.audio.at(-1)).toMatchObject({ kind: "speech", body: { input: "word0 word1 word2", voice: "shimmer" } });
    const [instance] = await instancesOf(appId);
    expect(instance.files).toEqual([expect.objectContaining({ kind: "speech", fileKey: close.audio.replace(/^\/files\//, "") })]);
  });

  it("answers in text alone when the owner cannot pay the speech", async () => {
    const { appId } = await makeDigitalApp({ funded: false });
    const r = await sendSse(base(), makeVisitor(), { app_id: appId, content: "hello" }, { path: SSE_PATH });
    // The owner who cannot pay the channel fee is refused the turn itself; either way nothing is spoken.
    const close = dataOf(r, "close")[0];
    expect(close?.audio ?? null).toBeNull();
  });
});

describe("a reply's lip-synced clip", () => {
  async function replyOf(who: TUser, appId: string) {
    const r = await sendSse(base(), who, { app_id: appId, content: "hello" }, { path: SSE_PATH });
    const close = dataOf(r, "close")[0];
    expect(close.audio).toBeTruthy();
    return close.id as string;
  }

  it("is not made for a free visitor's reply, nor for a figure that is not trained", async () => {
    const trained = await makeDigitalApp({ trained: true });
    const visitor = makeVisitor();
    const visitorReply = await replyOf(visitor, trained.appId);
    expect((await askClip(visitor, trained.appId, visitorReply)).body.data).toEqual({ state: "unavailable", url: null, reason: "plan" });

    const plain = await makeDigitalApp();
    const ownReply = await replyOf(plain.owner, plain.appId);
    expect((await askClip(plain.owner, plain.appId, ownReply)).body.data).toEqual({ state: "unavailable", url: null, reason: "figure" });
    expect(await getDb().mediaJob.count({ where: { kind: "lipsync", appId: { in: [trained.appId, plain.appId] } } })).toBe(0);
  });

  it("is asked only of the consumer's own reply of that app", async () => {
    const { appId } = await makeDigitalApp({ trained: true });
    const other = await makeDigitalApp({ trained: true });
    const visitor = makeVisitor();
    const reply = await replyOf(visitor, appId);
    for (const [who, app, message] of [
      [makeVisitor(), appId, reply],
      [visitor, other.appId, reply],
      [visitor, appId, "no-such-message"],
    ] as const) {
      const r = await askClip(who, app, message);
      expect(r.body.status).toBe(ERROR_CODES.not_found.status);
    }
    for (const body of [{}, { app_id: appId }, { app_id: appId, message_id: "" }, { app_id: appId, message_id: "m".repeat(65) }]) {
      const r = await post(visitor, "/api/v2/app/digital/clip", body);
      expect(r.http, JSON.stringify(body)).toBeLessThan(500);
      expect(r.body.status).not.toBe(200);
    }
  });

  it("is one held lip-sync job of the reply's speech, however often asked, and its file joins the instance", async () => {
    // A real recording, so the worker can measure what the clip will cost.
    const tone = path.join(tmp, "reply.mp3");
    await renderTestTone(tone, { seconds: 6.5 });
    h.fake.setSpeechAudio(fs.readFileSync(tone));
    try {
      const { appId, owner, figure } = await makeDigitalApp({ trained: true });
      const replyId = await replyOf(owner, appId);
      expect((await askClip(owner, appId, replyId)).body.data).toEqual({ state: "preparing", url: null });
      expect((await askClip(owner, appId, replyId)).body.data).toEqual({ state: "preparing", url: null });
      const queued = await getQueue("digital-clips").getJobs(["waiting", "delayed", "prioritized"]);
      expect(queued.filter((j) => j.data.messageId === replyId)).toHaveLength(1);
      // The worker's part, twice (a retried job): one lip-sync job, one hold.
      await handleAppClip({ appId, messageId: replyId });
      await handleAppClip({ appId, messageId: replyId });
      const jobs = await getDb().mediaJob.findMany({ where: { kind: "lipsync", appId } });
      expect(jobs).toHaveLength(1);
      const [instance] = await instancesOf(appId);
      const { durationMs } = await getFileWork().measureVoice((jobs[0].params as { files: { audio: { fileKey: string } } }).files.audio.fileKey);
      expect(jobs[0]).toMatchObject({ id: clipJobIdOf(replyId), origin: "app", originRef: replyId, holdMicro: BigInt(priceLipsync(durationMs!)) });
      expect(jobs[0].params).toMatchObject({
        files: { video: { fileKey: figure.loopFileKey } },
        avatar: { provider: "kling", avatarId: "avatar-1" },
        instanceId: instance.id,
      });
      expect((await askClip(owner, appId, replyId)).body.data).toEqual({ state: "queued", url: null });

      // The job's end puts the clip among the instance's files, and the page gets its address.
      const clipKey = `media/${owner.id}/generated/${uid()}.mp4`;
      const outputs = [{ fileKey: clipKey, mime: "video/mp4", size: 1234, width: 720, height: 1280, durationMs, mediaItemId: null }];
      await getDb().$transaction(async (tx) => {
        await tx.mediaJob.update({ where: { id: jobs[0].id }, data: { state: "done", outputs } });
        await runJobEndHooks(
          { id: jobs[0].id, kind: "lipsync", ownerAccountId: owner.id, state: "done", params: jobs[0].params, outputs, result: null, errorCode: null },
          tx as never,
        );
      });
      expect((await askClip(owner, appId, replyId)).body.data).toEqual({ state: "done", url: `/files/${clipKey}` });
      const files = (await instancesOf(appId))[0].files.map((f) => f.kind).sort();
      expect(files).toEqual(["lipsync", "speech"]);
    } finally {
      h.fake.setSpeechAudio(FAKE_MP3);
    }
  }, 60_000);
});
