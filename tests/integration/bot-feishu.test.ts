// The Feishu (Lark) channel against a loopback Feishu (tests/fakes/fake-feishu.ts) speaking the
// open API, the long connection's protobuf frames and the webhook's encrypted, signed events:
// first the channel on its own (connection, ACKs, cards, streaming, reconnects), then through the
// gateway core with a live agent, in both connection modes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFeishuChannel } from "../../bot-gateway/channels/feishu";
import type { Channel, TChannelHealth, TGreetingTrigger, TInboundMessage } from "../../bot-gateway/core/channel";
import { saveSchedule } from "../../server/bots/bot-schedules.service";
import { ZScheduleInput } from "../../server/bots/bots.schema";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { startApiServer } from "../helpers/api-client";
import { botRow, botUses, makeBotOwner, makeTestBot, startTestGateway, waitFor } from "../helpers/bots";
import type { TTestActor } from "../helpers/apps";
import { startFakeFeishu, makeFeishuApp, type TFakeFeishu, type TFeishuSent } from "../fakes/fake-feishu";

const APP = makeFeishuApp();
const PLAIN_APP = makeFeishuApp({ encryptKey: "" });
/** The apps of the bots made through the gateway, one per bot (a Feishu app is one bot). */
const WS_APP = makeFeishuApp();
const HOOK_APP = makeFeishuApp();
const OUT_OF_SCOPE = "I only answer questions about Zelin.";
const ALICE = { openId: "ou_alice000000000000000000000001", name: "Alice" };
const BOB = { openId: "ou_bob00000000000000000000000002", name: "Bob" };

const until = <T>(fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 10_000) => waitFor(fn, ms) as Promise<T>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fake: TFakeFeishu;
const open: Channel[] = [];

beforeAll(async () => {
  // Feishu's own pace is minutes between reconnects; the fake asks for 1 s so the tests see them.
  fake = await startFakeFeishu({ apps: [APP, PLAIN_APP, WS_APP, HOOK_APP], clientConfig: { ReconnectInterval: 1, ReconnectNonce: 0 } });
  process.env.FEISHU_DOMAIN = fake.base;
  resetEnvCache();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.disconnect()));
  fake.refuse(APP.appId, false);
});
afterAll(async () => {
  await fake.close();
  delete process.env.FEISHU_DOMAIN;
  resetEnvCache();
});

type TRecorder = { messages: TInboundMessage[]; greetings: TGreetingTrigger[]; health: TChannelHealth[]; onMessage?: (m: TInboundMessage) => Promise<void> };

const credentialsOf = (app = APP, over: Record<string, unknown> = {}) => ({
  app_id: app.appId,
  app_secret: app.appSecret,
  mode: "websocket",
  encrypt_key: "",
  verification_token: "",
  stream_card: true,
  ...over,
});

function makeChannel(credentials: Record<string, unknown> = credentialsOf()) {
  const channel = createFeishuChannel({ botId: "bot_feishu_test", name: "Helper", credentials });
  open.push(channel);
  const rec: TRecorder = { messages: [], greetings: [], health: [] };
  const hooks = {
    async onMessage(m: TInboundMessage) {
      rec.messages.push(m);
      await rec.onMessage?.(m);
    },
    async onGreeting(g: TGreetingTrigger) {
      rec.greetings.push(g);
    },
    onHealth(h: TChannelHealth) {
      rec.health.push(h);
    },
  };
  return { channel, rec, hooks };
}

async function connected() {
  const made = makeChannel();
  await made.channel.connect(made.hooks);
  return made;
}

const markdownOf = (card: any): string[] => (card.body.elements as { tag: string; content: string }[]).map((e) => e.content);

