// Bots answer from their agent's training sets on every chat platform. The bots are run by the bot
// gateway as its process starts it (bot-gateway/main.ts), and nothing in this file installs a
// retriever: the passages reaching the model prove the gateway process wires retrieval itself.
// The model (a loopback fake) answers with the texts of the passages in its prompt and never their
// titles, so the titles in a delivered answer can only come from the bot's sources line.
import crypto from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForMocker, type MockWechat } from "../../bot-gateway/channels/wechat/mock-puppet";
import { startGateway } from "../../bot-gateway/main";
import { deleteBot } from "../../server/bots/bot-delete.service";
import type { TBotChannel } from "../../server/bots/bots.schema";
import { createWecomCallbackRouter } from "../../server/bots/platforms/wecom/wecom-callback.http";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { bumpRevision } from "../../server/knowledge/indexing.repository";
import { indexTrainingSet } from "../../server/knowledge/indexing.service";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import { getFileStore } from "../../server/uploads/file-store";
import type { TTestActor } from "../helpers/apps";
import { botRow, botUses, makeBotOwner, makeTestBot, testGatewayOptions, waitFor } from "../helpers/bots";
import { startFakeDingtalk, type TFakeDingtalk } from "../fakes/fake-dingtalk";
import { makeFeishuApp, startFakeFeishu, type TFakeFeishu, type TFeishuSent } from "../fakes/fake-feishu";
import { startFakeOpenai } from "../fakes/fake-openai";
import { buildWecomCallback, buildWecomVerification, startFakeWecom, wecomTextXml, type TFakeWecom } from "../fakes/fake-wecom";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

const run = crypto.randomBytes(3).toString("hex");
const uid = () => crypto.randomBytes(4).toString("hex");

// Facts no model could know, one in each training set.
const QA_QUESTION = "What is the wifi password?";
const WIFI = "tangerine-4409";
const DOC_NAME = "office-handbook.txt";
const CAT = "Quokka-7731";
const DOC_TEXT = `The Zelin office cat is named ${CAT}. She sleeps on the printer of the third floor.`;
const QUESTION = "What is the wifi password, and what is the office cat called?";
const OFF_TOPIC = "How tall is Mount Kilimanjaro?";
const NO_NOTES = "I have no notes about that.";

/** The English references line up to its list of titles ("Sources:"), as the owner's bots write it. */
function sourcesLabel(): string {
  const locale = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../public/locales/en/bots.json"), "utf8")) as { reply?: { sources?: string } };
  const template = locale.reply?.sources;
  expect(template, "bots:reply.sources in the English locale").toBeTruthy();
  return template!.split("{{")[0]!.trim();
}

/** The fake model's answer: the texts of the numbered passages in its system prompt (not their titles), or that it has none. */
function answerFromPrompt(body: any): string {
  const system = ((body?.messages ?? []) as { role: string; content: unknown }[])
    .filter((m) => m.role === "system")
    .map((m) => String(m.content))
    .join("\n\n");
  // A passage is a "[n] title" line, then its text up to a blank line.
  const texts: string[] = [];
  let current: string[] | null = null;
  const close = () => {
    if (current?.length) texts.push(current.join(" "));
    current = null;
  };
  for (const line of system.split("\n")) {
    if (/^\[\d+\] /.test(line)) {
      close();
      current = [];
    } else if (!line.trim()) close();
    else current?.push(line.trim());
  }
  close();
  return texts.length ? `From my notes: ${texts.join(" ")}` : NO_NOTES;
}

const lastUserText = (body: any) =>
  String(((body?.messages ?? []) as { role: string; content: unknown }[]).filter((m) => m.role === "user").at(-1)?.content ?? "");

/** Polls `read` until what it returns has not changed for a while (a streamed card gets its last patch). */
async function settled(read: () => string, quietMs = 800, ms = 15_000) {
  let last = read();
  let since = Date.now();
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    const now = read();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) break;
  }
  return last;
}

