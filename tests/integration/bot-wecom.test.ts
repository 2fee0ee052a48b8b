// A WeCom self-built app bot end to end: WeCom (tests/fakes/fake-wecom.ts, on loopback) calls the
// web process's callback URL with encrypted, signed XML as WeCom does; the message goes through the
// bots queue to an in-process gateway, the live agent answers, and the answer goes back through
// WeCom's API (markdown, split within 2048 bytes) with a cached access token. Refusals: bad
// signatures, another corp's sealing, unknown bots and bots of other channels change nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWecomChannel } from "../../bot-gateway/channels/wecom";
import { botVisitorId } from "../../bot-gateway/core/dispatcher";
import type { TGateway } from "../../bot-gateway/core/gateway";
import { saveSchedule } from "../../server/bots/bot-schedules.service";
import { ZScheduleInput } from "../../server/bots/bots.schema";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { startApiServer } from "../helpers/api-client";
import type { TTestActor } from "../helpers/apps";
import { botRow, botUses, makeBotOwner, makeTestBot, startTestGateway, waitFor } from "../helpers/bots";
import { buildWecomCallback, buildWecomVerification, startFakeWecom, wecomEventXml, wecomTextXml, type TFakeWecom } from "../fakes/fake-wecom";

const run = Math.random().toString(36).slice(2, 8);
const APP = { corpId: `ww${run}corp`, agentId: "1000002", secret: `wecom-secret-${run}` };
const KEYS = { corpId: APP.corpId, agentId: APP.agentId, token: `tok${run}`, encodingAesKey: `${run}${"k".repeat(43)}`.slice(0, 43) };
const CREDENTIALS = { corp_id: APP.corpId, agent_id: APP.agentId, secret: APP.secret, token: KEYS.token, encoding_aes_key: KEYS.encodingAesKey };
const OUT_OF_SCOPE = "I only answer questions about Zelin.";
const GREETING = "欢迎使用 **泽林** 助手！";
const GROUP = `wrkgroup${run}`;
/** An answer of ~3 KB: too long for one WeCom message (the agent's out-of-scope reply, up to 1000 characters). */
const LONG_ANSWER = Array.from({ length: 9 }, (_, i) => `第${i + 1}段：${"泽林智能体在企业微信里回答。".repeat(7)}`).join("\n\n");

let fake: TFakeWecom;
let api: Awaited<ReturnType<typeof startApiServer>>;
let gateway: TGateway;
let owner: TTestActor;
let bot: { botId: string; appId: string };
let longBot: { botId: string; appId: string };
let msgSeq = 0;
const saved = process.env.WECOM_API_BASE;

const callbackUrl = (botId: string, query: string) => `${api.base}/api/v1/bots/${botId}/wecom?${query}`;

async function postCallback(botId: string, innerXml: string, keys = KEYS) {
  const { query, body } = buildWecomCallback(keys, innerXml);
  const res = await fetch(callbackUrl(botId, query), { method: "POST", headers: { "content-type": "text/xml" }, body });
  return { status: res.status, text: await res.text() };
}

async function sendText(botId: string, from: string, content: string, msgId = `${Date.now()}${++msgSeq}`) {
  const res = await postCallback(botId, wecomTextXml({ corpId: APP.corpId, agentId: APP.agentId, from, content, msgId }));
  return { ...res, msgId };
}

const sentTo = (user: string) => fake.sent.filter((s) => s.to === user);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  fake = await startFakeWecom({ apps: [APP], knownChats: [GROUP] });
  process.env.WECOM_API_BASE = fake.base;
  resetEnvCache();
  api = await startApiServer();
  owner = await makeBotOwner();
  bot = await makeTestBot(owner, { channel: "wecom", credentials: CREDENTIALS, greeting: GREETING });
  const other = await makeBotOwner();
  longBot = await makeTestBot(other, { channel: "wecom", credentials: CREDENTIALS, agentConfig: { out_of_scope_reply: LONG_ANSWER } });
  // Only WeCom bots: bots other test files left in the shared database stay with their own channels.
  gateway = await startTestGateway({ factories: { wecom: createWecomChannel } });
});

afterAll(async () => {
  await gateway?.stop();
  await api?.close();
  await fake?.close();
  if (saved === undefined) delete process.env.WECOM_API_BASE;
  else process.env.WECOM_API_BASE = saved;
  resetEnvCache();
});