describe("Feishu channel: the long connection", () => {
  it("pulls the endpoint with the app's credentials, opens the socket, answers pings, and goes online", async () => {
    const before = fake.requests.length;
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    expect(channel.health()).toEqual({ state: "online" });
    expect(rec.health.at(-1)).toEqual({ state: "online" });
    const calls = fake.requests.slice(before).map((r) => `${r.method} ${r.path} ${r.code}`);
    expect(calls).toEqual(["POST /open-apis/auth/v3/tenant_access_token/internal 0", "GET /open-apis/bot/v3/info 0", "POST /callback/ws/endpoint 0"]);
    expect(fake.connections(APP.appId)).toBe(1);
    await until(() => fake.pings(APP.appId) > 0);
  });

  it("refused credentials: connect() rejects, the health says why, and no connection is tried", async () => {
    const { channel, rec, hooks } = makeChannel(credentialsOf(APP, { app_secret: "wrong-secret" }));
    const before = fake.requests.length;
    await expect(channel.connect(hooks)).rejects.toMatchObject({ name: "FeishuApiError", code: 10014, refused: true });
    expect(rec.health.at(-1)).toEqual({ state: "offline", detail: "detail.credentials_refused" });
    await sleep(1500);
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual(["/open-apis/auth/v3/tenant_access_token/internal"]);
    expect(fake.connections(APP.appId)).toBe(0);
  });

  it("an app id that is not Feishu's (cli_ and 16 hex digits) is refused without a call", async () => {
    const { channel, hooks } = makeChannel(credentialsOf(APP, { app_id: "my-app" }));
    const before = fake.requests.length;
    await expect(channel.connect(hooks)).rejects.toMatchObject({ refused: true });
    expect(fake.requests.length).toBe(before);
  });

  it("Feishu unreachable at first: connect() resolves offline reconnecting, and the channel comes online when it can", async () => {
    fake.refuse(APP.appId, true);
    const { channel, rec, hooks } = makeChannel();
    await channel.connect(hooks);
    expect(channel.health()).toEqual({ state: "offline", detail: "detail.reconnecting" });
    fake.refuse(APP.appId, false);
    await until(() => channel.health().state === "online", 8000);
    expect(rec.health.map((h) => h.state)).toEqual(["offline", "online"]);
    expect(fake.connections(APP.appId)).toBe(1);
  });

  it("a dropped socket: offline reconnecting while the SDK reconnects, then online on a new socket that delivers the next event", async () => {
    const { channel, rec } = await connected();
    fake.refuse(APP.appId, true);
    fake.drop(APP.appId);
    await until(() => rec.health.at(-1)?.detail === "detail.reconnecting");
    expect(channel.health()).toEqual({ state: "offline", detail: "detail.reconnecting" });
    await sleep(1200);
    expect(channel.health().state).toBe("offline");
    fake.refuse(APP.appId, false);
    await until(() => channel.health().state === "online", 8000);
    expect(fake.connections(APP.appId)).toBe(1);
    const { body } = fake.messageEvent(APP.appId, { chatType: "p2p", sender: ALICE, text: "after the drop" });
    expect((await fake.push(APP.appId, body)).payload.code).toBe(200);
    expect(rec.messages.map((m) => m.text)).toEqual(["after the drop"]);
  });

  it("disconnect() ends the connection for good", async () => {
    const { channel } = await connected();
    await channel.disconnect();
    await until(() => fake.connections(APP.appId) === 0);
    const before = fake.requests.length;
    await sleep(1500);
    expect(fake.requests.length).toBe(before);
  });
});

