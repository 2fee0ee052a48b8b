// The DingTalk robot channel against a loopback DingTalk (tests/fakes/fake-dingtalk.ts) speaking the
// stream protocol and the OpenAPI: first the channel on its own (connection, ACKs, replies, cards,
// reconnects), then through the gateway core with a live agent.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDingtalkChannel } from "../../bot-gateway/channels/dingtalk";
import type { Channel, TChannelHealth, TInboundMessage } from "../../bot-gateway/core/channel";
import type { TGateway } from "../../bot-gateway/core/gateway";
import { saveSchedule } from "../../server/bots/bot-schedules.service";
import { ZScheduleInput } from "../../server/bots/bots.schema";
import type { TCardReply } from "../../server/bots/platforms/dingtalk/ai-card";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import type { TTestActor } from "../helpers/apps";
import { botRow, botUses, makeBotOwner, makeTestBot, startTestGateway, waitFor } from "../helpers/bots";
import { startFakeDingtalk, type TFakeDingtalk } from "../fakes/fake-dingtalk";
import { startFakeOpenai } from "../fakes/fake-openai";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

const run = Math.random().toString(36).slice(2, 8);
const APP = { clientId: `ding${run}a`, clientSecret: `s3cr3t-client-secret-${run}` };

const until = <T>(fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 10_000) => waitFor(fn, ms) as Promise<T>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fake: TFakeDingtalk;
const open: Channel[] = [];

beforeAll(async () => {
  fake = await startFakeDingtalk(APP);
  process.env.DINGTALK_API_BASE = fake.base;
  resetEnvCache();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.disconnect()));
  fake.setRefuseConnections(false);
});
afterAll(async () => {
  await fake.close();
  delete process.env.DINGTALK_API_BASE;
  resetEnvCache();
});

type TRecorder = { messages: TInboundMessage[]; health: TChannelHealth[]; onMessage?: (m: TInboundMessage) => Promise<void> };

function makeChannel(credentials: Record<string, unknown> = { client_id: APP.clientId, client_secret: APP.clientSecret, card_template_id: "" }) {
  const channel = createDingtalkChannel({ botId: "bot_dingtalk_test", name: "Helper", credentials });
  open.push(channel);
  const rec: TRecorder = { messages: [], health: [] };
  const hooks = {
    async onMessage(m: TInboundMessage) {
      rec.messages.push(m);
      await rec.onMessage?.(m);
    },
    async onGreeting() {},
    onHealth(h: TChannelHealth) {
      rec.health.push(h);
    },
  };
  return { channel, rec, hooks };
}

