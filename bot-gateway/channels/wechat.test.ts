// The personal-WeChat channel against wechaty's mock puppet, with hooks that record what the
// gateway core would be told. The whole path through the core is tests/integration/bot-wechat.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "../../server/env";
import type { Channel, TChannelHealth, TGreetingTrigger, TInboundMessage } from "../core/channel";
import { backoffDelay } from "./wechat/backoff";
import { createWechatChannel, type TWechatChannel, type TWechatChannelSpec } from "./wechat";
import { memoryCardPath } from "./wechat/build-wechaty";
import { getMocker, waitForMocker } from "./wechat/mock-puppet";

vi.hoisted(() => {
  process.env.WECHATY_PUPPET = "wechaty-puppet-mock";
  process.env.LOG_LEVEL ??= "silent";
});

async function waitFor<T>(fn: () => T | undefined | false | null, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("waitFor: timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));

function recordingHooks() {
  const health: TChannelHealth[] = [];
  const messages: TInboundMessage[] = [];
  const greetings: TGreetingTrigger[] = [];
  return {
    health,
    messages,
    greetings,
    hooks: {
      onHealth: (h: TChannelHealth) => void health.push(h),
      onMessage: async (m: TInboundMessage) => void messages.push(m),
      onGreeting: async (g: TGreetingTrigger) => void greetings.push(g),
    },
  };
}

let seq = 0;
let channel: Channel | undefined;

async function connected(opts: { login?: boolean } = {}) {
  const botId = `bot_wechat_${process.pid}_${++seq}`;
  const rec = recordingHooks();
  channel = createWechatChannel({ botId, name: "Zelin helper", credentials: {} });
  await channel.connect(rec.hooks);
  const wx = await waitForMocker(botId);
  if (opts.login !== false) {
    wx.login("Zelin Bot");
    await waitFor(() => rec.health.find((h) => h.state === "online"));
  }
  return { botId, rec, wx, channel };
}

beforeEach(() => {
  delete process.env.WECHATY_MOCK_AUTO_SCAN;
  resetEnvCache();
});
afterEach(async () => {
  await channel?.disconnect();
  channel = undefined;
});

describe("wechat channel: login", () => {
  it("reports a QR to scan (a new one replacing the old), then online with the login name", async () => {
    const { rec, wx, channel } = await connected({ login: false });
    expect(channel.kind).toBe("wechat");
    wx.scan("qr-one");
    await waitFor(() => rec.health.length === 1);
    expect(rec.health[0]).toEqual({ state: "to_be_associated", detail: "detail.waiting_scan", loginQr: "qr-one" });
    wx.scan("qr-two");
    await waitFor(() => rec.health.length === 2);
    expect(rec.health[1]).toMatchObject({ state: "to_be_associated", loginQr: "qr-two" });
    expect(channel.health()).toMatchObject({ state: "to_be_associated", loginQr: "qr-two" });

    wx.login("Zelin Bot");
    await waitFor(() => rec.health.length === 3);
    expect(rec.health[2]).toMatchObject({ state: "online", loginQr: null, loginName: "Zelin Bot" });
    expect(channel.health()).toMatchObject({ state: "online", loginName: "Zelin Bot" });
  });

  it("a lapsed login goes offline with detail.login_lapsed", async () => {
    const { rec, wx, channel } = await connected();
    await wx.logout();
    await waitFor(() => rec.health.at(-1)?.state === "offline");
    expect(rec.health.at(-1)).toEqual({ state: "offline", detail: "detail.login_lapsed", loginQr: null });
    await expect(channel.send({ kind: "contact", id: wx.contact("Zoe").id }, { text: "hi" })).rejects.toThrow(/not logged in/);
  });

  it("keeps no memory card in the working directory", async () => {
    await connected();
    expect(fs.readdirSync(process.cwd()).filter((f) => f.endsWith(".memory-card.json"))).toEqual([]);
  });
});

describe("wechat channel: messages", () => {
  it("hands a contact's text to the core and says the answer back as plain text", async () => {
    const { rec, wx, channel } = await connected();
    const alice = wx.contact("Alice");
    wx.say(alice, "What is Zelin?");
    const m = await waitFor(() => rec.messages[0]);
    expect(m).toMatchObject({
      sender: { id: alice.id, name: "Alice" },
      conversation: { kind: "contact", id: alice.id, name: "Alice" },
      text: "What is Zelin?",
      mentionedBot: true,
    });
    expect(m.externalId).toMatch(/\S/);
    expect(m.receivedAt).toBeInstanceOf(Date);

    await channel.reply(m, { text: "## Zelin\n\n**Zelin** builds [agents](https://zelinai.com).\n\n- one\n- two" });
    expect(wx.said(alice.id)).toEqual(["Zelin\n\nZelin builds agents (https://zelinai.com).\n\n• one\n• two"]);
    await settle();
    // The bot's own message comes back through wechaty as a message event: it is not handed on.
    expect(rec.messages).toHaveLength(1);
  });

  it("in a room: every text is handed on, mentionedBot only with a mention, which is removed from the text", async () => {
    const { rec, wx, channel } = await connected();
    const alice = wx.contact("Alice");
    const room = wx.room("Zelin fans", [alice]);
    wx.sayInRoom(alice, room, "just chatting");
    const plain = await waitFor(() => rec.messages[0]);
    expect(plain).toMatchObject({
      conversation: { kind: "group", id: room.id, name: "Zelin fans" },
      sender: { id: alice.id, name: "Alice" },
      mentionedBot: false,
      text: "just chatting",
    });

    wx.sayInRoom(alice, room, "what is Zelin?", { mention: true });
    const asked = await waitFor(() => rec.messages[1]);
    expect(asked).toMatchObject({ conversation: { kind: "group", id: room.id }, mentionedBot: true, text: "what is Zelin?" });

    await channel.reply(asked, { text: "I only answer questions about *Zelin*." });
    expect(wx.said(room.id)).toEqual(["I only answer questions about Zelin."]);
    expect(wx.said(alice.id)).toEqual([]);
  });

  it("does not hand on pictures and other non-text messages", async () => {
    const { rec, wx } = await connected();
    const alice = wx.contact("Alice");
    const { FileBox } = await import("file-box");
    alice.say(FileBox.fromBase64(Buffer.from("png").toString("base64"), "cat.png")).to(wx.self());
    wx.say(alice, "and a text");
    await waitFor(() => rec.messages.length >= 1);
    await settle();
    expect(rec.messages.map((m) => m.text)).toEqual(["and a text"]);
  });

  it("splits a long answer into messages of at most 2000 characters, in order", async () => {
    const { wx, channel } = await connected();
    const alice = wx.contact("Alice");
    const paragraphs = Array.from({ length: 9 }, (_, i) => `${i}: ${"很好的回答。".repeat(80)}`);
    const long = paragraphs.join("\n\n");
    await channel.send({ kind: "contact", id: alice.id }, { text: long });
    const said = wx.said(alice.id);
    expect(said.length).toBeGreaterThan(1);
    for (const piece of said) expect([...piece].length).toBeLessThanOrEqual(2000);
    expect(said.join("\n\n").replace(/\s+/g, "")).toBe(long.replace(/\s+/g, ""));
    expect(said[0]!.startsWith("0: ")).toBe(true);
  });

  it("send finds a contact or a room by id, and refuses an unknown one", async () => {
    const { wx, channel } = await connected();
    const alice = wx.contact("Alice");
    const room = wx.room("Morning news", [alice]);
    await channel.send({ kind: "group", id: room.id }, { text: "Good morning" });
    await channel.send({ kind: "contact", id: alice.id }, { text: "Hello Alice" });
    expect(wx.said(room.id)).toEqual(["Good morning"]);
    expect(wx.said(alice.id)).toEqual(["Hello Alice"]);
    await expect(channel.send({ kind: "group", id: "nobody@chatroom" }, { text: "x" })).rejects.toThrow(/no group/);
    await expect(channel.send({ kind: "contact", id: "nobody" }, { text: "x" })).rejects.toThrow(/no contact/);
  });
});

describe("wechat channel: greetings", () => {
  it("accepts a friend request and reports the new friend once, when WeChat confirms it", async () => {
    const { rec, wx } = await connected();
    const bob = wx.contact("Bob");
    const requestId = await wx.requestFriendship(bob, "hi, I am Bob");
    await waitFor(() => rec.greetings.length === 1);
    expect(wx.accepted()).toEqual([requestId]);
    expect(rec.greetings[0]).toEqual({
      externalId: `${requestId}-confirm`,
      target: { kind: "contact", id: bob.id, name: "Bob" },
      who: { id: bob.id, name: "Bob" },
    });
    await settle();
    expect(rec.greetings).toHaveLength(1);
  });

  it("reports people joining a room the bot is in, not the bot joining one", async () => {
    const { rec, wx } = await connected();
    const alice = wx.contact("Alice");
    const carol = wx.contact("Carol");
    const dave = wx.contact("Dave");
    const room = wx.room("Zelin fans", [alice]);
    room.add(carol, dave).by(alice);
    await waitFor(() => rec.greetings.length === 1);
    const ids = [carol.id, dave.id].sort();
    expect(rec.greetings[0]).toEqual({
      externalId: `${room.id}:${ids.join(",")}`,
      target: { kind: "group", id: room.id, name: "Zelin fans" },
      who: { id: carol.id, name: "Carol, Dave" },
    });

    const other = wx.mocker.createRoom({ topic: "Invited", memberIdList: [alice.id] });
    other.add(wx.self()).by(alice);
    await settle(300);
    expect(rec.greetings).toHaveLength(1);
  });
});

describe("wechat channel: faults and stopping", () => {
  it("a puppet that dies: offline while reconnecting, then a new puppet that shows a QR", async () => {
    const { botId, rec, wx } = await connected();
    await wx.kill();
    await waitFor(() => rec.health.at(-1)?.state === "offline");
    expect(rec.health.at(-1)).toEqual({ state: "offline", detail: "detail.reconnecting", loginQr: null });
    const next = await waitForMocker(botId, { after: wx, timeoutMs: 5_000 });
    expect(next.generation).toBeGreaterThan(wx.generation);
    next.scan("qr-after-restart");
    await waitFor(() => rec.health.at(-1)?.loginQr === "qr-after-restart");
    next.login("Zelin Bot");
    await waitFor(() => rec.health.at(-1)?.state === "online");
  });

  it("disconnect stops wechaty: no more events, the mock is released, sends refused", async () => {
    const { botId, rec, wx, channel } = await connected();
    const alice = wx.contact("Alice");
    await channel.disconnect();
    expect(getMocker(botId)).toBeUndefined();
    expect(wx.puppet.state.inactive()).toBe(true);
    await expect(channel.send({ kind: "contact", id: alice.id }, { text: "x" })).rejects.toThrow(/not logged in/);
    const before = rec.health.length;
    await settle(1_500);
    expect(rec.health).toHaveLength(before);
  });
});

describe("wechat channel: development mode (WECHATY_MOCK_AUTO_SCAN=1)", () => {
  it("shows a loopback QR at start; fetching it logs in; an old QR is gone after relogin", async () => {
    process.env.WECHATY_MOCK_AUTO_SCAN = "1";
    resetEnvCache();
    const { botId, rec } = await connected({ login: false });
    const qr = (await waitFor(() => rec.health.find((h) => h.loginQr)))!.loginQr!;
    expect(qr).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/wechaty-mock/${botId}/\\d+/scan\\?qr=1$`));

    const res = await fetch(`${qr}&name=${encodeURIComponent("Owner's WeChat")}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ login_name: "Owner's WeChat" });
    await waitFor(() => rec.health.at(-1)?.state === "online");
    expect(rec.health.at(-1)).toMatchObject({ loginName: "Owner's WeChat" });
    expect((await fetch(qr)).status).toBe(409);

    // Logging out from the phone: the login lapses, and a new QR follows (as wechat4u does).
    const logout = await fetch(qr.replace(/\/scan\?.*$/, "/logout"));
    expect(logout.status).toBe(200);
    await waitFor(() => rec.health.at(-1)?.loginQr?.endsWith("qr=2"));
    expect(rec.health.at(-2)).toEqual({ state: "offline", detail: "detail.login_lapsed", loginQr: null });

    const old = getMocker(botId)!;
    await (channel as TWechatChannel).relogin();
    const next = await waitForMocker(botId, { after: old });
    const fresh = (await waitFor(() => rec.health.at(-1)?.loginQr?.includes(`/${next.generation}/scan`) && rec.health.at(-1)))!.loginQr!;
    expect((await fetch(qr)).status).toBe(410);
    expect((await fetch(fresh)).status).toBe(200);
    await waitFor(() => rec.health.at(-1)?.state === "online");
  }, 20_000);
});

