// A personal-WeChat bot end to end on wechaty's mock puppet (the platform we cannot reach): the
// in-process gateway takes the bot and connects it through wechaty; the test plays WeChat through
// the bot's Mocker (bot-gateway/channels/wechat/mock-puppet.ts): the QR shown, the owner's scan,
// contacts and groups writing, friend requests, people joining a group, the login lapsing, the
// puppet dying. The live agent's answers come back as plain text, split within 2000 characters,
// and each use is recorded as the bot's.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createWechatChannel } from "../../bot-gateway/channels/wechat";
import { waitForMocker, type MockWechat, type TContactMock } from "../../bot-gateway/channels/wechat/mock-puppet";
import { botVisitorId } from "../../bot-gateway/core/dispatcher";
import type { TGateway } from "../../bot-gateway/core/gateway";
import { deleteBot } from "../../server/bots/bot-delete.service";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import type { TTestActor } from "../helpers/apps";
import { botRow, botUses, makeBotOwner, makeTestBot, startTestGateway, waitFor } from "../helpers/bots";
import { startFakeOpenai } from "../fakes/fake-openai";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

vi.hoisted(() => {
  process.env.WECHATY_PUPPET = "wechaty-puppet-mock";
});

const run = Math.random().toString(36).slice(2, 8);
/** The agent's out-of-scope reply, in markdown: WeChat shows it flattened. */
const ANSWER_MD = "**Zelin** answers questions about [Zelin](https://zelinai.com) only.";
const ANSWER_PLAIN = "Zelin answers questions about Zelin (https://zelinai.com) only.";
const GREETING_MD = "欢迎使用 **泽林** 助手！";
const GREETING_PLAIN = "欢迎使用 泽林 助手！";
/** ~4,600 characters once flattened, from a model: at least three WeChat messages. */
const LONG_MD = Array.from({ length: 9 }, (_, i) => `## 第${i + 1}段\n\n${"**泽林**智能体在个人微信里回答问题。".repeat(30)}`).join("\n\n");

let gateway: TGateway;
let upstream: Awaited<ReturnType<typeof startFakeOpenai>>;
let owner: TTestActor;
let bot: { botId: string; appId: string };
let wx: MockWechat;
let alice: TContactMock;
/** Every bot this file makes, deleted at the end so other files' gateways do not take them. */
const made: Array<{ owner: TTestActor; botId: string }> = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const eventsOf = (botId: string, kind: string) => getDb().botEvent.findMany({ where: { botId, kind } });

/** A bot on a model served by the fake upstream, answering `text` (markdown) to anything. */
async function makeModelBot(text: string) {
  const modelKey = `wx-${run}-${Math.random().toString(36).slice(2, 6)}`;
  const key = `sk-${modelKey}`;
  await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "微信测试", supports_tools: true, supports_reasoning: false }));
  await createChannel(ZCreateChannelInput.parse({ name: `ch ${modelKey}`, type: "openai", base_url: upstream.base, key, models: [modelKey], weight: 1 }));
  upstream.setBehaviour(key, { stream: { text, chunks: 12 } });
  return makeWechatBot(await makeBotOwner(), { agentConfig: { model_key: modelKey, show_reasoning: false } });
}

async function makeWechatBot(who: TTestActor, o: Omit<Parameters<typeof makeTestBot>[1], "channel"> = {}) {
  const b = await makeTestBot(who, { channel: "wechat", ...o });
  made.push({ owner: who, botId: b.botId });
  return b;
}

beforeAll(async () => {
  resetEnvCache();
  upstream = await startFakeOpenai();
  owner = await makeBotOwner();
  bot = await makeWechatBot(owner, { greeting: GREETING_MD, agentConfig: { out_of_scope_reply: ANSWER_MD } });
  // Only personal-WeChat bots; webhook platforms' queue is not needed here.
  gateway = await startTestGateway({ factories: { wechat: createWechatChannel }, consumeQueue: false });
  wx = await waitForMocker(bot.botId, { timeoutMs: 15_000 });
});

afterAll(async () => {
  await gateway?.stop();
  for (const m of made) await deleteBot(m.owner, m.botId);
  await upstream?.close();
  delete process.env.WECHATY_PUPPET;
  resetEnvCache();
});