describe("Feishu channel: events in", () => {
  it("a one-to-one text message reaches the core with its sender, conversation and reply context, and is ACKed (even when Feishu splits it into fragments)", async () => {
    const { rec } = await connected();
    const { body, messageId } = fake.messageEvent(APP.appId, { chatType: "p2p", sender: ALICE, text: "  what is Zelin?  " });
    const ack = await fake.push(APP.appId, body, { fragments: 3 });
    expect(ack.payload.code).toBe(200);
    expect(ack.headers).toMatchObject({ type: "event", sum: "3", seq: "2" });
    expect(rec.messages).toHaveLength(1);
    expect(rec.messages[0]).toMatchObject({
      externalId: messageId,
      sender: { id: ALICE.openId },
      conversation: { kind: "contact", id: ALICE.openId },
      text: "what is Zelin?",
      mentionedBot: false,
      replyContext: { message_id: messageId },
    });
    expect(rec.messages[0].receivedAt).toBeInstanceOf(Date);
  });

  it("group messages: the chat is the conversation; mentioned only when the bot is @-ed, its placeholder removed, other people's named", async () => {
    const { rec } = await connected();
    const chatId = "oc_group00000000000000000000000001";
    const a = fake.messageEvent(APP.appId, { chatType: "group", chatId, sender: ALICE, text: "@_user_1 lunch?", mentions: [BOB] });
    const b = fake.messageEvent(APP.appId, {
      chatType: "group",
      chatId,
      sender: ALICE,
      text: "@_user_1 what is Zelin? ask @_user_2",
      mentions: [{ openId: "", bot: true }, BOB],
    });
    await fake.push(APP.appId, a.body);
    await fake.push(APP.appId, b.body);
    expect(rec.messages.map((m) => [m.conversation, m.mentionedBot, m.text])).toEqual([
      [{ kind: "group", id: chatId }, false, "@Bob lunch?"],
      [{ kind: "group", id: chatId }, true, "what is Zelin? ask @Bob"],
    ]);
  });

  it("a rich-text post is read as its words; pictures, other bots' messages and events the bot does not want are ACKed and not passed on", async () => {
    const { rec } = await connected();
    const post = {
      title: "Question",
      content: [
        [
          { tag: "at", user_id: "@_user_1", user_name: "Zelin Bot" },
          { tag: "text", text: " opening " },
          { tag: "text", text: "hours?" },
        ],
        [{ tag: "a", text: "our site", href: "https://example.com" }],
      ],
    };
    const p = fake.messageEvent(APP.appId, {
      chatType: "group",
      chatId: "oc_post",
      sender: ALICE,
      text: "",
      messageType: "post",
      content: JSON.stringify(post),
      mentions: [{ openId: "", bot: true }],
    });
    const image = fake.messageEvent(APP.appId, {
      chatType: "p2p",
      sender: ALICE,
      text: "",
      messageType: "image",
      content: JSON.stringify({ image_key: "img_v2_abc" }),
    });
    const fromBot = fake.messageEvent(APP.appId, { chatType: "group", chatId: "oc_post", sender: BOB, text: "beep" });
    (fromBot.body.event as any).sender.sender_type = "app";
    for (const body of [
      p.body,
      image.body,
      fromBot.body,
      { schema: "2.0", header: { event_id: "e1", event_type: "im.message.reaction.created_v1", token: APP.verificationToken, app_id: APP.appId }, event: {} },
    ]) {
      expect((await fake.push(APP.appId, body)).payload.code).toBe(200);
    }
    expect(rec.messages.map((m) => [m.text, m.mentionedBot])).toEqual([["Question\nopening hours?\nour site (https://example.com)", true]]);
  });

  it("the event is ACKed once the core has it, or after a grace well inside Feishu's 3 s; a core failing at once is answered 500 (Feishu sends it again)", async () => {
    const { rec } = await connected();
    let release!: () => void;
    rec.onMessage = () => new Promise<void>((r) => (release = r));
    const started = Date.now();
    const slow = await fake.push(APP.appId, fake.messageEvent(APP.appId, { chatType: "p2p", sender: ALICE, text: "slow" }).body);
    expect(slow.payload.code).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    // The grace is 2.5 s; a loaded machine's timers may run a little late.
    expect(Date.now() - started).toBeLessThan(3500);
    release();
    rec.onMessage = async () => {
      throw new Error("database away");
    };
    const failed = await fake.push(APP.appId, fake.messageEvent(APP.appId, { chatType: "p2p", sender: ALICE, text: "fails" }).body);
    expect(failed.payload.code).toBe(500);
  });

  it("greetings: users joining a group (the event's id), a user opening the chat (once per user), the bot added to a group", async () => {
    const { rec } = await connected();
    const joined = fake.userAddedEvent(APP.appId, { chatId: "oc_join", chatName: "Team", users: [BOB, ALICE] });
    await fake.push(APP.appId, joined);
    await fake.push(APP.appId, fake.p2pEnteredEvent(APP.appId, ALICE));
    await fake.push(APP.appId, fake.p2pEnteredEvent(APP.appId, ALICE));
    const added = {
      schema: "2.0",
      header: { event_id: "ev_bot_added_1", event_type: "im.chat.member.bot.added_v1", token: APP.verificationToken, app_id: APP.appId },
      event: { chat_id: "oc_new", name: "New group", operator_id: { open_id: BOB.openId } },
    };
    await fake.push(APP.appId, added);
    expect(rec.greetings).toEqual([
      { externalId: joined.header.event_id, target: { kind: "group", id: "oc_join", name: "Team" }, who: { id: BOB.openId, name: "Bob" } },
      { externalId: `p2p_entered:${ALICE.openId}`, target: { kind: "contact", id: ALICE.openId }, who: { id: ALICE.openId, name: "" } },
      { externalId: `p2p_entered:${ALICE.openId}`, target: { kind: "contact", id: ALICE.openId }, who: { id: ALICE.openId, name: "" } },
      { externalId: "ev_bot_added_1", target: { kind: "group", id: "oc_new", name: "New group" }, who: { id: BOB.openId, name: "" } },
    ]);
  });
});