describe("wechat channel: saved sessions", () => {
  it("live in DATA_DIR/wechaty; a fresh login (the owner asked for a new QR) forgets the bot's, not others'", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-wechaty-"));
    process.env.DATA_DIR = dir;
    resetEnvCache();
    try {
      const card = (botId: string) => `${memoryCardPath(botId)}.memory-card.json`;
      expect(card("bot_a")).toBe(path.join(dir, "wechaty", "bot_a.memory-card.json"));
      fs.mkdirSync(path.join(dir, "wechaty"));
      for (const id of ["bot_a", "bot_b"]) fs.writeFileSync(card(id), "{}");
      channel = createWechatChannel({ botId: "bot_b", name: "b", credentials: {} });
      await channel.connect(recordingHooks().hooks);
      await channel.disconnect();
      expect(fs.existsSync(card("bot_b"))).toBe(true);
      channel = createWechatChannel({ botId: "bot_a", name: "a", credentials: {}, freshLogin: true } as TWechatChannelSpec);
      await channel.connect(recordingHooks().hooks);
      expect(fs.existsSync(card("bot_a"))).toBe(false);
      expect(fs.existsSync(card("bot_b"))).toBe(true);
    } finally {
      delete process.env.DATA_DIR;
      resetEnvCache();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("backoff", () => {
  it("starts at 1 s, doubles, stops at 60 s, within ±20%", () => {
    expect(backoffDelay(0, () => 0.5)).toBe(1_000);
    expect(backoffDelay(1, () => 0.5)).toBe(2_000);
    expect(backoffDelay(5, () => 0.5)).toBe(32_000);
    expect(backoffDelay(6, () => 0.5)).toBe(60_000);
    expect(backoffDelay(60, () => 0.5)).toBe(60_000);
    expect(backoffDelay(0, () => 0)).toBe(800);
    expect(backoffDelay(0, () => 1)).toBe(1_200);
    expect(backoffDelay(10, () => 1)).toBe(60_000);
  });
});
