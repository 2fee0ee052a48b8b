// Bots whose agent draws answer with the picture itself, as the chat platform's own picture message:
// personal WeChat (the mock puppet gets a picture file), WeCom (temporary media upload, then an image
// message), DingTalk (media upload on the older host, then the robot's picture message) and Feishu
// (image upload, then an image message; its streaming card ends with a short line). The picture's
// bytes are the generated PNG kept in our file store. A failed generation says the polite failure and
// sends no picture. The generation runs on the loopback Kling with the worker's steps in this process.
// Channels sending on their own: a video goes natively where the platform has a video message and as
// a link on DingTalk; an address that is not one of our files goes as a link, never fetched.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { types } from "wechaty";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDingtalkChannel } from "../../bot-gateway/channels/dingtalk";
import { createFeishuChannel } from "../../bot-gateway/channels/feishu";
import { waitForMocker, type MockWechat } from "../../bot-gateway/channels/wechat/mock-puppet";
import { createWecomChannel } from "../../bot-gateway/channels/wecom";
import type { Channel } from "../../bot-gateway/core/channel";
import { storedKeyOf } from "../../bot-gateway/core/reply-media";
import { startGateway } from "../../bot-gateway/main";
import { deleteBot } from "../../server/bots/bot-delete.service";
import type { TBotChannel } from "../../server/bots/bots.schema";
import { createWecomCallbackRouter } from "../../server/bots/platforms/wecom/wecom-callback.http";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { getT } from "../../server/i18n/translate";
import { dropSingleton } from "../../server/lib/singleton";
import type { TTurnMedia } from "../../server/turns/sink";
import { getFileStore } from "../../server/uploads/file-store";
import type { TTestActor } from "../helpers/apps";
import { botRow, botUses, makeBotOwner, makeTestBot, testGatewayOptions, waitFor } from "../helpers/bots";
import { addMediaModel, runMediaWorkerSteps } from "../helpers/media-jobs";
import { makePng } from "../helpers/png";
import { startFakeDingtalk, type TFakeDingtalk } from "../fakes/fake-dingtalk";
import { makeFeishuApp, startFakeFeishu, type TFakeFeishu, type TFeishuSent } from "../fakes/fake-feishu";
import { startFakeKling, type TFakeKling } from "../fakes/fake-kling";
import { buildWecomCallback, buildWecomVerification, startFakeWecom, wecomTextXml, type TFakeWecom } from "../fakes/fake-wecom";

const run = crypto.randomBytes(3).toString("hex");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-bot-media-"));
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SAMPLE_MP4 = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/media/sample.mp4"));

const WECOM_APP = { corpId: `ww${run}md`, agentId: "1000023", secret: `wecom-secret-${run}` };
const WECOM_KEYS = { corpId: WECOM_APP.corpId, agentId: WECOM_APP.agentId, token: `tok${run}`, encodingAesKey: `${run}${"m".repeat(43)}`.slice(0, 43) };
const DING_APP = { clientId: `ding${run}md`, clientSecret: `ding-secret-${run}` };
const FEISHU_APP = makeFeishuApp();

let kling: TFakeKling;
let wecom: TFakeWecom;
let dingtalk: TFakeDingtalk;
let feishu: TFakeFeishu;
let web: { base: string; close: () => Promise<void> };
let gateway: Awaited<ReturnType<typeof startGateway>>;
let imageModel: string;
let stopWorkerSteps: () => Promise<void> = async () => {};
const mockers = new Map<string, MockWechat>();
const bots = new Map<TBotChannel, { owner: TTestActor; botId: string; appId: string; lng: string }>();

