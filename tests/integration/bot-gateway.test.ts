// The bot gateway's core, through a real channel (WeCom's, against its loopback fake):
// messages answered through the app runtime and its entitlements, a polite reply (once) while the
// agent fails, scheduled loops that fire on time across a restart, and two gateway processes: one
// killed, its bots taken by the other within the lease, and no scheduled message sent twice.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { saveSchedule } from "../../server/bots/bot-schedules.service";
import { ZScheduleInput } from "../../server/bots/bots.schema";
import { relogin } from "../../server/bots/bots.service";
import { createWechatChannel } from "../../bot-gateway/channels/wechat";
import { waitForMocker } from "../../bot-gateway/channels/wechat/mock-puppet";
import type { TChannelSpec } from "../../bot-gateway/core/channel";
import { enqueueInbound } from "../../server/bots/inbound-queue";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import type { TGateway } from "../../bot-gateway/core/gateway";
import { startFakeOpenai } from "../fakes/fake-openai";
import { startFakeWecom, type TFakeWecom } from "../fakes/fake-wecom";
import { botRow, botUses, makeBotOwner, makeTestBot, startTestGateway, waitFor } from "../helpers/bots";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

let wecom: TFakeWecom;
let upstream: Awaited<ReturnType<typeof startFakeOpenai>>;
const gateways: TGateway[] = [];
const children: ChildProcess[] = [];
const uid = () => crypto.randomBytes(4).toString("hex");

beforeAll(async () => {
  wecom = await startFakeWecom({ apps: [] });
  upstream = await startFakeOpenai();
  process.env.WECOM_API_BASE = wecom.base;
  resetEnvCache();
});
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((g) => g.stop()));
  for (const c of children.splice(0)) c.kill("SIGKILL");
});
afterAll(async () => {
  await wecom?.close();
  await upstream?.close();
});

/** A WeCom bot of a fresh owner, its app known to the fake. */
async function wecomBot(o: { freePerDay?: number; agentConfig?: Record<string, unknown>; owner?: Awaited<ReturnType<typeof makeBotOwner>> } = {}) {
  const app = { corpId: `ww${uid()}`, agentId: String(1_000_000 + crypto.randomInt(1000)), secret: `secret-${uid()}` };
  wecom.addApp(app);
  const owner = o.owner ?? (await makeBotOwner());
  const credentials = {
    corp_id: app.corpId,
    agent_id: app.agentId,
    secret: app.secret,
    token: `t${uid()}`,
    encoding_aes_key: crypto
      .randomBytes(32)
      .toString("base64")
      .replace(/[^A-Za-z0-9]/g, "")
      .padEnd(43, "x")
      .slice(0, 43),
  };
  const bot = await makeTestBot(owner, { channel: "wecom", credentials, freePerDay: o.freePerDay, agentConfig: o.agentConfig });
  return { ...bot, owner, app };
}

const sentTo = (app: { agentId: string }, to?: string) => wecom.sent.filter((s) => s.agentId === app.agentId && (to === undefined || s.to === to));
const message = (from: string, text: string, id = uid()) => ({
  externalId: id,
  sender: { id: from, name: from },
  conversation: { kind: "contact" as const, id: from },
  text,
  mentionedBot: true,
  receivedAt: new Date(),
});