describe("DingTalk channel: the stream connection", () => {
  it("connects with the app's credentials, subscribes to robot messages, answers pings and goes online", async () => {
    const before = fake.connectionOpens.length;
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    expect(channel.health()).toEqual({ state: "online" });
    expect(rec.health.at(-1)).toEqual({ state: "online" });
    expect(fake.connectionOpens.slice(before)).toEqual([{ clientId: APP.clientId, subscriptions: [{ type: "CALLBACK", topic: "/v1.0/im/bot/messages/get" }] }]);
    const pong = await fake.ping();
    expect(pong.code).toBe(200);
    expect(JSON.parse(pong.data)).toHaveProperty("opaque");
  });

  it("refused credentials: connect() rejects, the health says why, and it does not keep knocking", async () => {
    const { channel, rec, hooks } = makeChannel({ client_id: APP.clientId, client_secret: "wrong" });
    const before = fake.connectionAttempts();
    await expect(channel.connect(hooks)).rejects.toMatchObject({ code: "credentials_refused" });
    expect(rec.health.at(-1)).toEqual({ state: "offline", detail: "detail.credentials_refused" });
    await sleep(1500);
    // One try; the gateway core decides when to try again.
    expect(fake.connectionAttempts()).toBe(before + 1);
    expect(fake.liveConnections()).toBe(0);
  });

  it("no credentials at all: refused the same way, without asking DingTalk", async () => {
    const { channel, hooks } = makeChannel({ client_id: "", client_secret: " " });
    const before = fake.connectionAttempts("");
    await expect(channel.connect(hooks)).rejects.toMatchObject({ code: "credentials_refused" });
    expect(channel.health()).toEqual({ state: "offline", detail: "detail.credentials_refused" });
    expect(fake.connectionAttempts("")).toBe(before);
  });

  it("DingTalk unreachable at first: connect() resolves offline reconnecting, and the channel comes online when it can", async () => {
    fake.setRefuseConnections(true);
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    expect(channel.health()).toEqual({ state: "offline", detail: "detail.reconnecting" });
    fake.setRefuseConnections(false);
    await until(() => channel.health().state === "online", 5000);
    expect(rec.health.map((h) => h.state)).toEqual(["offline", "online"]);
  });

  it("a dropped socket: offline reconnecting, then back online on a new connection that delivers the next message", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    const opened = fake.connectionsOpened;
    fake.dropSockets();
    await until(() => rec.health.at(-1)?.detail === "detail.reconnecting");
    expect(channel.health().state).toBe("offline");
    await until(() => channel.health().state === "online", 5000);
    expect(fake.connectionsOpened).toBe(opened + 1);
    const id = fake.deliver(fake.robotMessage({ text: { content: "after the drop" } }));
    await until(() => fake.isAcked(id));
    expect(rec.messages.map((m) => m.text)).toEqual(["after the drop"]);
  });

  it("backs off while DingTalk stays away (1 s, then 2 s...), reporting offline throughout", async () => {
    const { channel, hooks } = makeChannel();
    await channel.connect(hooks);
    fake.setRefuseConnections(true);
    const attemptsBefore = fake.connectionAttempts();
    fake.dropSockets();
    await sleep(2300);
    // Attempts at ~1 s and ~3 s (1 s, then 2 s more, each ±20 %): one by now, not one a second.
    expect(fake.connectionAttempts() - attemptsBefore).toBe(1);
    expect(channel.health()).toEqual({ state: "offline", detail: "detail.reconnecting" });
    await sleep(2000);
    expect(fake.connectionAttempts() - attemptsBefore).toBe(2);
    fake.setRefuseConnections(false);
    const opensBefore = fake.connectionOpens.length;
    await until(() => channel.health().state === "online", 6000);
    expect(fake.connectionOpens.length).toBe(opensBefore + 1);
  });

  it("a disconnect frame (DingTalk moving the connection): a new connection at once, without going offline", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    const opened = fake.connectionsOpened;
    const reports = rec.health.length;
    fake.sendDisconnect(60_000);
    await until(() => fake.connectionsOpened === opened + 1, 3000);
    await until(() => fake.liveConnections() === 1, 3000);
    expect(rec.health.slice(reports)).toEqual([]);
    expect(channel.health().state).toBe("online");
  });

  it("disconnect() ends the connection for good", async () => {
    const { channel, hooks } = makeChannel();
    await channel.connect(hooks);
    const opened = fake.connectionsOpened;
    await channel.disconnect();
    await until(() => fake.liveConnections() === 0);
    await sleep(1500);
    expect(fake.connectionsOpened).toBe(opened);
  });
});