describe("login", () => {
  it("the QR code wechaty shows is the bot's login_qr (to be associated); a new one replaces it", async () => {
    wx.scan(`https://login.weixin.qq.com/l/first-${run}`);
    const first = await waitFor(
      async () => {
        const row = await botRow(bot.botId);
        return row.loginQr?.endsWith(`first-${run}`) ? row : null;
      },
      15_000,
      "the first QR",
    );
    expect(first).toMatchObject({ state: "to_be_associated", stateDetail: "detail.waiting_scan" });
    wx.scan(`https://login.weixin.qq.com/l/second-${run}`);
    await waitFor(async () => (await botRow(bot.botId)).loginQr?.endsWith(`second-${run}`), 10_000, "the second QR");
  });

  it("the owner scans: online, with the WeChat name and no QR", async () => {
    wx.login("泽林小助手");
    const row = await waitFor(
      async () => {
        const r = await botRow(bot.botId);
        return r.state === "online" ? r : null;
      },
      10_000,
      "online",
    );
    expect(row).toMatchObject({ loginName: "泽林小助手", loginQr: null, stateDetail: null });
    alice = wx.contact(`Alice ${run}`);
  });
});

describe("messages", () => {
  it("a contact's message is answered with the agent's reply as plain text, and the use is the bot's", async () => {
    wx.say(alice, "What is the weather like?");
    const said = await waitFor(() => wx.said(alice.id)[0], 20_000, "the reply");
    expect(said).toBe(ANSWER_PLAIN);
    const uses = await waitFor(
      async () => {
        const u = await botUses(bot.appId);
        return u.length ? u : null;
      },
      10_000,
      "the app_use row",
    );
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ source: "bot", visitorId: botVisitorId(bot.botId, alice.id), accountId: null });
    const conversation = await getDb().botConversation.findFirst({ where: { botId: bot.botId, externalId: alice.id } });
    expect(conversation).toMatchObject({ kind: "contact", sessionKey: `contact:${alice.id}`, name: `Alice ${run}` });
  });

  it("a message wechaty reports twice is answered once", async () => {
    const before = wx.said(alice.id).length;
    wx.say(alice, "hello again");
    await waitFor(() => wx.said(alice.id).length === before + 1, 20_000, "the reply");
    const last = [...wx.mocker.cacheMessagePayload.values()].filter((m) => m.talkerId === alice.id).at(-1)!;
    wx.puppet.emit("message", { messageId: last.id });
    await sleep(1_000);
    expect(wx.said(alice.id)).toHaveLength(before + 1);
    expect(await getDb().botInbound.count({ where: { botId: bot.botId, externalId: last.id } })).toBe(1);
  });

  it("in a group: no answer without a mention; with one, the answer is said in the group", async () => {
    const bob = wx.contact(`Bob ${run}`);
    const room = wx.room(`Zelin fans ${run}`, [alice, bob]);
    wx.sayInRoom(bob, room, "anyone here?");
    await sleep(1_500);
    expect(wx.said(room.id)).toEqual([]);
    wx.sayInRoom(bob, room, "what is Zelin?", { mention: true });
    await waitFor(() => wx.said(room.id).length === 1, 20_000, "the group answer");
    expect(wx.said(room.id)).toEqual([ANSWER_PLAIN]);
    expect(wx.said(bob.id)).toEqual([]);
    const conversation = await getDb().botConversation.findFirst({ where: { botId: bot.botId, sessionKey: `group:${room.id}:${bob.id}` } });
    expect(conversation).toMatchObject({ kind: "group", externalId: room.id, name: `Zelin fans ${run}` });
  });

  it("a long answer is split into messages of at most 2000 characters, in order, all of it", async () => {
    const long = await makeModelBot(LONG_MD);
    const lwx = await waitForMocker(long.botId, { timeoutMs: 15_000 });
    lwx.login("长答案机器人");
    await waitFor(async () => (await botRow(long.botId)).state === "online", 10_000, "online");
    const carol = lwx.contact(`Carol ${run}`);
    lwx.say(carol, "tell me everything");
    const expected = LONG_MD.replace(/^## /gm, "").replace(/\*\*/g, "");
    const said = await waitFor(
      () => {
        const s = lwx.said(carol.id);
        return s.join("").replace(/\s/g, "") === expected.replace(/\s/g, "") ? s : null;
      },
      30_000,
      "the whole answer",
    );
    expect([...expected].length).toBeGreaterThan(4_000);
    expect(said.length).toBeGreaterThanOrEqual(3);
    for (const piece of said) expect([...piece].length).toBeLessThanOrEqual(2000);
    expect(said[0]!.startsWith("第1段")).toBe(true);
    expect(said.join("")).not.toMatch(/\*\*|##/);
    expect(await botUses(long.appId)).toHaveLength(1);
  });
});