describe("answering", () => {
  it("answers through the app's agent, counts the sender's uses against the free count, and says the refusal in words", async () => {
    const { botId, appId, app } = await wecomBot({ freePerDay: 1 });
    gateways.push(await startTestGateway());
    await enqueueInbound(botId, message("zhangsan", "What is the weather?"));
    const reply = await waitFor(() => sentTo(app, "zhangsan")[0], 15_000, "the answer");
    expect(reply).toMatchObject({ api: "message/send", msgtype: "markdown" });
    expect(reply.content).toBe("I only answer questions about Zelin.");
    const uses = await botUses(appId);
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ source: "bot", basis: "free", accountId: null });
    expect(uses[0].dialogueId).toBeTruthy();

    // The free use of the day is spent: the sender is told so, in the owner's language, and no use is counted.
    await enqueueInbound(botId, message("zhangsan", "Again?"));
    const refusal = await waitFor(() => sentTo(app, "zhangsan")[1], 15_000, "the refusal");
    expect(refusal.content).toMatch(/exhausted|tomorrow/i);
    // Another sender has their own free use, and their own dialogue.
    await enqueueInbound(botId, message("lisi", "Hello"));
    await waitFor(() => sentTo(app, "lisi")[0], 15_000, "lisi's answer");
    const after = await botUses(appId);
    expect(after).toHaveLength(2);
    expect(after[1].dialogueId).not.toBe(after[0].dialogueId);
    // The conversation keeps its dialogue: the next turn of zhangsan continues it (tomorrow's free use).
    const conv = await getDb().botConversation.findFirstOrThrow({ where: { botId, externalId: "zhangsan" } });
    expect(conv.dialogueId).toBe(uses[0].dialogueId);
  });

  it("gives a polite error reply while the agent fails, once, even when the platform delivers the message twice", async () => {
    const modelKey = `bot-fail-${uid()}`;
    const key = `sk-bot-${uid()}`;
    await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "失败", supports_tools: false, supports_reasoning: false }));
    await createChannel(ZCreateChannelInput.parse({ name: `ch ${modelKey}`, type: "openai", base_url: upstream.base, key, models: [modelKey], weight: 1 }));
    upstream.setBehaviour(key, { fail: "500" });
    const { botId, appId, app } = await wecomBot({ agentConfig: { model_key: modelKey } });
    gateways.push(await startTestGateway());
    const msg = message("wangwu", "Are you there?");
    await enqueueInbound(botId, msg);
    await enqueueInbound(botId, { ...msg, receivedAt: new Date() });
    const reply = await waitFor(() => sentTo(app, "wangwu")[0], 20_000, "the polite reply");
    expect(reply.content).toBe("Sorry, the agent cannot answer right now. Please try again later.");
    await new Promise((r) => setTimeout(r, 1500));
    expect(sentTo(app, "wangwu")).toHaveLength(1);
    expect(upstream.requestsFor(key)).toBeGreaterThan(0);
    // No reply given, so no use counted.
    expect(await botUses(appId)).toHaveLength(0);
  });
});

describe("unreadable credentials", () => {
  it("a bot sealed under another APP_SECRET is held offline with the reason, and the bots claimed with it still run", async () => {
    const owner = await makeBotOwner();
    const broken = await wecomBot({ owner });
    const good = await wecomBot({ owner });
    // As if the row came from an installation with another secret.
    const foreign = crypto.createCipheriv("aes-256-gcm", crypto.randomBytes(32), crypto.randomBytes(12));
    foreign.update("{}");
    foreign.final();
    await getDb().bot.update({
      where: { id: broken.botId },
      data: {
        credentials: `v1.${crypto.randomBytes(12).toString("base64url")}.${foreign.getAuthTag().toString("base64url")}.${crypto.randomBytes(8).toString("base64url")}`,
      },
    });
    const gw = await startTestGateway({ claimPerScan: 5 });
    gateways.push(gw);
    const row = await waitFor(
      async () => {
        const r = await botRow(broken.botId);
        return r.stateDetail === "detail.credentials_unreadable" ? r : null;
      },
      10_000,
      "the broken bot parked",
    );
    expect(row).toMatchObject({ state: "offline", leaseOwner: gw.instanceId });
    await waitFor(async () => (await botRow(good.botId)).leaseOwner === gw.instanceId && gw.held().includes(good.botId), 10_000, "the good bot taken");
    await enqueueInbound(good.botId, message("wangwu", "Hi"));
    await waitFor(() => sentTo(good.app, "wangwu")[0], 15_000, "the good bot's answer");
    // The owner sees why, once, and the console shows the credentials empty to be entered again.
    const events = await getDb().botEvent.findMany({ where: { botId: broken.botId } });
    expect(events.filter((e) => JSON.stringify(e.detail).includes("credentials_unreadable"))).toHaveLength(1);
  });
});