describe("DingTalk channel: messages in", () => {
  it("a one-to-one text message reaches the core with its sender, conversation and reply context, and is ACKed", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    const msg = fake.robotMessage({ text: { content: " what is Zelin? " } });
    const id = fake.deliver(msg);
    await until(() => fake.isAcked(id));
    expect(rec.messages).toHaveLength(1);
    expect(rec.messages[0]).toMatchObject({
      externalId: msg.msgId,
      sender: { id: "staff001", name: "Li Lei" },
      conversation: { kind: "contact", id: "staff001" },
      text: "what is Zelin?",
      mentionedBot: true,
      replyContext: {
        sessionWebhook: msg.sessionWebhook,
        conversationId: msg.conversationId,
        conversationType: "1",
        robotCode: APP.clientId,
        senderStaffId: "staff001",
      },
    });
    expect(fake.acks.get(id)![0]).toMatchObject({ code: 200, headers: { messageId: id }, message: "OK" });
  });

  it("acknowledges only once the core has taken the message; a message the core failed on is not ACKed and comes again", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    let fail = true;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    rec.onMessage = async () => {
      await gate;
      if (fail) throw new Error("database away");
    };
    const id = fake.deliver(fake.robotMessage());
    await until(() => rec.messages.length === 1);
    await sleep(100);
    expect(fake.isAcked(id)).toBe(false);
    release();
    await sleep(200);
    expect(fake.isAcked(id)).toBe(false);
    fail = false;
    expect(fake.redeliverUnacked()).toEqual([id]);
    await until(() => fake.isAcked(id));
    expect(rec.messages.map((m) => m.externalId)).toEqual([rec.messages[0].externalId, rec.messages[0].externalId]);
  });

  it("group messages: the group is the conversation; mentioned only when the robot is @-ed, with the mention removed", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    const a = fake.deliver(fake.robotMessage({ conversationType: "2", isInAtList: false, text: { content: "chatting among ourselves" } }));
    const b = fake.deliver(
      fake.robotMessage({ conversationType: "2", conversationId: "cidGroup1==", isInAtList: true, text: { content: "@Helper what is Zelin?" } }),
    );
    await until(() => fake.isAcked(a) && fake.isAcked(b));
    expect(rec.messages.map((m) => [m.conversation.kind, m.mentionedBot, m.text])).toEqual([
      ["group", false, "chatting among ourselves"],
      ["group", true, "what is Zelin?"],
    ]);
    expect(rec.messages[1].conversation).toMatchObject({ kind: "group", id: "cidGroup1==", name: "Test group" });
  });

  it("a frame that is not JSON, or a callback whose data is not, changes nothing: the next message is handled", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    fake.sendRaw("{not json");
    fake.sendRaw(
      JSON.stringify({
        specVersion: "1.0",
        type: "CALLBACK",
        headers: { messageId: "m-bad", topic: "/v1.0/im/bot/messages/get", contentType: "application/json" },
        data: "<xml/>",
      }),
    );
    const id = fake.deliver(fake.robotMessage({ text: { content: "still here" } }));
    await until(() => fake.isAcked(id));
    expect(rec.messages.map((m) => m.text)).toEqual(["still here"]);
    expect(channel.health().state).toBe("online");
  });

  it("pictures and files are ACKed and not passed on", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    const id = fake.deliver(fake.robotMessage({ msgtype: "picture", text: undefined, content: { downloadCode: "abc" } }));
    await until(() => fake.isAcked(id));
    expect(rec.messages).toEqual([]);
  });
});

