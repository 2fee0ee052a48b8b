// Bots as their owners manage them: the edition's bot count, the bot package paid a year
// at a time from the wallet, credentials sealed and masked, scheduled messages with their next send
// time, and the refusals: they change nothing (no bot, no app, no coins gone).
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { BOT_PACKAGE_YEAR_MICRO } from "../../server/bots/bot-package";
import * as schedules from "../../server/bots/bot-schedules.service";
import * as bots from "../../server/bots/bots.service";
import { ZBotCreate, ZScheduleInput } from "../../server/bots/bots.schema";
import { deleteBot } from "../../server/bots/bot-delete.service";
import { getWallet } from "../../server/money/ledger.service";
import { makeLiveAgent } from "../helpers/apps";
import { makeBotOwner, makeTestBot } from "../helpers/bots";

const { listSchedules } = schedules;
const { getBot, listBots, relogin, renewBotPackage, updateBot } = bots;
type TActor = bots.TActor;
/** As the bots procedures call them: the raw input parsed first, a refused parse rejecting as the service's own refusals do. */
const createBot = async (actor: TActor, raw: unknown) => bots.createBot(actor, ZBotCreate.parse(raw));
const saveSchedule = async (actor: TActor, raw: unknown) => schedules.saveSchedule(actor, ZScheduleInput.parse(raw));

const WECOM = { corp_id: "wwcorp0001", agent_id: "1000002", secret: "wecom-secret-abcdef", token: "tok123", encoding_aes_key: "a".repeat(43) };
const code = async (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { code?: string; name?: string }) => e.code ?? e.name,
  );
const total = (w: { spendable: number; gift: number }) => w.spendable + w.gift;