describe("Feishu channel: answers out", () => {
  async function inbound(text = "hello", chatType: "p2p" | "group" = "p2p") {
    const made = await connected();
    const e = fake.messageEvent(APP.appId, {
      chatType,
      chatId: "oc_answers",
      sender: ALICE,
      text,
      mentions: chatType === "group" ? [{ openId: "", bot: true }] : [],
    });
    await fake.push(APP.appId, e.body);
    return { ...made, msg: made.rec.messages.at(-1)!, messageId: e.messageId };
  }

  it("replies to the message as a card rendering the markdown; a long answer as several cards within Feishu's 30 KB", async () => {
    const { channel, msg, messageId } = await inbound();
    await channel.reply(msg, { text: "## Hours\n\nWe open at **9**. ![map](https://example.com/map.png)" });
    // Said again (a retried call), the same reply is sent once: Feishu keeps the uuid an hour.
    await channel.reply(msg, { text: "## Hours\n\nWe open at **9**. ![map](https://example.com/map.png)" });
    expect(fake.repliesTo(messageId)).toHaveLength(1);
    const [card] = fake.repliesTo(messageId);
    expect(card).toMatchObject({ kind: "reply", msgType: "interactive", replyTo: messageId });
    expect(card.content).toMatchObject({
      schema: "2.0",
      config: { update_multi: true, summary: { content: "Hours We open at 9. map (https://example.com/map.png)" } },
    });
    expect(markdownOf(card.content)).toEqual(["## Hours\n\nWe open at **9**. [map](https://example.com/map.png)"]);

    const long = Array.from({ length: 2500 }, (_, i) => `第${i}句，一个很长的回答。`).join("");
    await channel.reply(msg, { text: long });
    const parts = fake.repliesTo(messageId).slice(1);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const p of parts) expect(Buffer.byteLength(markdownOf(p.content)[0])).toBeLessThanOrEqual(28_000);
    expect(parts.map((p) => markdownOf(p.content)[0]).join("") === long).toBe(true);
  });

  it("streams into one card: 'thinking' first, patched with the text so far at most every ~500 ms, the final patch the whole answer without the marker", async () => {
    const { channel, msg, messageId } = await inbound("tell me a story");
    const reply = (await channel.startStreamingReply!(msg))!;
    const [card] = fake.repliesTo(messageId);
    expect(markdownOf(card.content)).toHaveLength(1);
    expect(card.content.body.elements[0]).toMatchObject({
      tag: "markdown",
      i18n_content: {
        zh_cn: expect.stringContaining("正在思考"),
        en_us: expect.stringContaining("Thinking"),
        pt_br: expect.stringContaining("Pensando"),
        zh_hk: expect.any(String),
      },
    });
    let text = "";
    for (let i = 0; i < 40; i++) {
      text += `word${i} `;
      await reply.update(text);
      await sleep(50);
    }
    await reply.finish(`${text}The end.`);
    const patches = card.patches;
    expect(patches.length).toBeGreaterThanOrEqual(3);
    expect(patches.length).toBeLessThan(10);
    for (let i = 0; i < patches.length - 1; i++) {
      const shown = markdownOf(patches[i].content);
      expect(shown).toHaveLength(2);
      expect(shown[1]).toContain("正在思考");
      expect(text.startsWith(shown[0])).toBe(true);
      if (i > 0) expect(patches[i].at - patches[i - 1].at).toBeGreaterThanOrEqual(450);
    }
    expect(markdownOf(patches.at(-1)!.content)).toEqual([`${text}The end.`]);
    expect(fake.repliesTo(messageId)).toHaveLength(1);
  });

  it("a streamed answer longer than a card: the card holds the first part, the rest follows as reply cards", async () => {
    const { channel, msg, messageId } = await inbound("long");
    const reply = (await channel.startStreamingReply!(msg))!;
    const long = Array.from({ length: 1500 }, (_, i) => `Sentence ${i} of a long answer.`).join(" ");
    await reply.update(long.slice(0, 40_000));
    await reply.finish(long);
    const [card, ...rest] = fake.repliesTo(messageId);
    expect(rest.length).toBeGreaterThanOrEqual(1);
    expect([markdownOf(card.patches.at(-1)!.content)[0], ...rest.map((r) => markdownOf(r.content)[0])].join(" ") === long).toBe(true);
  });

  it("stream_card off: no streaming reply", async () => {
    const made = makeChannel(credentialsOf(APP, { stream_card: false }));
    await made.channel.connect(made.hooks);
    await fake.push(APP.appId, fake.messageEvent(APP.appId, { chatType: "p2p", sender: ALICE, text: "hi" }).body);
    expect(await made.channel.startStreamingReply!(made.rec.messages[0])).toBeNull();
  });

  it("send(): a contact by open_id, a group by chat_id, as markdown cards; a channel that never connected can send too", async () => {
    const { channel } = makeChannel();
    const before = fake.sent.length;
    await channel.send({ kind: "contact", id: ALICE.openId }, { text: "Good **morning**" });
    await channel.send({ kind: "group", id: "oc_daily" }, { text: "# Daily\nnews" });
    const sent = fake.sent.slice(before);
    expect(sent.map((s: TFeishuSent) => [s.kind, s.receiveIdType, s.receiveId, s.chatId, markdownOf(s.content)[0]])).toEqual([
      ["create", "open_id", ALICE.openId, fake.p2pChatId(APP.appId, ALICE.openId), "Good **morning**"],
      ["create", "chat_id", "oc_daily", "oc_daily", "# Daily\nnews"],
    ]);
  });

  it("a token Feishu stops accepting (secret reset) is fetched again once; a send Feishu refuses fails loudly", async () => {
    const { channel } = makeChannel();
    await channel.send({ kind: "group", id: "oc_a" }, { text: "one" });
    fake.revokeTokens(APP.appId);
    const tokenCalls = () => fake.requests.filter((r) => r.path.endsWith("/tenant_access_token/internal")).length;
    const before = tokenCalls();
    await channel.send({ kind: "group", id: "oc_a" }, { text: "two" });
    expect(tokenCalls()).toBe(before + 1);
    expect(markdownOf(fake.sent.at(-1)!.content)).toEqual(["two"]);
    await expect(channel.send({ kind: "group", id: "not-a-chat" }, { text: "x" })).rejects.toMatchObject({ name: "FeishuApiError", code: 230001 });
  });
});