describe("association", () => {
  it("the gateway checks the credentials and waits; WeCom's URL verification gets the echostr back and the bot is online", async () => {
    await waitFor(async () => (await botRow(bot.botId)).state === "to_be_associated", 15_000, "bot waiting for the callback");
    expect((await botRow(bot.botId)).stateDetail).toBe("detail.waiting_callback");
    const res = await fetch(callbackUrl(bot.botId, buildWecomVerification(KEYS, "7317521690428190113")));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("7317521690428190113");
    const row = await botRow(bot.botId);
    expect(row.state).toBe("online");
    expect(row.lastSeenAt).not.toBeNull();
  });

  it("refuses a verification signed with another token, sealed for another corp, or without echostr", async () => {
    const forged = await fetch(callbackUrl(bot.botId, buildWecomVerification({ ...KEYS, token: "someoneelse" }, "123")));
    expect(forged.status).toBe(403);
    expect(await forged.text()).not.toContain("123");
    const otherCorp = await fetch(callbackUrl(bot.botId, buildWecomVerification({ ...KEYS, corpId: "wwother" }, "123")));
    expect(otherCorp.status).toBe(403);
    const q = new URLSearchParams(buildWecomVerification(KEYS, "123"));
    q.delete("echostr");
    expect((await fetch(callbackUrl(bot.botId, q.toString()))).status).toBe(400);
  });

  it("answers 404 for an unknown bot and for a bot of another channel", async () => {
    expect((await fetch(callbackUrl("no_such_bot", buildWecomVerification(KEYS, "1")))).status).toBe(404);
    const wechatBot = await makeTestBot(await makeBotOwner(), { channel: "wechat" });
    expect((await fetch(callbackUrl(wechatBot.botId, buildWecomVerification(KEYS, "1")))).status).toBe(404);
    const posted = await postCallback(wechatBot.botId, wecomTextXml({ corpId: APP.corpId, agentId: APP.agentId, from: "x", content: "hi", msgId: "404404" }));
    expect(posted.status).toBe(404);
    expect(await getDb().botInbound.count({ where: { botId: wechatBot.botId } })).toBe(0);
  });
});

describe("messages", () => {
  it("a member's text message is answered in markdown to the sender, and the use is recorded as the bot's", async () => {
    const res = await sendText(bot.botId, "zhangsan", "what is the weather?");
    expect(res).toMatchObject({ status: 200, text: "" });
    const reply = await waitFor(() => sentTo("zhangsan")[0], 20_000, "the reply");
    expect(reply).toMatchObject({ api: "message/send", msgtype: "markdown", content: OUT_OF_SCOPE, agentId: APP.agentId });
    expect(reply.body).toMatchObject({ touser: "zhangsan", agentid: Number(APP.agentId), markdown: { content: OUT_OF_SCOPE } });
    const uses = await waitFor(
      async () => {
        const u = await botUses(bot.appId);
        return u.length ? u : null;
      },
      10_000,
      "the app_use row",
    );
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ source: "bot", visitorId: botVisitorId(bot.botId, "zhangsan"), accountId: null });
    expect(await getDb().botInbound.count({ where: { botId: bot.botId, externalId: res.msgId } })).toBe(1);
    const conversation = await getDb().botConversation.findFirst({ where: { botId: bot.botId, externalId: "zhangsan" } });
    expect(conversation).toMatchObject({ kind: "contact", sessionKey: "contact:zhangsan" });
  });

  it("a message WeCom delivers again (same MsgId) is answered once", async () => {
    const msgId = `${Date.now()}77`;
    const inner = wecomTextXml({ corpId: APP.corpId, agentId: APP.agentId, from: "lilei", content: "hello?", msgId });
    // WeCom retries with a fresh timestamp, nonce and sealing: only the MsgId is the same.
    for (let i = 0; i < 3; i++) expect((await postCallback(bot.botId, inner)).status).toBe(200);
    await waitFor(() => sentTo("lilei").length === 1, 20_000, "the reply");
    // A later message from the same member is answered: everything before it has been handled.
    await sendText(bot.botId, "lilei", "and now?");
    await waitFor(() => sentTo("lilei").length === 2, 20_000, "the second reply");
    await sleep(500);
    expect(sentTo("lilei")).toHaveLength(2);
    expect(await getDb().botInbound.count({ where: { botId: bot.botId, externalId: msgId } })).toBe(1);
    expect((await botUses(bot.appId)).filter((u) => u.visitorId === botVisitorId(bot.botId, "lilei"))).toHaveLength(2);
  });

  it("refuses a callback with a bad signature, a tampered body or another corp's sealing (403), and sends nothing", async () => {
    const inner = (msgId: string) => wecomTextXml({ corpId: APP.corpId, agentId: APP.agentId, from: "mallory", content: "what is Zelin?", msgId });
    const tries: { status: number }[] = [];
    // Signed with a token that is not the bot's.
    tries.push(await postCallback(bot.botId, inner("900001"), { ...KEYS, token: "not-the-token" }));
    // A right signature over another ciphertext.
    const good = buildWecomCallback(KEYS, inner("900002"));
    const other = buildWecomCallback(KEYS, inner("900003"));
    const spliced = await fetch(callbackUrl(bot.botId, good.query), { method: "POST", body: other.body });
    tries.push({ status: spliced.status });
    // The signature changed by one character.
    const q = new URLSearchParams(good.query);
    const sig = q.get("msg_signature")!;
    q.set("msg_signature", `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`);
    tries.push({ status: (await fetch(callbackUrl(bot.botId, q.toString()), { method: "POST", body: good.body })).status });
    // Signed with the bot's token but sealed for another corp (receive id).
    tries.push(await postCallback(bot.botId, inner("900004"), { ...KEYS, corpId: "wwsomeoneelse" }));
    // No signature at all.
    tries.push({ status: (await fetch(`${api.base}/api/v1/bots/${bot.botId}/wecom`, { method: "POST", body: good.body })).status });
    expect(tries.map((t) => t.status)).toEqual([403, 403, 403, 403, 403]);
    // Not XML is a bad request, also answered nothing.
    expect((await fetch(callbackUrl(bot.botId, good.query), { method: "POST", body: "{}" })).status).toBe(400);
    await sleep(1500);
    expect(sentTo("mallory")).toEqual([]);
    expect(await getDb().botInbound.count({ where: { botId: bot.botId, externalId: { in: ["900001", "900002", "900003", "900004"] } } })).toBe(0);
  });

  it("fetches the access token once for many replies, and again once WeCom says it expired", async () => {
    // The gateway's connect fetched the token; every reply so far used it.
    expect(fake.tokenRequests).toBe(1);
    for (const who of ["u1", "u2", "u3"]) await sendText(bot.botId, who, "what is the weather?");
    await waitFor(() => ["u1", "u2", "u3"].every((u) => sentTo(u).length === 1), 20_000, "three replies");
    expect(fake.tokenRequests).toBe(1);
    fake.expireTokens();
    await sendText(bot.botId, "u4", "what is the weather?");
    const reply = await waitFor(() => sentTo("u4")[0], 20_000, "the reply after expiry");
    expect(reply.content).toBe(OUT_OF_SCOPE);
    expect(fake.tokenRequests).toBe(2);
    await sendText(bot.botId, "u5", "what is the weather?");
    await waitFor(() => sentTo("u5")[0], 20_000, "the next reply");
    expect(fake.tokenRequests).toBe(2);
  });

  it("splits a long answer into markdown messages within 2048 bytes, in order, the whole answer", async () => {
    expect(Buffer.byteLength(LONG_ANSWER)).toBeGreaterThan(2048);
    await sendText(longBot.botId, "hanmeimei", "tell me everything");
    await waitFor(
      () =>
        sentTo("hanmeimei").length >= 2 &&
        sentTo("hanmeimei")
          .map((s) => s.content)
          .join("")
          .replace(/\s/g, "") === LONG_ANSWER.replace(/\s/g, ""),
      20_000,
      "the whole answer",
    );
    for (const part of sentTo("hanmeimei")) {
      expect(part).toMatchObject({ api: "message/send", msgtype: "markdown" });
      expect(Buffer.byteLength(part.content, "utf8")).toBeLessThanOrEqual(2048);
    }
    // One question, one use, however many pieces.
    expect(await botUses(longBot.appId)).toHaveLength(1);
  });
});

