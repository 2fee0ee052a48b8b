// Bots as their owners manage them in the console: create
// (the edition's bot count, the first year of the bot package paid from the wallet, the BOT app
// and the bot in one transaction), edit, pause, renew, log in again; deleting, with its refund, is
// bot-delete.service.ts; scheduled messages are in bot-schedules.service.ts; the owner's notices are here.
//
// A change that needs a new connection (credentials, pause, delete, log in again) breaks the
// bot's lease: the gateway holding it drops it at its next renewal and one takes it afresh.
import { ZodError } from "zod";
import { assertOwned } from "../accounts/access";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertWithinLimit, getEntitlements } from "../accounts/entitlements.service";
import * as appsRepo from "../apps/apps.repository";
import { runTransaction, withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { getWallet, platform, spend } from "../money/ledger.service";
import { newId } from "../turns/turn";
import { maskCredentials, openCredentialsOrEmpty, parseCredentials, sealCredentials } from "./bot-credentials";
import { BOT_PACKAGE_DAYS, BOT_PACKAGE_YEAR_MICRO, extendPaidUntil } from "./bot-package";
import { findDeleteRefunds } from "./bot-refund";
import { RELOGIN_DETAIL, type TBotChannel, type TBotCreate, type TBotEventView, type TBotPackageQuote, type TBotUpdate, type TBotView } from "./bots.schema";
import * as repo from "./bots.repository";
import { breakLease } from "./gateway.repository";

export type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;

export const fieldError = (path: (string | number)[], message: string) => new ZodError([{ code: "custom", path, message, input: undefined }]);

function callbackPath(channel: TBotChannel, id: string, creds: Record<string, unknown>) {
  if (channel === "wecom") return `/api/v1/bots/${id}/wecom`;
  if (channel === "feishu" && creds.mode === "webhook") return `/api/v1/bots/${id}/feishu`;
  return null;
}

async function toViews(rows: repo.TBotRow[], now = new Date()): Promise<TBotView[]> {
  const agentIds = [...new Set(rows.map((r) => r.app.agents[0]?.agentId).filter((x): x is string => Boolean(x)))];
  const [agentNames, refunds] = await Promise.all([repo.findAgentNames(agentIds), findDeleteRefunds(rows, now)]);
  const names = new Map(agentNames.map((a) => [a.id, a.name]));
  return rows.map((r) => {
    const creds = openCredentialsOrEmpty(r.credentials);
    const agentId = r.app.agents[0]?.agentId;
    return {
      id: r.id,
      app_id: r.appId,
      name: r.name,
      channel: r.channel,
      state: r.state,
      state_detail: r.stateDetail,
      state_changed_at: r.stateChangedAt.toISOString(),
      login_qr: r.state === "to_be_associated" ? r.loginQr : null,
      login_name: r.loginName,
      group_reply: r.groupReply === "all" ? "all" : "mention",
      greeting: r.greeting,
      enabled: r.enabled,
      paid_until: r.paidUntil.toISOString(),
      package_expired: r.paidUntil <= now,
      credentials_masked: maskCredentials(r.channel, creds),
      callback_path: callbackPath(r.channel, r.id, creds),
      agent: agentId ? { id: agentId, name: names.get(agentId) ?? "" } : null,
      created_at: r.createdAt.toISOString(),
      unread_events: r._count.events,
      refund_on_delete: refunds.get(r.id) ?? null,
    };
  });
}

/** The bot, if the actor may manage it (its owner, or the owner's enterprise administrators); else not_found. */
export async function loadOwnedBot(actor: TActor, botId: string) {
  const row = await repo.findBot(botId);
  return assertOwned(row ? { ...row, accountId: row.ownerAccountId, enterpriseId: row.app.enterpriseId } : null, actor, { enterpriseWide: true });
}

/** The package's price, the edition's bot limit, how many bots the account has and what it can spend (the create form shows them). */
export async function getBotPackageQuote(actor: TActor): Promise<TBotPackageQuote> {
  const [{ edition, limits }, used, balance] = await Promise.all([getEntitlements(actor.id), repo.countBotsOf(actor.id), getWallet(actor.id)]);
  return { edition, price_year_micro: BOT_PACKAGE_YEAR_MICRO, package_days: BOT_PACKAGE_DAYS, limit: limits.bots, used, balance_micro: balance.available };
}

export async function createBot(actor: TActor, input: TBotCreate): Promise<{ bot_id: string; app_id: string }> {
  const credentials = parseCredentials(input.channel, input.credentials);
  const botId = newId();
  const now = new Date();
  const appId = await runTransaction(async (tx) => {
    await repo.lockAccountBots(actor.id, tx);
    await assertWithinLimit(actor.id, "bots", await repo.countBotsOf(actor.id, tx), now, tx);
    const agent = await repo.findLiveAgentOf(actor.id, input.agent_id, tx);
    if (!agent) throw fieldError(["agent_id"], "bots:validation.agent_not_live");
    // The first year of the package; refused balance_insufficient, and then nothing is created.
    await spend(
      {
        key: `bot_package:${botId}:0`,
        kind: "bot_package",
        payer: actor.id,
        amount: BOT_PACKAGE_YEAR_MICRO,
        credits: [{ account: platform("platform_revenue"), amount: BOT_PACKAGE_YEAR_MICRO }],
        memo: { botId, name: input.name, days: BOT_PACKAGE_DAYS },
      },
      tx,
    );
    // The BOT app carries the agent and the use rules (free count, trial, plans) as for H5 apps;
    // it is private and out of the app centre: it is reached through the bot, not the market.
    const appId = await appsRepo.insertApp(
      {
        ownerAccountId: actor.id,
        enterpriseId: actor.enterpriseId,
        type: "bot",
        name: input.name,
        iconUrl: agent.avatarUrl ?? "/favicon.svg",
        platform: input.channel,
        inputModes: ["text"],
        // Every channel sends generated pictures and videos as its platform's own messages.
        outputModes: ["text", "image", "video"],
        isPublic: false,
        inAppCentre: false,
        settings: { channel: input.channel, greeting: input.greeting },
      },
      [agent.id],
      [],
      tx,
    );
    await repo.insertBot(
      {
        id: botId,
        appId,
        ownerAccountId: actor.id,
        channel: input.channel,
        name: input.name,
        credentials: sealCredentials(credentials),
        groupReply: input.group_reply,
        greeting: input.greeting,
        paidUntil: extendPaidUntil(null, now),
      },
      tx,
    );
    return appId;
  });
  return { bot_id: botId, app_id: appId };
}

export async function updateBot(actor: TActor, input: TBotUpdate): Promise<TBotView> {
  const bot = await loadOwnedBot(actor, input.bot_id);
  const data: Parameters<typeof repo.updateBot>[1] = {};
  let reconnect = false;
  if (input.name !== undefined) data.name = input.name;
  if (input.group_reply !== undefined) data.groupReply = input.group_reply;
  if (input.greeting !== undefined) data.greeting = input.greeting;
  if (input.credentials !== undefined) {
    const before = openCredentialsOrEmpty(bot.credentials);
    const next = parseCredentials(bot.channel, input.credentials, before);
    if (JSON.stringify(next) !== JSON.stringify(before)) {
      data.credentials = sealCredentials(next);
      reconnect = true;
    }
  }
  if (input.enabled !== undefined && input.enabled !== bot.enabled) {
    // A bot past its package cannot be resumed: renewing it is what brings it back.
    if (input.enabled && bot.paidUntil <= new Date()) throw new AppError("bot_package_expired");
    data.enabled = input.enabled;
    reconnect = true;
    if (!input.enabled) Object.assign(data, { state: "offline", stateDetail: "detail.paused", stateChangedAt: new Date() });
    else if (bot.paidUntil > new Date()) Object.assign(data, { state: "deploying", stateDetail: "detail.connecting", stateChangedAt: new Date() });
  }
  await withTransaction(async (tx) => {
    await repo.updateBot(bot.id, data, tx);
    if (input.name !== undefined || input.greeting !== undefined) {
      const settings = await repo.findAppSettings(bot.appId, tx);
      await appsRepo.updateAppById(
        bot.appId,
        { ...(input.name !== undefined ? { name: input.name } : {}), settings: { ...((settings as object) ?? {}), greeting: input.greeting ?? bot.greeting } },
        tx,
      );
    }
    if (reconnect) await breakLease(bot.id, tx);
  });
  return getBot(actor, bot.id);
}

/**
 * Pays one more year of the bot's package: from the current end while it lasts, else from now.
 * `seenPaidUntil` is the end the owner saw when they clicked: a second click (or a retried request)
 * with the same end finds it already extended and pays nothing, and the idempotency key names the
 * end being extended, so one end is only ever paid once.
 */
export async function renewBotPackage(actor: TActor, botId: string, seenPaidUntil?: string): Promise<{ paid_until: string; charged: boolean }> {
  const bot = await loadOwnedBot(actor, botId);
  const now = new Date();
  return runTransaction(async (tx) => {
    const row = await repo.lockBotForRenewal(bot.id, tx);
    const seen = seenPaidUntil ? new Date(seenPaidUntil) : row.paidUntil;
    if (Number.isNaN(seen.getTime())) throw new AppError("validation_failed");
    if (seen.getTime() !== row.paidUntil.getTime()) return { paid_until: row.paidUntil.toISOString(), charged: false };
    const posted = await spend(
      {
        key: `bot_package:${bot.id}:${row.paidUntil.getTime()}`,
        kind: "bot_package",
        payer: actor.id,
        amount: BOT_PACKAGE_YEAR_MICRO,
        credits: [{ account: platform("platform_revenue"), amount: BOT_PACKAGE_YEAR_MICRO }],
        memo: { botId: bot.id, name: bot.name, days: BOT_PACKAGE_DAYS },
      },
      tx,
    );
    if (posted.replayed) return { paid_until: row.paidUntil.toISOString(), charged: false };
    const next = extendPaidUntil(row.paidUntil, now);
    const revive = row.state === "expired" && row.enabled;
    await repo.updateBot(bot.id, { paidUntil: next, ...(revive ? { state: "deploying", stateDetail: "detail.connecting", stateChangedAt: now } : {}) }, tx);
    await repo.insertEvent(bot.id, "package_renewed", { date: next.toISOString() }, tx);
    return { paid_until: next.toISOString(), charged: true };
  });
}

/** Personal WeChat: a fresh login (a new QR code) on the next connection. */
export async function relogin(actor: TActor, botId: string): Promise<TBotView> {
  const bot = await loadOwnedBot(actor, botId);
  if (bot.paidUntil <= new Date()) throw new AppError("bot_package_expired");
  await withTransaction(async (tx) => {
    // The detail tells the gateway that takes the bot to forget the saved session (RELOGIN_DETAIL).
    await repo.updateBot(bot.id, { state: "deploying", stateDetail: RELOGIN_DETAIL, loginQr: null, loginName: null, stateChangedAt: new Date() }, tx);
    await breakLease(bot.id, tx);
  });
  return getBot(actor, bot.id);
}

export async function listBots(actor: TActor): Promise<TBotView[]> {
  return toViews(await repo.listBotsOf(actor.id));
}

export async function getBot(actor: TActor, botId: string): Promise<TBotView> {
  const row = await loadOwnedBot(actor, botId);
  return (await toViews([row]))[0];
}

export async function listEvents(actor: TActor, botId: string): Promise<TBotEventView[]> {
  const bot = await loadOwnedBot(actor, botId);
  return (await repo.listEvents(bot.id)).map((e) => ({
    id: e.id,
    kind: e.kind,
    detail: e.detail as Record<string, unknown>,
    read: e.readAt !== null,
    created_at: e.createdAt.toISOString(),
  }));
}

export async function markEventsRead(actor: TActor, botId: string) {
  const bot = await loadOwnedBot(actor, botId);
  await repo.markEventsRead(bot.id, new Date());
}