// Through the gateway core: a bot made by its owner, a live agent on the offline model ------------

/** The final text of the answer to `messageId`: the streamed card's last patch (or the card itself). */
function answerTo(messageId: string): string | null {
  const [card] = fake.repliesTo(messageId);
  if (!card) return null;
  const last = card.patches.at(-1)?.content ?? card.content;
  const texts = markdownOf(last);
  return texts.length === 1 ? texts[0] : null;
}

describe("Feishu bot through the gateway: long connection", () => {
  let owner: TTestActor;
  let bot: Awaited<ReturnType<typeof makeTestBot>>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    owner = await makeBotOwner();
    bot = await makeTestBot(owner, {
      channel: "feishu",
      credentials: { app_id: WS_APP.appId, app_secret: WS_APP.appSecret },
      greeting: "Welcome to **Zelin**!",
    });
    gateway = await startTestGateway({ factories: { feishu: createFeishuChannel } });
    await waitFor(async () => (await botRow(bot.botId)).state === "online", 15_000, "bot online");
  });
  afterAll(async () => {
    await gateway?.stop();
    // Paused, so gateways of later test files do not take a bot whose Feishu is gone.
    if (bot) await getDb().bot.update({ where: { id: bot.botId }, data: { enabled: false } });
  });

  it("a one-to-one message: a card that streams, whose final patch is the agent's answer, the use recorded as the bot's; the same message again is answered once", async () => {
    expect(fake.connections(WS_APP.appId)).toBe(1);
    const e = fake.messageEvent(WS_APP.appId, { chatType: "p2p", sender: ALICE, text: "How is the weather on Mars?" });
    expect((await fake.push(WS_APP.appId, e.body)).payload.code).toBe(200);
    await waitFor(() => answerTo(e.messageId) === OUT_OF_SCOPE, 15_000, "answer card");
    const [card] = fake.repliesTo(e.messageId);
    expect(card.content.body.elements[0].i18n_content.en_us).toContain("Thinking");
    const uses = await botUses(bot.appId);
    expect(uses.map((u) => u.source)).toEqual(["bot"]);

    expect((await fake.push(WS_APP.appId, e.body)).payload.code).toBe(200);
    await sleep(1500);
    expect(fake.repliesTo(e.messageId)).toHaveLength(1);
    expect(await botUses(bot.appId)).toHaveLength(1);
    expect(await getDb().botInbound.count({ where: { botId: bot.botId, externalId: e.messageId } })).toBe(1);
  });

  it("in a group: not mentioned, no answer; mentioned, an answer to that message", async () => {
    const chatId = "oc_gateway_group_000000000000001";
    const quiet = fake.messageEvent(WS_APP.appId, { chatType: "group", chatId, sender: BOB, text: "lunch at noon?" });
    const asked = fake.messageEvent(WS_APP.appId, {
      chatType: "group",
      chatId,
      sender: BOB,
      text: "@_user_1 what about lunch?",
      mentions: [{ openId: "", bot: true }],
    });
    await fake.push(WS_APP.appId, quiet.body);
    await fake.push(WS_APP.appId, asked.body);
    await waitFor(() => answerTo(asked.messageId) === OUT_OF_SCOPE, 15_000, "group answer");
    expect(fake.repliesTo(quiet.messageId)).toEqual([]);
  });

  it("a user added to a group: the greeting sent to the group once, however often Feishu delivers the event", async () => {
    const chatId = "oc_gateway_join_0000000000000001";
    const joined = fake.userAddedEvent(WS_APP.appId, { chatId, chatName: "Newcomers", users: [BOB] });
    await fake.push(WS_APP.appId, joined);
    await fake.push(WS_APP.appId, joined);
    await waitFor(() => fake.sentTo(chatId).length > 0, 10_000, "greeting");
    await sleep(1000);
    const sent = fake.sentTo(chatId);
    expect(sent.map((s) => [s.kind, s.receiveIdType, markdownOf(s.content)])).toEqual([["create", "chat_id", ["Welcome to **Zelin**!"]]]);
    const deliveries = await getDb().botDelivery.findMany({ where: { botId: bot.botId, kind: "greeting" } });
    expect(deliveries.map((d) => d.state)).toEqual(["sent"]);
  });

  it("a scheduled message to a group goes out through im.message.create with the chat id", async () => {
    const chatId = "oc_gateway_sched_000000000000001";
    await saveSchedule(
      owner,
      ZScheduleInput.parse({
        bot_id: bot.botId,
        content: "Daily **news**",
        targets: [{ kind: "group", id: chatId, name: "Daily" }],
        send_at: new Date().toISOString(),
        loop: "once",
      }),
    );
    await gateway.tick();
    await waitFor(() => fake.sentTo(chatId).length > 0, 10_000, "scheduled send");
    expect(fake.sentTo(chatId).map((s) => [s.kind, s.receiveIdType, s.receiveId, markdownOf(s.content)])).toEqual([
      ["create", "chat_id", chatId, ["Daily **news**"]],
    ]);
  });
});