describe("scheduled messages", () => {
  it("a loop fires on time across a restart of the gateway, once, and moves to its next day", async () => {
    const { botId, owner, app } = await wecomBot();
    const first = await startTestGateway({ instanceId: `gw-a-${uid()}` });
    gateways.push(first);
    await waitFor(async () => (await botRow(botId)).leaseOwner === first.instanceId, 10_000, "the first gateway holds the bot");
    const sendAt = new Date(Date.now() + 2500);
    const schedule = await saveSchedule(
      owner,
      ZScheduleInput.parse({
        bot_id: botId,
        content: "Daily report time",
        targets: [
          { kind: "contact", id: "boss", name: "Boss" },
          { kind: "group", id: "chat-1", name: "Team" },
        ],
        send_at: sendAt.toISOString(),
        loop: "daily",
      }),
    );
    expect(new Date(schedule.next_run_at!).getTime()).toBe(sendAt.getTime());

    // The gateway restarts before the time: the new instance fires it.
    await first.stop();
    gateways.splice(gateways.indexOf(first), 1);
    const second = await startTestGateway({ instanceId: `gw-b-${uid()}` });
    gateways.push(second);
    const sent = await waitFor(() => (sentTo(app).length >= 2 ? sentTo(app) : null), 15_000, "the scheduled sends");
    // The platform has the message before the gateway records the answer: wait for the record.
    const deliveries = await waitFor(
      async () => {
        const rows = await getDb().botDelivery.findMany({ where: { botId }, orderBy: { createdAt: "asc" } });
        return rows.length >= 2 && rows.every((d) => d.state !== "sending") ? rows : null;
      },
      5_000,
      "the deliveries recorded",
    );
    expect(deliveries.map((d) => d.state)).toEqual(["sent", "sent"]);
    expect(deliveries.every((d) => d.sentBy === second.instanceId)).toBe(true);
    // On time: not before its time, and within a couple of ticks after it.
    for (const d of deliveries) {
      expect(d.sentAt!.getTime()).toBeGreaterThanOrEqual(sendAt.getTime());
      expect(d.sentAt!.getTime() - sendAt.getTime()).toBeLessThan(2000);
    }
    expect(sent.map((s) => `${s.api}:${s.to}`).sort()).toEqual(["appchat/send:chat-1", "message/send:boss"]);
    const row = await getDb().botSchedule.findUniqueOrThrow({ where: { id: schedule.id } });
    expect(row.nextRunAt!.getTime()).toBe(sendAt.getTime() + 86_400_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(sentTo(app)).toHaveLength(2);
  });
});

describe("logging in again", () => {
  it("the owner asks for a new login: the holder lets go, a fresh connection forgets the saved session and shows a new QR", async () => {
    const owner = await makeBotOwner();
    const { botId } = await makeTestBot(owner, { channel: "wechat" });
    const specs: TChannelSpec[] = [];
    gateways.push(await startTestGateway({ factories: { wechat: (spec) => (specs.push(spec), createWechatChannel(spec)) }, consumeQueue: false }));
    const first = await waitForMocker(botId, { timeoutMs: 15_000 });
    first.login("老账号");
    await waitFor(async () => (await botRow(botId)).state === "online", 10_000, "online");
    expect(specs.map((x) => Boolean(x.freshLogin))).toEqual([false]);

    const view = await relogin(owner, botId);
    expect(view).toMatchObject({ state: "deploying", login_name: null });
    const second = await waitForMocker(botId, { after: first, timeoutMs: 15_000 });
    expect(specs.map((x) => Boolean(x.freshLogin))).toEqual([false, true]);
    second.scan(`https://login.weixin.qq.com/l/fresh-${uid()}`);
    const row = await waitFor(
      async () => {
        const r = await botRow(botId);
        return r.state === "to_be_associated" && r.loginQr ? r : null;
      },
      10_000,
      "a new QR",
    );
    expect(row.loginName).toBeNull();
  });
});

describe("two gateway processes", () => {
  const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/bot-gateway-process.ts");
  const LEASE_MS = 3000;

  function startChild(instanceId: string, scope: string[], maxBots?: number): Promise<ChildProcess> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, instanceId], {
        env: {
          ...process.env,
          BOT_LEASE_MS: String(LEASE_MS),
          BOT_SCAN_MS: "300",
          BOT_TICK_MS: "200",
          BOT_CLAIM_PER_SCAN: "1",
          BOT_OWNER_SCOPE: scope.join(","),
          LOG_LEVEL: "warn",
          ...(maxBots ? { TEST_GATEWAY_MAX_BOTS: String(maxBots) } : {}),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let err = "";
      child.stderr!.on("data", (d) => (err = (err + d).slice(-3000)));
      child.stdout!.on("data", (d) => String(d).includes('"ready"') && resolve(child));
      child.on("exit", (code) => reject(new Error(`gateway process exited ${code}: ${err}`)));
    });
  }

  it("kill one: its bots come back on the other within the lease, and no scheduled message is sent twice", async () => {
    const owner = await makeBotOwner({ funds: 600_000_000 });
    const bots: Awaited<ReturnType<typeof wecomBot>>[] = [];
    for (let i = 0; i < 4; i++) bots.push(await wecomBot({ owner }));
    const [a, b] = [`gw-a-${uid()}`, `gw-b-${uid()}`];
    const t0 = Date.now();
    // Only this test's four bots, and A holds two at most: B takes the rest however their first
    // scans fall (on a busy machine one process can start seconds after the other, and would
    // otherwise claim all four first).
    const [childA] = await Promise.all([startChild(a, [owner.id], 2), startChild(b, [owner.id])]);
    console.log(`two gateway processes up in ${Date.now() - t0} ms`);
    const ids = bots.map((x) => x.botId);
    const owners = async () => (await getDb().bot.findMany({ where: { id: { in: ids } }, select: { id: true, leaseOwner: true } })).map((r) => r.leaseOwner);
    // Both instances take bots (one per scan each): spread across the two.
    await waitFor(
      async () => {
        const o = await owners();
        return o.every(Boolean) && o.includes(a) && o.includes(b);
      },
      20_000,
      "bots spread across both gateways",
    );

    // An occurrence due while both run: each bot's goes out once, from its holder.
    const due = new Date(Date.now() + 2000);
    for (const x of bots)
      await saveSchedule(
        owner,
        ZScheduleInput.parse({
          bot_id: x.botId,
          content: `tick ${x.botId}`,
          targets: [{ kind: "contact", id: "ops" }],
          send_at: due.toISOString(),
          loop: "hours",
          every_hours: 1,
        }),
      );
    await waitFor(() => bots.every((x) => sentTo(x.app, "ops").length >= 1), 20_000, "every bot's occurrence sent");
    await new Promise((r) => setTimeout(r, 1500));
    for (const x of bots) expect(sentTo(x.app, "ops")).toHaveLength(1);

    // Kill A without warning: its bots are taken by B once their leases run out.
    const heldByA = (await getDb().bot.findMany({ where: { id: { in: ids }, leaseOwner: a }, select: { id: true } })).map((r) => r.id);
    expect(heldByA.length).toBeGreaterThan(0);
    const killedAt = Date.now();
    childA.kill("SIGKILL");
    await waitFor(async () => (await owners()).every((o) => o === b), 60_000, "B holds every bot");
    const movedIn = Date.now() - killedAt;
    expect(movedIn).toBeLessThan(60_000);
    console.log(`bots of the killed gateway came back on the other in ${movedIn} ms (lease ${LEASE_MS} ms)`);

    // The next occurrences (moved to now) go out once each, all from B.
    await getDb().botSchedule.updateMany({ where: { botId: { in: ids } }, data: { nextRunAt: new Date(Date.now() + 500) } });
    await waitFor(() => bots.every((x) => sentTo(x.app, "ops").length >= 2), 20_000, "every bot's next occurrence sent");
    await new Promise((r) => setTimeout(r, 1500));
    for (const x of bots) expect(sentTo(x.app, "ops")).toHaveLength(2);
    const deliveries = await getDb().botDelivery.findMany({ where: { botId: { in: ids } } });
    expect(deliveries).toHaveLength(8);
    expect(new Set(deliveries.map((d) => d.occurrenceKey)).size).toBe(8);
    expect(deliveries.filter((d) => d.createdAt.getTime() > killedAt).every((d) => d.sentBy === b)).toBe(true);
  }, 180_000);
});