// The platforms -----------------------------------------------------------------------------------

const WECOM_APP = { corpId: `ww${run}kn`, agentId: "1000017", secret: `wecom-secret-${run}` };
const WECOM_KEYS = { corpId: WECOM_APP.corpId, agentId: WECOM_APP.agentId, token: `tok${run}`, encodingAesKey: `${run}${"q".repeat(43)}`.slice(0, 43) };
const DING_APP = { clientId: `ding${run}kn`, clientSecret: `ding-secret-${run}` };
const FEISHU_APP = makeFeishuApp();

let upstream: Awaited<ReturnType<typeof startFakeOpenai>>;
let wecom: TFakeWecom;
let dingtalk: TFakeDingtalk;
let feishu: TFakeFeishu;
/** The web process's WeCom callback route, alone (see startWecomCallbacks). */
let web: { base: string; close: () => Promise<void> };
let gateway: Awaited<ReturnType<typeof startGateway>>;
const mockers = new Map<string, MockWechat>();

/**
 * The web process's WeCom callback route, which queues WeCom's messages for the gateway. Only that
 * route: the whole API router belongs to the web process and would wire the web's retrieval into
 * this process, hiding whether the gateway wires its own.
 */
async function startWecomCallbacks() {
  const app = express();
  app.use("/api", createWecomCallbackRouter());
  const server = http.createServer(app).listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** What a Feishu user sees of the bot's answer cards: each card's last version, its markdown. */
function feishuText(sent: TFeishuSent[]) {
  return sent
    .map((s) => {
      const content = s.patches.at(-1)?.content ?? s.content;
      if (s.msgType !== "interactive") return String(content?.text ?? "");
      return ((content?.body?.elements ?? []) as { content?: unknown }[]).map((e) => (typeof e.content === "string" ? e.content : "")).join("\n");
    })
    .join("\n");
}

type TChannelCase = {
  channel: TBotChannel;
  credentials: () => Record<string, unknown>;
  /** After the gateway took the bot: what the platform needs before the bot talks. */
  connect: (botId: string) => Promise<void>;
  /** Someone writes `text` to the bot; reads what they were sent back, as one text. */
  ask: (botId: string, who: string, text: string) => Promise<() => string>;
};

const online = async (botId: string) => {
  await waitFor(async () => (await botRow(botId)).state === "online", 20_000, "the bot online");
};

const CASES: TChannelCase[] = [
  {
    channel: "wechat",
    credentials: () => ({}),
    async connect(botId) {
      const wx = await waitForMocker(botId, { timeoutMs: 20_000 });
      wx.login("Office helper");
      await online(botId);
      mockers.set(botId, wx);
    },
    async ask(botId, who, text) {
      const wx = mockers.get(botId)!;
      const contact = wx.contact(`${who} ${run}`);
      wx.say(contact, text);
      return () => wx.said(contact.id).join("\n");
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
      const res = await fetch(`${web.base}/api/v1/bots/${botId}/wecom?${buildWecomVerification(WECOM_KEYS, "4242")}`);
      expect(res.status).toBe(200);
      await online(botId);
    },
    async ask(botId, who, text) {
      const { query, body } = buildWecomCallback(
        WECOM_KEYS,
        wecomTextXml({ corpId: WECOM_APP.corpId, agentId: WECOM_APP.agentId, from: who, content: text, msgId: `${Date.now()}${crypto.randomInt(1000)}` }),
      );
      const res = await fetch(`${web.base}/api/v1/bots/${botId}/wecom?${query}`, { method: "POST", headers: { "content-type": "text/xml" }, body });
      expect(res.status).toBe(200);
      return () =>
        wecom.sent
          .filter((s) => s.to === who)
          .map((s) => s.content)
          .join("\n");
    },
  },
  {
    channel: "dingtalk",
    credentials: () => ({ client_id: DING_APP.clientId, client_secret: DING_APP.clientSecret }),
    connect: online,
    async ask(_botId, who, text) {
      const msg = dingtalk.robotMessage({ robotCode: DING_APP.clientId, senderStaffId: `staff-${who}`, senderNick: who, text: { content: text } });
      dingtalk.deliver(msg);
      return () =>
        dingtalk.webhookPosts
          .filter((p) => p.conversationId === msg.conversationId)
          .map((p) => (p.body.markdown as { text: string }).text)
          .join("\n");
    },
  },
  {
    channel: "feishu",
    credentials: () => ({ app_id: FEISHU_APP.appId, app_secret: FEISHU_APP.appSecret }),
    connect: online,
    async ask(_botId, who, text) {
      const e = feishu.messageEvent(FEISHU_APP.appId, { chatType: "p2p", sender: { openId: `ou_${crypto.randomBytes(16).toString("hex")}`, name: who }, text });
      expect((await feishu.push(FEISHU_APP.appId, e.body)).payload.code).toBe(200);
      return () => feishuText(feishu.repliesTo(e.messageId));
    },
  },
];

// Each channel's bot: its own owner, training sets, model and agent -------------------------------

type TKnowledgeBot = { owner: TTestActor; botId: string; appId: string; key: string };
const bots = new Map<TBotChannel, TKnowledgeBot>();

/** A Q&A set and a smart-text set of `owner`, both trained. */
async function makeTrainingSets(owner: TTestActor) {
  const db = getDb();
  const qa = await db.trainingSet.create({
    data: {
      ownerAccountId: owner.id,
      name: "Office Q&A",
      type: "standard",
      qaItems: { create: [{ question: QA_QUESTION, answer: `The wifi password is ${WIFI}.`, position: 0 }] },
    },
  });
  const text = await db.trainingSet.create({ data: { ownerAccountId: owner.id, name: "Office handbook", type: "smart" } });
  const fileKey = `training/${owner.id}/${uid()}.txt`;
  await getFileStore().put(fileKey, Buffer.from(DOC_TEXT), "text/plain");
  await db.trainingDocument.create({ data: { trainingSetId: text.id, name: DOC_NAME, fileKey, mime: "text/plain", size: Buffer.byteLength(DOC_TEXT) } });
  for (const id of [qa.id, text.id]) expect(await indexTrainingSet(id, await bumpRevision(id))).toBe("done");
  return [qa.id, text.id];
}

/** A model served by the fake upstream, answering from its prompt; its channel key tells its requests apart. */
async function makeAnsweringModel(channel: TBotChannel) {
  const modelKey = `bk-${channel}-${run}`;
  const key = `sk-${modelKey}`;
  await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "知识问答", supports_tools: false, supports_reasoning: false }));
  await createChannel(ZCreateChannelInput.parse({ name: `ch ${modelKey}`, type: "openai", base_url: upstream.base, key, models: [modelKey], weight: 1 }));
  upstream.setBehaviour(key, { reply: answerFromPrompt });
  return { modelKey, key };
}