describe("Feishu bot through the gateway: webhook mode", () => {
  let owner: TTestActor;
  let bot: Awaited<ReturnType<typeof makeTestBot>>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let api: Awaited<ReturnType<typeof startApiServer>>;
  let url: string;

  beforeAll(async () => {
    api = await startApiServer();
    owner = await makeBotOwner();
    bot = await makeTestBot(owner, {
      channel: "feishu",
      credentials: {
        app_id: HOOK_APP.appId,
        app_secret: HOOK_APP.appSecret,
        mode: "webhook",
        encrypt_key: HOOK_APP.encryptKey,
        verification_token: HOOK_APP.verificationToken,
      },
    });
    url = `${api.base}/api/v1/bots/${bot.botId}/feishu`;
    gateway = await startTestGateway({ factories: { feishu: createFeishuChannel } });
    await waitFor(async () => (await botRow(bot.botId)).state === "to_be_associated", 15_000, "waiting for the first callback");
  });
  afterAll(async () => {
    await gateway?.stop();
    await api?.close();
    if (bot) await getDb().bot.update({ where: { id: bot.botId }, data: { enabled: false } });
  });

  it("answers Feishu's URL verification challenge (encrypted, with the bot's token), and the bot is online from then on", async () => {
    const before = fake.connections(HOOK_APP.appId);
    const challenge = fake.urlVerification(HOOK_APP.appId);
    const res = await fake.callback(url, HOOK_APP.appId, challenge);
    expect(res).toEqual({ status: 200, body: { challenge: challenge.challenge } });
    expect((await botRow(bot.botId)).state).toBe("online");
    expect(fake.connections(HOOK_APP.appId)).toBe(before);
    const forged = await fake.callback(url, HOOK_APP.appId, { ...challenge, token: "not-the-token" });
    expect(forged.status).toBe(403);
  });

  it("an encrypted, signed message event is queued and answered with a card", async () => {
    const e = fake.messageEvent(HOOK_APP.appId, { chatType: "p2p", sender: ALICE, text: "Tell me about volcanoes" });
    const res = await fake.callback(url, HOOK_APP.appId, e.body);
    expect(res.status).toBe(200);
    await waitFor(() => answerTo(e.messageId) === OUT_OF_SCOPE, 15_000, "webhook answer");
    expect((await botUses(bot.appId)).map((u) => u.source)).toEqual(["bot"]);
  });

  it("a wrong verification token, a bad signature, a body not sealed with the bot's key: 403, nothing queued, nothing sent", async () => {
    const wrongToken = fake.messageEvent(HOOK_APP.appId, { chatType: "p2p", sender: ALICE, text: "forged" });
    (wrongToken.body.header as { token: string }).token = "stolen-token";
    const badSignature = fake.messageEvent(HOOK_APP.appId, { chatType: "p2p", sender: ALICE, text: "tampered" });
    const otherKey = fake.messageEvent(HOOK_APP.appId, { chatType: "p2p", sender: ALICE, text: "other key" });
    expect((await fake.callback(url, HOOK_APP.appId, wrongToken.body)).status).toBe(403);
    expect((await fake.callback(url, HOOK_APP.appId, badSignature.body, { badSignature: true })).status).toBe(403);
    expect((await fake.callback(url, HOOK_APP.appId, otherKey.body, { encryptKey: "some-other-key" })).status).toBe(403);
    expect((await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" })).status).toBe(400);
    await sleep(1500);
    for (const e of [wrongToken, badSignature, otherKey]) expect(fake.repliesTo(e.messageId)).toEqual([]);
    expect(
      await getDb().botInbound.count({ where: { botId: bot.botId, externalId: { in: [wrongToken.messageId, badSignature.messageId, otherKey.messageId] } } }),
    ).toBe(0);
  });

  it("an unknown bot, or a bot on the long connection, has no event URL: 404", async () => {
    const e = fake.messageEvent(HOOK_APP.appId, { chatType: "p2p", sender: ALICE, text: "hello" });
    expect((await fake.callback(`${api.base}/api/v1/bots/nobot/feishu`, HOOK_APP.appId, e.body)).status).toBe(404);
    const wsBot = await makeTestBot(owner, { channel: "feishu", credentials: { app_id: APP.appId, app_secret: APP.appSecret } });
    expect((await fake.callback(`${api.base}/api/v1/bots/${wsBot.botId}/feishu`, HOOK_APP.appId, e.body)).status).toBe(404);
    await getDb().bot.update({ where: { id: wsBot.botId }, data: { enabled: false } });
  });
});