describe("creating a bot", () => {
  it("pays the first year of the package, makes a private BOT app and keeps the credentials sealed", async () => {
    const owner = await makeBotOwner();
    const before = total(await getWallet(owner.id));
    const { botId, appId } = await makeTestBot(owner, { channel: "wecom", credentials: WECOM, greeting: "欢迎！" });
    expect(total(await getWallet(owner.id))).toBe(before - BOT_PACKAGE_YEAR_MICRO);
    const row = await getDb().bot.findUniqueOrThrow({ where: { id: botId } });
    expect(row.credentials).not.toContain("wecom-secret");
    expect(row.state).toBe("deploying");
    expect(row.paidUntil.getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    const app = await getDb().app.findUniqueOrThrow({ where: { id: appId } });
    expect(app).toMatchObject({ type: "bot", isPublic: false, inAppCentre: false, platform: "wecom" });
    const view = await getBot(owner, botId);
    expect(view.credentials_masked.secret).toBe("••••cdef");
    expect(view.credentials_masked.corp_id).toBe("wwcorp0001");
    expect(view.callback_path).toBe(`/api/v1/bots/${botId}/wecom`);
    expect(view.greeting).toBe("欢迎！");
  });

  it("refuses a basic edition (bot limit reached), a thin wallet and bad credentials, changing nothing", async () => {
    const basic = await makeBotOwner({ edition: "basic" });
    const agentId = await makeLiveAgent(basic);
    const input = { name: "Bot", agent_id: agentId, channel: "wechat" as const };
    expect(await code(createBot(basic, input))).toBe("bot_limit_reached");

    const poor = await makeBotOwner({ funds: 5_000_000 });
    const poorAgent = await makeLiveAgent(poor);
    const poorBefore = await getWallet(poor.id);
    expect(await code(createBot(poor, { ...input, agent_id: poorAgent }))).toBe("balance_insufficient");
    expect(await getWallet(poor.id)).toEqual(poorBefore);

    const owner = await makeBotOwner();
    const agent = await makeLiveAgent(owner);
    expect(await code(createBot(owner, { ...input, agent_id: agent, channel: "wecom", credentials: { ...WECOM, encoding_aes_key: "short" } }))).toBe(
      "ZodError",
    );
    expect(await code(createBot(owner, { ...input, agent_id: "nope" }))).toBe("ZodError");
    for (const who of [basic, poor, owner]) {
      expect(await getDb().bot.count({ where: { ownerAccountId: who.id } })).toBe(0);
      expect(await getDb().app.count({ where: { ownerAccountId: who.id, type: "bot" } })).toBe(0);
    }
  });

  it("keeps to the professional edition's ten bots", async () => {
    const owner = await makeBotOwner({ funds: 1200_000_000 });
    const agentId = await makeLiveAgent(owner);
    for (let i = 0; i < 10; i++) await createBot(owner, { name: `Bot ${i}`, agent_id: agentId, channel: "wechat" });
    expect(await code(createBot(owner, { name: "Bot 11", agent_id: agentId, channel: "wechat" }))).toBe("bot_limit_reached");
    expect((await listBots(owner)).length).toBe(10);
  });
});

describe("managing a bot", () => {
  it("renews the package once per click, from the current end, and revives an expired bot", async () => {
    const owner = await makeBotOwner({ funds: 500_000_000 });
    const { botId } = await makeTestBot(owner, { channel: "wechat" });
    const first = await getDb().bot.findUniqueOrThrow({ where: { id: botId } });
    const before = total(await getWallet(owner.id));
    const seen = first.paidUntil.toISOString();
    const [a, b] = await Promise.all([renewBotPackage(owner, botId, seen), renewBotPackage(owner, botId, seen)]);
    const after = await getDb().bot.findUniqueOrThrow({ where: { id: botId } });
    // Two clicks on the same end: one year, one charge (the second is the same request again).
    expect(total(await getWallet(owner.id))).toBe(before - BOT_PACKAGE_YEAR_MICRO);
    expect(after.paidUntil.getTime() - first.paidUntil.getTime()).toBe(365 * 86_400_000);
    expect([a.paid_until, b.paid_until]).toEqual([after.paidUntil.toISOString(), after.paidUntil.toISOString()]);
    expect([a.charged, b.charged].sort()).toEqual([false, true]);
    // A later click that saw the new end is a second year.
    expect((await renewBotPackage(owner, botId, after.paidUntil.toISOString())).charged).toBe(true);

    await getDb().bot.update({ where: { id: botId }, data: { paidUntil: new Date(Date.now() - 1000), state: "expired" } });
    // Paused and past its package: it cannot be resumed ("bot package expired"), nor asked to log in again.
    await updateBot(owner, { bot_id: botId, enabled: false });
    expect(await code(updateBot(owner, { bot_id: botId, enabled: true }))).toBe("bot_package_expired");
    expect(await code(relogin(owner, botId))).toBe("bot_package_expired");
    await getDb().bot.update({ where: { id: botId }, data: { enabled: true, state: "expired" } });
    const revived = await renewBotPackage(owner, botId);
    expect(new Date(revived.paid_until).getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    expect((await getDb().bot.findUniqueOrThrow({ where: { id: botId } })).state).toBe("deploying");
    const events = await getDb().botEvent.findMany({ where: { botId, kind: "package_renewed" } });
    expect(events).toHaveLength(3);
  });

  it("keeps a secret left empty on edit, lets go of the connection when credentials change, and hides bots from others", async () => {
    const owner = await makeBotOwner();
    const { botId } = await makeTestBot(owner, { channel: "wecom", credentials: WECOM });
    await getDb().bot.update({ where: { id: botId }, data: { leaseOwner: "gw-1", leaseUntil: new Date(Date.now() + 60_000) } });
    await updateBot(owner, { bot_id: botId, greeting: "Hi" });
    expect((await getDb().bot.findUniqueOrThrow({ where: { id: botId } })).leaseOwner).toBe("gw-1");
    const view = await updateBot(owner, { bot_id: botId, credentials: { ...WECOM, secret: "", token: "tok999" } });
    expect(view.credentials_masked.secret).toBe("••••cdef");
    expect(view.credentials_masked.token).toBe("tok999");
    expect((await getDb().bot.findUniqueOrThrow({ where: { id: botId } })).leaseOwner).toBeNull();

    const stranger = await makeBotOwner();
    expect(await code(getBot(stranger, botId))).toBe("not_found");
    expect(await code(updateBot(stranger, { bot_id: botId, greeting: "pwned" }))).toBe("not_found");
    expect(await code(deleteBot(stranger, botId))).toBe("not_found");
    expect(
      await code(
        saveSchedule(stranger, {
          bot_id: botId,
          content: "x",
          targets: [{ kind: "contact", id: "u1" }],
          send_at: new Date(Date.now() + 3600_000).toISOString(),
        }),
      ),
    ).toBe("not_found");
    expect((await getBot(owner, botId)).greeting).toBe("Hi");
  });

  it("schedules a daily loop with its next send time, and refuses a one-off in the past", async () => {
    const owner = await makeBotOwner();
    const { botId } = await makeTestBot(owner, { channel: "wechat" });
    const yesterday9 = new Date(Date.now() - 86_400_000);
    const s = await saveSchedule(owner, {
      bot_id: botId,
      content: "早上好",
      targets: [{ kind: "group", id: "room-1", name: "Team" }],
      send_at: yesterday9.toISOString(),
      loop: "daily",
      utc_offset_minutes: 480,
    });
    // Yesterday's time, daily: next is today's or tomorrow's, at the same time of day.
    expect(new Date(s.next_run_at!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((new Date(s.next_run_at!).getTime() - yesterday9.getTime()) % 86_400_000).toBe(0);
    expect(
      await code(
        saveSchedule(owner, { bot_id: botId, content: "late", targets: [{ kind: "contact", id: "u1" }], send_at: yesterday9.toISOString(), loop: "once" }),
      ),
    ).toBe("ZodError");
    expect(
      await code(
        saveSchedule(owner, { bot_id: botId, content: "hours", targets: [{ kind: "contact", id: "u1" }], send_at: new Date().toISOString(), loop: "hours" }),
      ),
    ).toBe("ZodError");
    expect(await code(saveSchedule(owner, { bot_id: botId, content: "nobody", targets: [], send_at: new Date().toISOString() }))).toBe("ZodError");
    expect((await listSchedules(owner, botId)).map((x) => x.content)).toEqual(["早上好"]);
  });
});