async function makeKnowledgeBot(c: TChannelCase): Promise<TKnowledgeBot> {
  const owner = await makeBotOwner();
  const trainingSetIds = await makeTrainingSets(owner);
  const { modelKey, key } = await makeAnsweringModel(c.channel);
  const bot = await makeTestBot(owner, {
    channel: c.channel,
    name: "Office helper",
    credentials: c.credentials(),
    agentConfig: { model_key: modelKey, training_set_ids: trainingSetIds, show_reasoning: false },
  });
  return { owner, botId: bot.botId, appId: bot.appId, key };
}

/** The model's request for the turn that answered `question`. */
const requestAbout = (key: string, question: string) =>
  waitFor(() => upstream.receivedFor(key).find((r) => lastUserText(r.body) === question), 30_000, "the model's request");

/** The passages the turn stored on the assistant message of the dialogue the bot's use was counted on. */
async function storedPassages(appId: string, visitors: number) {
  const uses = await waitFor(
    async () => {
      const u = await botUses(appId);
      return u.length >= visitors ? u : null;
    },
    10_000,
    "the bot's use",
  );
  const dialogueId = uses.at(-1)!.dialogueId!;
  const answer = await getDb().chatMessage.findFirstOrThrow({ where: { dialogueId, role: "assistant" }, orderBy: { createdAt: "desc" } });
  return answer.retrieve as { title: string; text: string }[];
}