describe("greetings", () => {
  it("a friend request is accepted and the greeting said to the new friend once", async () => {
    const dave = wx.contact(`Dave ${run}`);
    const requestId = await wx.requestFriendship(dave, "hi, I am Dave");
    await waitFor(() => wx.said(dave.id).length === 1, 15_000, "the greeting");
    expect(wx.accepted()).toContain(requestId);
    expect(wx.said(dave.id)).toEqual([GREETING_PLAIN]);
    // WeChat confirming the same friendship again is not greeted again.
    wx.puppet.emit("friendship", { friendshipId: `${requestId}-confirm` });
    await sleep(1_000);
    expect(wx.said(dave.id)).toEqual([GREETING_PLAIN]);
    const deliveries = await getDb().botDelivery.findMany({ where: { botId: bot.botId, kind: "greeting" } });
    expect(deliveries.filter((d) => (d.target as { id?: string }).id === dave.id).map((d) => d.state)).toEqual(["sent"]);
  });

  it("someone joining a group the bot is in is greeted in the group once", async () => {
    const erin = wx.contact(`Erin ${run}`);
    const room = wx.room(`Welcome room ${run}`, [alice]);
    room.add(erin).by(alice);
    await waitFor(() => wx.said(room.id).length === 1, 15_000, "the group greeting");
    expect(wx.said(room.id)).toEqual([GREETING_PLAIN]);
    // The same join reported again: no second greeting.
    wx.puppet.emit("room-join", { roomId: room.id, inviteeIdList: [erin.id], inviterId: alice.id, timestamp: Date.now() });
    await sleep(1_000);
    expect(wx.said(room.id)).toEqual([GREETING_PLAIN]);
  });
});

describe("faults", () => {
  it("the puppet dies: offline while reconnecting, then a new puppet with a new QR", async () => {
    const other = await makeWechatBot(await makeBotOwner());
    const first = await waitForMocker(other.botId, { timeoutMs: 15_000 });
    first.login("会掉线的机器人");
    await waitFor(async () => (await botRow(other.botId)).state === "online", 10_000, "online");
    await first.kill();
    const down = await waitFor(
      async () => {
        const r = await botRow(other.botId);
        return r.state === "offline" ? r : null;
      },
      10_000,
      "offline",
    );
    expect(down.stateDetail).toBe("detail.reconnecting");
    expect(await eventsOf(other.botId, "login_lapsed")).toHaveLength(0);
    const second = await waitForMocker(other.botId, { after: first, timeoutMs: 10_000 });
    second.scan(`https://login.weixin.qq.com/l/again-${run}`);
    await waitFor(
      async () => {
        const r = await botRow(other.botId);
        return r.state === "to_be_associated" && r.loginQr?.endsWith(`again-${run}`);
      },
      10_000,
      "a new QR",
    );
  });

  it("the login lapses: offline with detail.login_lapsed, and the owner is told (bot_event login_lapsed)", async () => {
    await wx.logout();
    const row = await waitFor(
      async () => {
        const r = await botRow(bot.botId);
        return r.state === "offline" ? r : null;
      },
      10_000,
      "offline",
    );
    expect(row.stateDetail).toBe("detail.login_lapsed");
    const events = await waitFor(
      async () => {
        const e = await eventsOf(bot.botId, "login_lapsed");
        return e.length ? e : null;
      },
      10_000,
      "the owner's event",
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.readAt).toBeNull();
  });
});