describe("DingTalk channel: answers out", () => {
  it("replies through the session webhook as markdown, long text split within 5000 characters", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    const msg = fake.robotMessage();
    fake.deliver(msg);
    await until(() => rec.messages.length === 1);
    const before = fake.webhookPosts.length;
    await channel.reply(rec.messages[0], { text: "## Hours\n\nWe open at **9**." });
    const long = Array.from({ length: 700 }, (_, i) => `Sentence ${i} of a long answer.`).join(" ");
    await channel.reply(rec.messages[0], { text: long });
    const posts = fake.webhookPosts.slice(before);
    expect(posts[0].body).toEqual({ msgtype: "markdown", markdown: { title: "Hours", text: "## Hours\n\nWe open at **9**." } });
    expect(posts.length).toBeGreaterThanOrEqual(1 + 5);
    const pieces = posts.slice(1).map((p) => (p.body.markdown as { text: string }).text);
    for (const p of pieces) expect([...p].length).toBeLessThanOrEqual(5000);
    expect(pieces.join(" ")).toBe(long);
    expect(posts.every((p) => p.conversationId === msg.conversationId)).toBe(true);
  });

  it("a lapsed session webhook: the answer goes through the robot OpenAPI (batchSend one to one, groupMessages/send in a group)", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    fake.deliver(fake.robotMessage({ sessionWebhookExpiredTime: Date.now() - 1000, senderStaffId: "staff777" }));
    fake.deliver(fake.robotMessage({ conversationType: "2", conversationId: "cidLapsed==", isInAtList: true, sessionWebhookExpiredTime: Date.now() - 1000 }));
    await until(() => rec.messages.length === 2);
    const [b, g, w] = [fake.batchSends.length, fake.groupSends.length, fake.webhookPosts.length];
    await channel.reply(rec.messages[0], { text: "to you" });
    await channel.reply(rec.messages[1], { text: "to the group" });
    expect(fake.webhookPosts.length).toBe(w);
    expect(fake.batchSends.slice(b)).toEqual([
      { robotCode: APP.clientId, userIds: ["staff777"], msgKey: "sampleMarkdown", msgParam: JSON.stringify({ title: "to you", text: "to you" }) },
    ]);
    expect(fake.groupSends.slice(g)).toEqual([
      {
        robotCode: APP.clientId,
        openConversationId: "cidLapsed==",
        msgKey: "sampleMarkdown",
        msgParam: JSON.stringify({ title: "to the group", text: "to the group" }),
      },
    ]);
  });

  it("send(): contacts through batchSend and groups through groupMessages/send, with one cached token for all", async () => {
    const { channel } = makeChannel();
    // A channel that does not hold the connection can still send (it needs only its credentials).
    fake.expireTokens();
    const tokensBefore = fake.tokenRequests;
    const [b, g] = [fake.batchSends.length, fake.groupSends.length];
    await Promise.all([
      channel.send({ kind: "contact", id: "staff002" }, { text: "Good morning" }),
      channel.send({ kind: "group", id: "cidDaily==" }, { text: "# Daily\nnews" }),
      channel.send({ kind: "group", id: "cidOther==" }, { text: "more" }),
    ]);
    expect(fake.tokenRequests).toBe(tokensBefore + 1);
    expect(fake.batchSends.slice(b).map((s) => s.userIds)).toEqual([["staff002"]]);
    expect(fake.groupSends.slice(g).map((s) => [s.openConversationId, JSON.parse(String(s.msgParam)).title])).toEqual([
      ["cidDaily==", "Daily"],
      ["cidOther==", "more"],
    ]);
    await channel.send({ kind: "contact", id: "staff002" }, { text: "again" });
    expect(fake.tokenRequests).toBe(tokensBefore + 1);
  });

  it("a token DingTalk stops accepting is fetched again once", async () => {
    const { channel } = makeChannel();
    await channel.send({ kind: "group", id: "cidA==" }, { text: "one" });
    const tokensBefore = fake.tokenRequests;
    fake.expireTokens();
    await channel.send({ kind: "group", id: "cidA==" }, { text: "two" });
    expect(fake.tokenRequests).toBe(tokensBefore + 1);
    expect(JSON.parse(String(fake.groupSends.at(-1)!.msgParam)).text).toBe("two");
  });

  it("a send DingTalk refuses fails loudly (the core records the failure)", async () => {
    const { channel } = makeChannel({ client_id: APP.clientId, client_secret: "wrong" });
    await expect(channel.send({ kind: "group", id: "cidA==" }, { text: "x" })).rejects.toMatchObject({ name: "DingtalkApiError", status: 400 });
  });

  it("no card template: no streaming reply", async () => {
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    fake.deliver(fake.robotMessage());
    await until(() => rec.messages.length === 1);
    expect(await channel.startStreamingReply!(rec.messages[0])).toBeNull();
  });

  it("with a card template: an AI card delivered to the chat, streamed at most every ~300 ms, finalized with the whole text", async () => {
    const { channel, rec, hooks } = makeChannel({ client_id: APP.clientId, client_secret: APP.clientSecret, card_template_id: "tpl-ai-card.schema" });
    await channel.connect(hooks);
    fake.deliver(fake.robotMessage({ senderStaffId: "staff042" }));
    fake.deliver(fake.robotMessage({ conversationType: "2", conversationId: "cidCards==", isInAtList: true }));
    await until(() => rec.messages.length === 2);

    const reply = (await channel.startStreamingReply!(rec.messages[0])) as TCardReply;
    expect(reply).not.toBeNull();
    const card = fake.cards.get(reply.outTrackId)!;
    expect(card.create).toMatchObject({
      cardTemplateId: "tpl-ai-card.schema",
      outTrackId: reply.outTrackId,
      cardData: { cardParamMap: { content: "" } },
      openSpaceId: "dtv1.card//IM_ROBOT.staff042",
      imRobotOpenDeliverModel: { spaceType: "IM_ROBOT", robotCode: APP.clientId },
    });
    let text = "";
    for (let i = 0; i < 30; i++) {
      text += `word${i} `;
      await reply.update(text);
      await sleep(40);
    }
    await reply.finish(`${text}done.`);
    const updates = card.updates;
    expect(updates.length).toBeGreaterThanOrEqual(3);
    // Far fewer than the 30 updates the agent made, each the whole text so far, growing.
    expect(updates.length).toBeLessThan(10);
    for (const u of updates) expect(u).toMatchObject({ key: "content", isFull: true, isError: false });
    for (let i = 1; i < updates.length; i++) {
      expect(updates[i].content.startsWith(updates[i - 1].content.trim())).toBe(true);
      if (i < updates.length - 1) expect(updates[i].at - updates[i - 1].at).toBeGreaterThanOrEqual(250);
    }
    expect(updates.filter((u) => u.isFinalize)).toHaveLength(1);
    expect(updates.at(-1)).toMatchObject({ content: `${text}done.`, isFinalize: true });
    expect(new Set(updates.map((u) => u.guid)).size).toBe(updates.length);

    const groupReply = (await channel.startStreamingReply!(rec.messages[1])) as TCardReply;
    expect(fake.cards.get(groupReply.outTrackId)!.create).toMatchObject({
      openSpaceId: "dtv1.card//IM_GROUP.cidCards==",
      imGroupOpenDeliverModel: { robotCode: APP.clientId },
    });
    await groupReply.fail("Sorry, something went wrong.");
    expect(fake.cards.get(groupReply.outTrackId)!.updates).toEqual([
      expect.objectContaining({ content: "Sorry, something went wrong.", isFinalize: true, isError: true }),
    ]);
  });

  it("a card DingTalk refuses to finish: the answer goes through the session webhook instead", async () => {
    const { channel, rec, hooks } = makeChannel({ client_id: APP.clientId, client_secret: APP.clientSecret, card_template_id: "tpl" });
    await channel.connect(hooks);
    const msg = fake.robotMessage();
    fake.deliver(msg);
    await until(() => rec.messages.length === 1);
    const reply = (await channel.startStreamingReply!(rec.messages[0])) as TCardReply;
    await reply.update("partial");
    await until(() => fake.cards.get(reply.outTrackId)!.updates.length === 1);
    fake.breakCard(reply.outTrackId);
    await reply.finish("the whole answer");
    expect(fake.webhookPosts.filter((p) => p.conversationId === msg.conversationId).map((p) => (p.body.markdown as { text: string }).text)).toEqual([
      "the whole answer",
    ]);
  });

  it("a card that cannot be created (DingTalk refuses it): no streaming reply, so the answer goes as markdown", async () => {
    const { channel, rec, hooks } = makeChannel({ client_id: APP.clientId, client_secret: APP.clientSecret, card_template_id: "tpl" });
    await channel.connect(hooks);
    fake.deliver(fake.robotMessage({ conversationType: "2", conversationId: "cidBroken==", isInAtList: true }));
    await until(() => rec.messages.length === 1);
    const cards = fake.cards.size;
    // No group id makes no card space: DingTalk answers 400.
    const broken = {
      ...rec.messages[0],
      conversation: { kind: "group" as const, id: "" },
      replyContext: { ...(rec.messages[0].replyContext as object), conversationId: "" },
    };
    expect(await channel.startStreamingReply!(broken)).toBeNull();
    expect(fake.cards.size).toBe(cards);
  });
});