const saved = { WECOM_API_BASE: process.env.WECOM_API_BASE, DINGTALK_API_BASE: process.env.DINGTALK_API_BASE, FEISHU_DOMAIN: process.env.FEISHU_DOMAIN };

beforeAll(async () => {
  upstream = await startFakeOpenai();
  wecom = await startFakeWecom({ apps: [WECOM_APP] });
  dingtalk = await startFakeDingtalk(DING_APP);
  feishu = await startFakeFeishu({ apps: [FEISHU_APP] });
  process.env.WECOM_API_BASE = wecom.base;
  process.env.DINGTALK_API_BASE = dingtalk.base;
  process.env.FEISHU_DOMAIN = feishu.base;
  resetEnvCache();
  web = await startWecomCallbacks();
  for (const c of CASES) bots.set(c.channel, await makeKnowledgeBot(c));
  // As the bot gateway process starts: its own wiring, then the bots (only this file's, test timings).
  gateway = await startGateway(testGatewayOptions());
  for (const c of CASES) await c.connect(bots.get(c.channel)!.botId);
});

afterAll(async () => {
  await gateway?.stop();
  for (const b of bots.values()) await deleteBot(b.owner, b.botId);
  await web?.close();
  await Promise.all([upstream?.close(), wecom?.close(), dingtalk?.close(), feishu?.close()]);
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
});

describe.each(CASES)("a $channel bot with training sets", (c) => {
  it("answers from both sets: the passages are in the model's prompt, the facts in the answer, their titles in its sources line", async () => {
    const bot = bots.get(c.channel)!;
    const reply = await c.ask(bot.botId, `asker-${c.channel}`, QUESTION);
    const request = await requestAbout(bot.key, QUESTION);
    await waitFor(() => reply().includes(answerFromPrompt(request.body)), 30_000, "the answer delivered");
    const delivered = await settled(reply);

    // Retrieval happened in the gateway process: each set's passage went to the model.
    const prompt = JSON.stringify(request.body.messages);
    expect(prompt, "the Q&A set's passage in the model's prompt").toContain(WIFI);
    expect(prompt, "the smart-text set's passage in the model's prompt").toContain(CAT);

    expect(delivered).toContain(WIFI);
    expect(delivered).toContain(CAT);

    const passages = await storedPassages(bot.appId, 1);
    const titles = passages.map((p) => p.title);
    expect(titles).toEqual(expect.arrayContaining([QA_QUESTION, DOC_NAME]));
    const label = sourcesLabel();
    const at = delivered.lastIndexOf(label);
    expect(at, `a "${label}" line after the answer`).toBeGreaterThan(delivered.indexOf(WIFI));
    for (const title of titles) expect(delivered.slice(at)).toContain(title);
  });

  it("answers a question no passage matches without a sources line", async () => {
    const bot = bots.get(c.channel)!;
    const reply = await c.ask(bot.botId, `stranger-${c.channel}`, OFF_TOPIC);
    const request = await requestAbout(bot.key, OFF_TOPIC);
    await waitFor(() => reply().includes(NO_NOTES), 30_000, "the answer delivered");
    const delivered = await settled(reply);

    const prompt = JSON.stringify(request.body.messages);
    expect(prompt).not.toContain(WIFI);
    expect(prompt).not.toContain(CAT);
    expect(await storedPassages(bot.appId, 2)).toEqual([]);
    expect(delivered).not.toContain(sourcesLabel());
    expect(delivered).not.toContain(QA_QUESTION);
    expect(delivered).not.toContain(DOC_NAME);
  });
});