/** The web process's WeCom callback route alone (it queues WeCom's messages for the gateway). */
async function startWecomCallbacks() {
  const app = express();
  app.use("/api", createWecomCallbackRouter());
  const server = http.createServer(app).listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** What someone who wrote to a bot got back: the texts (card texts as finally shown) and the pictures' bytes. */
type TDelivered = { texts: string[]; pictures: Buffer[] };

type TChannelCase = {
  channel: TBotChannel;
  credentials: () => Record<string, unknown>;
  connect: (botId: string) => Promise<void>;
  ask: (botId: string, who: string, text: string) => Promise<() => Promise<TDelivered>>;
};

const online = async (botId: string) => {
  await waitFor(async () => (await botRow(botId)).state === "online", 20_000, "the bot online");
};
const cardText = (s: TFeishuSent) => {
  const content = s.patches.at(-1)?.content ?? s.content;
  return ((content?.body?.elements ?? []) as { content?: unknown }[]).map((e) => (typeof e.content === "string" ? e.content : "")).join("\n");
};
const paramOf = (b: Record<string, unknown>) => JSON.parse(String(b.msgParam)) as Record<string, string>;

const CASES: TChannelCase[] = [
  {
    channel: "wechat",
    credentials: () => ({}),
    async connect(botId) {
      const wx = await waitForMocker(botId, { timeoutMs: 20_000 });
      wx.login("Painter");
      await online(botId);
      mockers.set(botId, wx);
    },
    async ask(botId, who, text) {
      const wx = mockers.get(botId)!;
      const contact = wx.contact(`${who} ${run}`);
      wx.say(contact, text);
      return async () => {
        const files = await wx.sentFiles(contact.id);
        return { texts: wx.said(contact.id), pictures: files.filter((f) => f.type === types.Message.Image).map((f) => f.bytes) };
      };
    },
  },
  {
    channel: "wecom",
    credentials: () => ({
      corp_id: WECOM_APP.corpId,
      agent_id: WECOM_APP.agentId,
      secret: WECOM_APP.secret,
      token: WECOM_KEYS.token,
      encoding_aes_key: WECOM_KEYS.encodingAesKey,
    }),
    async connect(botId) {
      await waitFor(async () => (await botRow(botId)).state === "to_be_associated", 20_000, "the bot waiting for WeCom's callback");
      expect((await fetch(`${web.base}/api/v1/bots/${botId}/wecom?${buildWecomVerification(WECOM_KEYS, "5151")}`)).status).toBe(200);
      await online(botId);
    },
    async ask(botId, who, text) {
      const msgId = `${Date.now()}${crypto.randomInt(1000)}`;
      const { query, body } = buildWecomCallback(
        WECOM_KEYS,
        wecomTextXml({ corpId: WECOM_APP.corpId, agentId: WECOM_APP.agentId, from: who, content: text, msgId }),
      );
      expect((await fetch(`${web.base}/api/v1/bots/${botId}/wecom?${query}`, { method: "POST", headers: { "content-type": "text/xml" }, body })).status).toBe(
        200,
      );
      return async () => {
        const mine = wecom.sent.filter((s) => s.to === who);
        return {
          texts: mine.filter((s) => s.content).map((s) => s.content),
          pictures: mine.filter((s) => s.msgtype === "image").map((s) => wecom.media(s.mediaId!)!.bytes),
        };
      };
    },
  },
  {
    channel: "dingtalk",
    credentials: () => ({ client_id: DING_APP.clientId, client_secret: DING_APP.clientSecret }),
    connect: online,
    async ask(_botId, who, text) {
      const staff = `staff-${who}`;
      const msg = dingtalk.robotMessage({ robotCode: DING_APP.clientId, senderStaffId: staff, senderNick: who, text: { content: text } });
      dingtalk.deliver(msg);
      return async () => {
        const toSender = dingtalk.batchSends.filter((b) => (b.userIds as string[]).includes(staff));
        return {
          texts: [
            ...dingtalk.webhookPosts.filter((p) => p.conversationId === msg.conversationId).map((p) => (p.body.markdown as { text: string }).text),
            ...toSender.filter((b) => b.msgKey === "sampleMarkdown").map((b) => paramOf(b).text),
          ],
          pictures: toSender.filter((b) => b.msgKey === "sampleImageMsg").map((b) => dingtalk.media(paramOf(b).photoURL)!.bytes),
        };
      };
    },
  },
  {
    channel: "feishu",
    credentials: () => ({ app_id: FEISHU_APP.appId, app_secret: FEISHU_APP.appSecret }),
    connect: online,
    async ask(_botId, who, text) {
      const e = feishu.messageEvent(FEISHU_APP.appId, { chatType: "p2p", sender: { openId: `ou_${crypto.randomBytes(16).toString("hex")}`, name: who }, text });
      expect((await feishu.push(FEISHU_APP.appId, e.body)).payload.code).toBe(200);
      return async () => {
        const replies = feishu.repliesTo(e.messageId);
        return {
          texts: replies.filter((s) => s.msgType === "interactive").map(cardText),
          pictures: replies.filter((s) => s.msgType === "image").map((s) => feishu.upload(s.content.image_key)!.bytes),
        };
      };
    },
  },
];

/** The bytes of the picture the bot's latest answer was made of, read from our file store. */
async function generatedPicture(appId: string) {
  const uses = await waitFor(async () => (await botUses(appId)).at(-1), 10_000, "the bot's use");
  const answer = await getDb().chatMessage.findFirstOrThrow({ where: { dialogueId: uses.dialogueId!, role: "assistant" }, orderBy: { createdAt: "desc" } });
  const url = /!\[1\]\(([^)\s]+)\)/.exec(answer.content)?.[1];
  expect(url, answer.content).toBeTruthy();
  return readStored(url!);
}