describe("DingTalk bots through the gateway", () => {
  const OUT_OF_SCOPE = "I only answer questions about Zelin.";
  const CARD_TEXT = "Zelin answers in a DingTalk AI card, piece by piece, while the agent writes.";
  const BOT_A = { clientId: `ding${run}b`, clientSecret: `secret-b-${run}` };
  const BOT_CARD = { clientId: `ding${run}c`, clientSecret: `secret-c-${run}` };
  const BOT_REFUSED = { clientId: `ding${run}r`, clientSecret: `secret-r-${run}` };
  let openai: Awaited<ReturnType<typeof startFakeOpenai>>;
  let gateway: TGateway;
  let owner: TTestActor;
  let bot: { botId: string; appId: string };
  let cardBot: { botId: string; appId: string };
  let refusedBot: { botId: string; appId: string };

  const postsTo = (conversationId: string) => fake.webhookPosts.filter((p) => p.conversationId === conversationId);
  const textOf = (p: { body: Record<string, unknown> }) => (p.body.markdown as { text: string }).text;
  const nonEmpty = <T>(list: T[]) => (list.length ? list : null);

  beforeAll(async () => {
    fake.addApp(BOT_A);
    fake.addApp(BOT_CARD);
    fake.addApp(BOT_REFUSED);
    openai = await startFakeOpenai();
    // The card bot's agent streams its answer slowly from a model upstream, as a real one does.
    const modelKey = `dt-card-${run}`;
    const key = `sk-dt-${run}`;
    await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "钉钉卡片", supports_tools: false, supports_reasoning: false }));
    await createChannel(ZCreateChannelInput.parse({ name: `ch ${modelKey}`, type: "openai", base_url: openai.base, key, models: [modelKey], weight: 1 }));
    openai.setBehaviour(key, { stream: { text: CARD_TEXT, chunks: 8, delayMs: 180 } });

    owner = await makeBotOwner();
    bot = await makeTestBot(owner, { channel: "dingtalk", name: "Helper", credentials: { client_id: BOT_A.clientId, client_secret: BOT_A.clientSecret } });
    cardBot = await makeTestBot(owner, {
      channel: "dingtalk",
      credentials: { ...BOT_CARD, client_id: BOT_CARD.clientId, client_secret: BOT_CARD.clientSecret, card_template_id: "ai-card-tpl.schema" },
      agentConfig: { model_key: modelKey },
    });
    refusedBot = await makeTestBot(await makeBotOwner(), {
      channel: "dingtalk",
      credentials: { client_id: BOT_REFUSED.clientId, client_secret: "not-the-secret" },
    });
    // Only DingTalk bots, and no queue: DingTalk's messages come down the stream, not through the web process.
    gateway = await startTestGateway({ factories: { dingtalk: createDingtalkChannel }, consumeQueue: false });
    await waitFor(async () => (await botRow(bot.botId)).state === "online" && (await botRow(cardBot.botId)).state === "online", 15_000, "the bots online");
  });

  afterAll(async () => {
    await gateway?.stop();
    await openai?.close();
  });

  it("a one-to-one message: the agent's answer as markdown through the session webhook, the message ACKed, the use recorded as a bot use", async () => {
    const msg = fake.robotMessage({ robotCode: BOT_A.clientId, senderStaffId: `staff-${run}-1`, text: { content: "hello" } });
    const id = fake.deliver(msg);
    const [post] = await waitFor(() => nonEmpty(postsTo(msg.conversationId)), 20_000, "the answer");
    expect(post.body).toEqual({ msgtype: "markdown", markdown: { title: "I only answer questions about…", text: OUT_OF_SCOPE } });
    await waitFor(() => fake.isAcked(id), 5000, "the ACK");
    const uses = await botUses(bot.appId);
    expect(uses).toHaveLength(1);
    expect(uses[0].source).toBe("bot");

    // DingTalk delivers the same message again (same msgId): ACKed again, answered once.
    fake.redeliver(id);
    await waitFor(() => (fake.acks.get(id)?.length ?? 0) === 2, 5000, "the second ACK");
    await sleep(300);
    expect(postsTo(msg.conversationId)).toHaveLength(1);
    expect(await botUses(bot.appId)).toHaveLength(1);
  });

  it("in a group (group_reply mention): not mentioned, no answer; mentioned, an answer in the group", async () => {
    const group = `cidGroup${run}==`;
    const quiet = fake.deliver(
      fake.robotMessage({
        robotCode: BOT_A.clientId,
        conversationType: "2",
        conversationId: group,
        isInAtList: false,
        senderStaffId: `staff-${run}-2`,
        text: { content: "just chatting" },
      }),
    );
    await waitFor(() => fake.isAcked(quiet), 10_000, "the ACK of the quiet message");
    await sleep(300);
    expect(postsTo(group)).toEqual([]);
    const asked = fake.deliver(
      fake.robotMessage({
        robotCode: BOT_A.clientId,
        conversationType: "2",
        conversationId: group,
        isInAtList: true,
        senderStaffId: `staff-${run}-2`,
        text: { content: "@Helper hello there" },
      }),
    );
    const posts = await waitFor(() => nonEmpty(postsTo(group)), 20_000, "the group answer");
    expect(posts.map(textOf)).toEqual([OUT_OF_SCOPE]);
    await waitFor(() => fake.isAcked(asked), 5000, "the ACK");
    const conv = await getDb().botConversation.findFirst({ where: { botId: bot.botId, kind: "group", externalId: group } });
    expect(conv?.sessionKey).toBe(`group:${group}:staff-${run}-2`);
  });

  it("with a card template: the answer streams into an AI card in several updates, the last finalized with the whole text", async () => {
    const msg = fake.robotMessage({ robotCode: BOT_CARD.clientId, senderStaffId: `staff-${run}-3`, text: { content: "tell me about cards" } });
    fake.deliver(msg);
    const card = await waitFor(
      () => [...fake.cards.values()].find((c) => c.create.openSpaceId === `dtv1.card//IM_ROBOT.staff-${run}-3` && c.updates.some((u) => u.isFinalize)),
      30_000,
      "the finalized card",
    );
    expect(card.create).toMatchObject({
      cardTemplateId: "ai-card-tpl.schema",
      imRobotOpenDeliverModel: { spaceType: "IM_ROBOT", robotCode: BOT_CARD.clientId },
    });
    expect(card.updates.length).toBeGreaterThanOrEqual(3);
    const last = card.updates.at(-1)!;
    expect(last).toMatchObject({ key: "content", isFull: true, isFinalize: true, isError: false });
    expect(last.content.replace(/\s+/g, " ").trim()).toBe(CARD_TEXT);
    for (let i = 1; i < card.updates.length; i++) expect(card.updates[i].content.length).toBeGreaterThanOrEqual(card.updates[i - 1].content.length);
    expect(card.updates.filter((u) => u.isFinalize)).toHaveLength(1);
    // The card is the answer: nothing through the session webhook.
    expect(postsTo(msg.conversationId)).toEqual([]);
    expect((await botUses(cardBot.appId)).map((u) => u.source)).toEqual(["bot"]);
  });

  it("the socket dropped: the bot shows offline while the channel reconnects, then online, and answers the next message", async () => {
    fake.dropSockets(BOT_A.clientId);
    await waitFor(async () => (await botRow(bot.botId)).stateDetail === "detail.reconnecting", 10_000, "offline, reconnecting");
    await waitFor(async () => (await botRow(bot.botId)).state === "online", 15_000, "back online");
    const msg = fake.robotMessage({ robotCode: BOT_A.clientId, senderStaffId: `staff-${run}-4`, text: { content: "are you back?" } });
    fake.deliver(msg);
    const posts = await waitFor(() => nonEmpty(postsTo(msg.conversationId)), 20_000, "the answer after the reconnect");
    expect(posts.map(textOf)).toEqual([OUT_OF_SCOPE]);
  });

  it("a scheduled message to a group goes out through groupMessages/send, once", async () => {
    const group = `cidSched${run}==`;
    const content = "## Daily news\n\nZelin has **news** for you.";
    await saveSchedule(
      owner,
      ZScheduleInput.parse({
        bot_id: bot.botId,
        content,
        targets: [{ kind: "group", id: group, name: "Daily" }],
        send_at: new Date(Date.now() + 500).toISOString(),
        loop: "once",
      }),
    );
    const sent = await waitFor(() => fake.groupSends.find((s) => s.openConversationId === group), 20_000, "the scheduled message");
    expect(sent).toMatchObject({ robotCode: BOT_A.clientId, msgKey: "sampleMarkdown" });
    expect(JSON.parse(String(sent.msgParam))).toEqual({ title: "Daily news", text: content });
    const delivery = await waitFor(
      () => getDb().botDelivery.findFirst({ where: { botId: bot.botId, kind: "scheduled", state: "sent" } }),
      10_000,
      "the delivery row",
    );
    expect(delivery.target).toMatchObject({ kind: "group", id: group });
    await sleep(800);
    expect(fake.groupSends.filter((s) => s.openConversationId === group)).toHaveLength(1);
  });

  it("refused credentials: the bot is offline with the reason, and no connection is held", async () => {
    const row = await waitFor(
      async () => {
        const r = await botRow(refusedBot.botId);
        return r.state === "offline" && r.stateDetail === "detail.credentials_refused" ? r : null;
      },
      15_000,
      "the refused bot offline",
    );
    expect(row.stateDetail).toBe("detail.credentials_refused");
    expect(fake.liveConnections(BOT_REFUSED.clientId)).toBe(0);
  });
});