describe("greetings and scheduled messages", () => {
  it("greets a member who follows or opens the app, once", async () => {
    const event = (e: string) => wecomEventXml({ corpId: APP.corpId, agentId: APP.agentId, from: "newcomer", event: e });
    expect((await postCallback(bot.botId, event("subscribe"))).status).toBe(200);
    const greeting = await waitFor(() => sentTo("newcomer")[0], 20_000, "the greeting");
    expect(greeting).toMatchObject({ api: "message/send", msgtype: "markdown", content: GREETING });
    // Opening the app (WeCom says so on every visit) does not greet again.
    expect((await postCallback(bot.botId, event("enter_agent"))).status).toBe(200);
    expect((await postCallback(bot.botId, event("enter_agent"))).status).toBe(200);
    await sleep(1500);
    expect(sentTo("newcomer")).toHaveLength(1);
    const deliveries = await getDb().botDelivery.findMany({ where: { botId: bot.botId, kind: "greeting" } });
    expect(deliveries.map((d) => [d.state, (d.target as { id: string }).id])).toEqual([["sent", "newcomer"]]);
    // An event the bot does not answer is accepted and ignored.
    expect((await postCallback(bot.botId, event("click"))).status).toBe(200);
  });

  it("a scheduled message to a group chat goes out through appchat/send", async () => {
    const content = `周会提醒 ${run}：今天 **15:00** 开会。`;
    await saveSchedule(
      owner,
      ZScheduleInput.parse({
        bot_id: bot.botId,
        content,
        targets: [{ kind: "group", id: GROUP, name: "产品组" }],
        send_at: new Date(Date.now() + 500).toISOString(),
        loop: "once",
      }),
    );
    // The gateway holding the bot fires it: a WeCom bot sends through the API as soon as its credentials are accepted.
    const sent = await waitFor(() => fake.sent.find((s) => s.api === "appchat/send" && s.to === GROUP), 20_000, "the scheduled message");
    expect(sent).toMatchObject({ msgtype: "markdown", content });
    expect(sent.body).toMatchObject({ chatid: GROUP, msgtype: "markdown", markdown: { content } });
    const delivery = await waitFor(
      () => getDb().botDelivery.findFirst({ where: { botId: bot.botId, kind: "scheduled", state: "sent" } }),
      10_000,
      "the delivery row",
    );
    expect(delivery.target).toMatchObject({ kind: "group", id: GROUP });
    await sleep(1000);
    expect(fake.sent.filter((s) => s.api === "appchat/send" && s.content === content)).toHaveLength(1);
  });
});