async function readStored(url: string) {
  const file = await getFileStore().get(storedKeyOf(url)!);
  const chunks: Buffer[] = [];
  for await (const c of file!.stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const saved = Object.fromEntries(
  ["WECOM_API_BASE", "DINGTALK_API_BASE", "DINGTALK_OAPI_BASE", "FEISHU_DOMAIN", "DATA_DIR", "MEDIA_POLL_BASE_MS"].map((k) => [k, process.env[k]]),
);

beforeAll(async () => {
  kling = await startFakeKling();
  wecom = await startFakeWecom({ apps: [WECOM_APP] });
  dingtalk = await startFakeDingtalk(DING_APP);
  feishu = await startFakeFeishu({ apps: [FEISHU_APP] });
  Object.assign(process.env, { WECOM_API_BASE: wecom.base, ...dingtalk.env(), ...feishu.env(), DATA_DIR: dataDir, MEDIA_POLL_BASE_MS: "100" });
  resetEnvCache();
  dropSingleton("file-store");
  web = await startWecomCallbacks();
  imageModel = (await addMediaModel({ kind: "image", upstream: "kling-v1", type: "kling", baseUrl: kling.url, secret: kling.secret, unitPriceMicro: 200_000 }))
    .key;
  await getDb().mediaJob.updateMany({ where: { state: { in: ["queued", "generating", "background"] } }, data: { state: "failed", errorCode: "test_cleared" } });
  stopWorkerSteps = runMediaWorkerSteps();
  for (const c of CASES) {
    const owner = await makeBotOwner();
    const bot = await makeTestBot(owner, { channel: c.channel, name: "Painter", credentials: c.credentials(), agentConfig: { model_key: imageModel } });
    const row = await getDb().account.findUniqueOrThrow({ where: { id: owner.id }, select: { language: true } });
    bots.set(c.channel, { owner, ...bot, lng: row.language });
  }
  gateway = await startGateway(testGatewayOptions());
  for (const c of CASES) await c.connect(bots.get(c.channel)!.botId);
});

afterAll(async () => {
  await stopWorkerSteps();
  await gateway?.stop();
  for (const b of bots.values()) await deleteBot(b.owner, b.botId);
  await web?.close();
  await Promise.all([kling?.close(), wecom?.close(), dingtalk?.close(), feishu?.close()]);
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
  dropSingleton("file-store");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.each(CASES)("a $channel bot on a picture model", (c) => {
  it("answers with the generated picture as a picture message of the platform, not as markdown", async () => {
    kling.behave({ pollsUntilDone: 1 });
    const bot = bots.get(c.channel)!;
    const delivered = await c.ask(bot.botId, `fan-${c.channel}`, "a crane over a misty lake");
    const got = await waitFor(async () => ((await delivered()).pictures.length ? delivered() : null), 45_000, "the picture");
    const expected = await generatedPicture(bot.appId);
    expect(expected.subarray(0, 8)).toEqual(PNG_MAGIC);
    expect(got.pictures).toHaveLength(1);
    expect(got.pictures[0]!.equals(expected)).toBe(true);
    // No markdown of the picture went out as text.
    expect(got.texts.join("\n")).not.toMatch(/\/files\/|!\[/);
    const submit = kling.requests.find((q) => q.method === "POST" && q.body?.prompt?.includes("a crane over a misty lake"));
    expect(submit).toBeTruthy();
  });

  it("says the polite failure when the picture could not be made, and sends no picture", async () => {
    kling.behave({ pollsUntilDone: 1, outcome: "failed" });
    const bot = bots.get(c.channel)!;
    const polite = getT(bot.lng, "bots")("reply.failed");
    const delivered = await c.ask(bot.botId, `sad-${c.channel}`, "a storm that cannot be drawn");
    await waitFor(async () => (await delivered()).texts.some((t) => t.includes(polite)), 45_000, "the polite failure");
    await new Promise((r) => setTimeout(r, 500));
    expect((await delivered()).pictures).toEqual([]);
    const job = await getDb().mediaJob.findFirstOrThrow({ where: { appId: bot.appId }, orderBy: { createdAt: "desc" } });
    expect(job.state).toBe("failed");
  });
});

describe("Feishu's streaming card for a picture", () => {
  it("says the picture is being made, then ends with a short line; the picture follows as its own message", async () => {
    kling.behave({ pollsUntilDone: 2 });
    const bot = bots.get("feishu")!;
    const t = getT(bot.lng, "bots");
    const e = feishu.messageEvent(FEISHU_APP.appId, {
      chatType: "p2p",
      sender: { openId: `ou_${crypto.randomBytes(16).toString("hex")}` },
      text: "a red kite",
    });
    await feishu.push(FEISHU_APP.appId, e.body);
    await waitFor(() => feishu.repliesTo(e.messageId).some((s) => s.msgType === "image"), 45_000, "the picture");
    const [card, picture] = feishu.repliesTo(e.messageId);
    expect(card!.msgType).toBe("interactive");
    expect(card!.patches.map((p) => JSON.stringify(p.content)).join()).toContain(t("reply.generating"));
    expect(cardText(card!)).toBe(t("reply.media_ready"));
    expect(picture!.msgType).toBe("image");
  });
});

describe("channels sending media on their own", () => {
  let videoItem: TTurnMedia;
  let elsewhere: http.Server;
  let elsewhereHits = 0;
  let foreignItem: TTurnMedia;
  const spec = (credentials: Record<string, unknown>) => ({ botId: `direct-${run}`, name: "Painter", credentials });

  beforeAll(async () => {
    const key = `media/test-${run}/${crypto.randomBytes(6).toString("hex")}`;
    await getFileStore().put(`${key}.mp4`, SAMPLE_MP4, "video/mp4");
    await getFileStore().put(`${key}.poster.png`, makePng(64, 48), "image/png");
    videoItem = { kind: "video", url: `/files/${key}.mp4`, mime: "video/mp4", posterUrl: `/files/${key}.poster.png` };
    elsewhere = http.createServer((_req, res) => {
      elsewhereHits++;
      res.writeHead(200, { "content-type": "image/png" }).end(makePng(32, 32));
    });
    await new Promise<void>((r) => elsewhere.listen(0, "127.0.0.1", () => r()));
    foreignItem = { kind: "image", url: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/x.png`, mime: "image/png", posterUrl: null };
  });

  afterAll(async () => {
    await new Promise<void>((r) => elsewhere.close(() => r()));
  });

  it("WeCom sends a video as a video message of uploaded media, and a foreign address as a link", async () => {
    const channel: Channel = createWecomChannel(spec(CASES[1]!.credentials()));
    await channel.send({ kind: "contact", id: `direct-${run}` }, { text: "", media: [videoItem, foreignItem] });
    const sent = wecom.sent.filter((s) => s.to === `direct-${run}`);
    expect(sent.map((s) => s.msgtype)).toEqual(["video", "markdown"]);
    expect(wecom.media(sent[0]!.mediaId!)).toMatchObject({ type: "video", filename: expect.stringMatching(/\.mp4$/) });
    expect(wecom.media(sent[0]!.mediaId!)!.bytes.equals(SAMPLE_MP4)).toBe(true);
    expect(sent[1]!.content).toBe(`[🖼 2](${foreignItem.url})`);
    expect(elsewhereHits).toBe(0);
  });

  it("DingTalk sends a video as its link (the robot's video message needs its duration), and never fetches a foreign address", async () => {
    const channel: Channel = createDingtalkChannel(spec(CASES[2]!.credentials()));
    const uploadsBefore = dingtalk.mediaUploads.length;
    await channel.send({ kind: "contact", id: `staff-direct-${run}` }, { text: "", media: [videoItem, foreignItem] });
    const sent = dingtalk.batchSends.filter((b) => (b.userIds as string[]).includes(`staff-direct-${run}`));
    expect(sent.map((b) => b.msgKey)).toEqual(["sampleMarkdown", "sampleMarkdown"]);
    expect(paramOf(sent[0]!).text).toBe(`[▶ 1](${videoItem.url})`);
    expect(paramOf(sent[1]!).text).toBe(`[🖼 2](${foreignItem.url})`);
    expect(dingtalk.mediaUploads.length).toBe(uploadsBefore);
    expect(elsewhereHits).toBe(0);
  });

  it("Feishu sends a video as a media message (the MP4 and its poster as cover), and a foreign address as a link card", async () => {
    const channel: Channel = createFeishuChannel(spec({ ...CASES[3]!.credentials(), mode: "webhook" }));
    const openId = `ou_${crypto.randomBytes(16).toString("hex")}`;
    await channel.send({ kind: "contact", id: openId }, { text: "", media: [videoItem, foreignItem] });
    const sent = feishu.sentTo(feishu.p2pChatId(FEISHU_APP.appId, openId));
    expect(sent.map((s) => s.msgType)).toEqual(["media", "interactive"]);
    const file = feishu.upload(sent[0]!.content.file_key)!;
    expect(file).toMatchObject({ kind: "file", fileType: "mp4" });
    expect(file.bytes.equals(SAMPLE_MP4)).toBe(true);
    expect(feishu.upload(sent[0]!.content.image_key)).toMatchObject({ kind: "image" });
    expect(cardText(sent[1]!)).toContain(foreignItem.url);
    expect(elsewhereHits).toBe(0);
  });
});
