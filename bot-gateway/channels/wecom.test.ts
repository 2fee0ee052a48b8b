// The WeCom channel against the loopback WeCom: connect checks the credentials (refused → rejects
// with WeCom's words; unreachable → offline and retrying), replies and sends go out as markdown
// within WeCom's 2048 bytes, to the member or to the app's group chat.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../server/env";
import { startFakeWecom, type TFakeWecom } from "../../tests/fakes/fake-wecom";
import type { TChannelHealth, TChannelHooks, TInboundMessage } from "../core/channel";
import { createWecomChannel, WECOM_MAX_BYTES } from "./wecom";

const APP = { corpId: "ww-channel-test", agentId: "1000002", secret: "channel-secret" };
const credentials = { corp_id: APP.corpId, agent_id: APP.agentId, secret: APP.secret, token: "tok", encoding_aes_key: "a".repeat(43) };
const saved = process.env.WECOM_API_BASE;
let fake: TFakeWecom;

const useBase = (base: string) => {
  process.env.WECOM_API_BASE = base;
  resetEnvCache();
};

function recordingHooks() {
  const health: TChannelHealth[] = [];
  const hooks: TChannelHooks = { onMessage: async () => undefined, onGreeting: async () => undefined, onHealth: (h) => void health.push(h) };
  return { hooks, health };
}

const inbound = (text = "hi"): TInboundMessage => ({
  externalId: "m1",
  sender: { id: "lisi", name: "lisi" },
  conversation: { kind: "contact", id: "lisi", name: "lisi" },
  text,
  mentionedBot: true,
  receivedAt: new Date(),
});

beforeAll(async () => {
  fake = await startFakeWecom({ apps: [APP], knownChats: ["wrk-group-1"] });
  useBase(fake.base);
});
afterAll(async () => {
  await fake.close();
  if (saved === undefined) delete process.env.WECOM_API_BASE;
  else process.env.WECOM_API_BASE = saved;
  resetEnvCache();
});

describe("connect", () => {
  it("checks the credentials and waits for WeCom's first callback", async () => {
    const ch = createWecomChannel({ botId: "b1", name: "Bot", credentials });
    const { hooks, health } = recordingHooks();
    await ch.connect(hooks);
    expect(health).toEqual([{ state: "to_be_associated", detail: "detail.waiting_callback" }]);
    expect(ch.health()).toEqual({ state: "to_be_associated", detail: "detail.waiting_callback" });
    await ch.disconnect();
  });

  it("rejects with WeCom's errmsg when the secret is refused", async () => {
    const ch = createWecomChannel({ botId: "b2", name: "Bot", credentials: { ...credentials, secret: "wrong" } });
    const { hooks, health } = recordingHooks();
    await expect(ch.connect(hooks)).rejects.toThrow(/40001: invalid credential/);
    expect(health).toEqual([]);
  });

  it("reports offline while WeCom is unreachable and comes up when it answers", async () => {
    // A port that answers nothing now, and WeCom there a moment later.
    const probe = await startFakeWecom({ apps: [APP] });
    const port = Number(new URL(probe.base).port);
    await probe.close();
    useBase(`http://127.0.0.1:${port}`);
    const ch = createWecomChannel({ botId: "b3", name: "Bot", credentials: { ...credentials, secret: APP.secret, corp_id: APP.corpId } });
    const { hooks, health } = recordingHooks();
    try {
      await ch.connect(hooks);
      expect(health[0]).toEqual({ state: "offline", detail: "detail.reconnecting" });
      const later = await startFakeWecom({ apps: [APP], port });
      try {
        const until = Date.now() + 10_000;
        while (ch.health().state !== "to_be_associated" && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        expect(ch.health()).toEqual({ state: "to_be_associated", detail: "detail.waiting_callback" });
        expect(later.tokenRequests).toBe(1);
      } finally {
        await later.close();
      }
    } finally {
      await ch.disconnect();
      useBase(fake.base);
    }
  });
});

describe("reply and send", () => {
  it("answers the sender in markdown, without connecting first", async () => {
    const ch = createWecomChannel({ botId: "b4", name: "Bot", credentials });
    const from = fake.sent.length;
    await ch.reply(inbound(), { text: "**Hello** [Zelin](https://zelinai.com)" });
    expect(fake.sent.slice(from).map((s) => [s.api, s.to, s.msgtype, s.content])).toEqual([
      ["message/send", "lisi", "markdown", "**Hello** [Zelin](https://zelinai.com)"],
    ]);
  });

  it("splits a long answer into messages within 2048 bytes, in order, losing nothing", async () => {
    const ch = createWecomChannel({ botId: "b5", name: "Bot", credentials });
    const paragraphs = Array.from({ length: 12 }, (_, i) => `第${i + 1}段：${"泽林智能体回答问题。".repeat(20)}`);
    const text = paragraphs.join("\n\n");
    const from = fake.sent.length;
    await ch.reply(inbound(), { text });
    const parts = fake.sent.slice(from);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(Buffer.byteLength(p.content, "utf8")).toBeLessThanOrEqual(WECOM_MAX_BYTES);
      expect(p).toMatchObject({ api: "message/send", to: "lisi", msgtype: "markdown" });
    }
    expect(
      parts
        .map((p) => p.content)
        .join("")
        .replace(/\s/g, ""),
    ).toBe(text.replace(/\s/g, ""));
  });

  it("sends to a member with message/send and to a group with appchat/send", async () => {
    const ch = createWecomChannel({ botId: "b6", name: "Bot", credentials });
    const from = fake.sent.length;
    await ch.send({ kind: "contact", id: "wangwu" }, { text: "早上好" });
    await ch.send({ kind: "group", id: "wrk-group-1" }, { text: "大家好" });
    expect(fake.sent.slice(from).map((s) => [s.api, s.to, s.content])).toEqual([
      ["message/send", "wangwu", "早上好"],
      ["appchat/send", "wrk-group-1", "大家好"],
    ]);
    expect(fake.sent.at(-1)!.body).toMatchObject({ chatid: "wrk-group-1", msgtype: "markdown", markdown: { content: "大家好" } });
  });

  it("fails the send when WeCom refuses it (an unknown group)", async () => {
    const ch = createWecomChannel({ botId: "b7", name: "Bot", credentials });
    await expect(ch.send({ kind: "group", id: "no-such-chat" }, { text: "x" })).rejects.toThrow(/86003/);
  });
});
