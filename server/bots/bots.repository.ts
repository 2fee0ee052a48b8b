// What the console's bot service reads and writes (Prisma only here): bots with their BOT app,
// schedules, deliveries, conversations seen (the targets) and the owner's notices.
import type { Prisma } from "../db/generated/client";
import { getDb, type TDbOrTx } from "../db/client";

const BOT_ROW = {
  id: true,
  appId: true,
  ownerAccountId: true,
  channel: true,
  name: true,
  state: true,
  stateDetail: true,
  stateChangedAt: true,
  credentials: true,
  groupReply: true,
  greeting: true,
  loginQr: true,
  loginName: true,
  paidUntil: true,
  enabled: true,
  leaseOwner: true,
  leaseUntil: true,
  lastSeenAt: true,
  createdAt: true,
  app: { select: { enterpriseId: true, agents: { take: 1, orderBy: { sortOrder: "asc" }, select: { agentId: true } } } },
  _count: { select: { events: { where: { readAt: null } } } },
} as const satisfies Prisma.BotSelect;

export type TBotRow = Prisma.BotGetPayload<{ select: typeof BOT_ROW }>;

/** Serialises bot creations of one account (the edition's bot count). */
export async function lockAccountBots(accountId: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('bots:' || ${accountId}))`;
}

export async function countBotsOf(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.bot.count({ where: { ownerAccountId: accountId, deletedAt: null } });
}

export async function insertBot(data: Prisma.BotUncheckedCreateInput, tx: TDbOrTx) {
  return (await tx.bot.create({ data, select: { id: true } })).id;
}

export async function findBot(id: string, tx: TDbOrTx = getDb()): Promise<TBotRow | null> {
  return tx.bot.findFirst({ where: { id, deletedAt: null }, select: BOT_ROW });
}

export async function listBotsOf(accountId: string, tx: TDbOrTx = getDb()): Promise<TBotRow[]> {
  return tx.bot.findMany({ where: { ownerAccountId: accountId, deletedAt: null }, orderBy: { createdAt: "desc" }, select: BOT_ROW });
}

export async function updateBot(id: string, data: Prisma.BotUncheckedUpdateInput, tx: TDbOrTx = getDb()) {
  await tx.bot.update({ where: { id }, data, select: { id: true } });
}

/** Deleting a bot deletes its BOT app with it (the app exists for the bot). */
export async function softDeleteBot(id: string, appId: string, now: Date, tx: TDbOrTx) {
  await tx.bot.update({ where: { id }, data: { deletedAt: now, enabled: false, leaseOwner: null, leaseUntil: null }, select: { id: true } });
  await tx.app.update({ where: { id: appId }, data: { deletedAt: now }, select: { id: true } });
}

/** The bot's row locked for its deletion: two deletions of one bot run one after the other. */
export async function lockBotForDelete(id: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT id FROM bot WHERE id = ${id} FOR UPDATE`;
  return tx.bot.findUnique({
    where: { id },
    select: { id: true, appId: true, ownerAccountId: true, name: true, createdAt: true, lastSeenAt: true, deletedAt: true },
  });
}

/** Locks the bot's row: one bot's schedules are counted and saved one change at a time. */
export async function lockBot(id: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT id FROM bot WHERE id = ${id} FOR UPDATE`;
}

/** The bot's row locked for renewing its package: two renewals of one bot run one after the other. */
export async function lockBotForRenewal(id: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT id FROM bot WHERE id = ${id} FOR UPDATE`;
  return tx.bot.findUniqueOrThrow({ where: { id }, select: { paidUntil: true, state: true, enabled: true } });
}

/** The settings of a bot's app (its greeting is kept there too), or null. */
export async function findAppSettings(appId: string, tx: TDbOrTx = getDb()) {
  const app = await tx.app.findUnique({ where: { id: appId }, select: { settings: true } });
  return app?.settings ?? null;
}

/** The ledger postings that paid the bot's package (the first year, renewals), with their legs. */
export async function listPackagePostings(botIds: string[], tx: TDbOrTx = getDb()) {
  if (!botIds.length) return [];
  return tx.ledgerTransaction.findMany({
    where: { kind: "bot_package", OR: botIds.map((id) => ({ idempotencyKey: { startsWith: `bot_package:${id}:` } })) },
    select: { idempotencyKey: true, entries: { select: { ledgerAccountId: true, amountMicro: true } } },
  });
}

export async function findPostingEntries(key: string, tx: TDbOrTx = getDb()) {
  return (
    (await tx.ledgerTransaction.findUnique({ where: { idempotencyKey: key }, select: { entries: { select: { ledgerAccountId: true, amountMicro: true } } } }))
      ?.entries ?? null
  );
}

export async function findAgentNames(ids: string[]) {
  if (!ids.length) return [];
  return getDb().agent.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

export async function findLiveAgentOf(accountId: string, agentId: string, tx: TDbOrTx = getDb()) {
  return tx.agent.findFirst({
    where: { id: agentId, ownerAccountId: accountId, deletedAt: null, versions: { some: { state: { in: ["published", "published_in_review", "on_shelf"] } } } },
    select: { id: true, name: true, avatarUrl: true },
  });
}

export async function insertEvent(botId: string, kind: string, detail: Record<string, unknown>, tx: TDbOrTx = getDb()) {
  await tx.botEvent.create({ data: { botId, kind, detail: detail as Prisma.InputJsonValue }, select: { id: true } });
}

export async function listEvents(botId: string, take = 50) {
  return getDb().botEvent.findMany({
    where: { botId },
    orderBy: { createdAt: "desc" },
    take,
    select: { id: true, kind: true, detail: true, readAt: true, createdAt: true },
  });
}

export async function markEventsRead(botId: string, now: Date) {
  await getDb().botEvent.updateMany({ where: { botId, readAt: null }, data: { readAt: now } });
}

// Schedules -------------------------------------------------------------------------------------

const SCHEDULE_ROW = {
  id: true,
  botId: true,
  content: true,
  targets: true,
  sendAt: true,
  loop: true,
  everyHours: true,
  utcOffsetMinutes: true,
  nextRunAt: true,
  lastRunAt: true,
  enabled: true,
  mediaItemId: true,
  createdAt: true,
} as const satisfies Prisma.BotScheduleSelect;
export type TScheduleRow = Prisma.BotScheduleGetPayload<{ select: typeof SCHEDULE_ROW }>;

export async function countSchedules(botId: string, tx: TDbOrTx = getDb()) {
  return tx.botSchedule.count({ where: { botId } });
}

export async function findSchedule(botId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.botSchedule.findFirst({ where: { id, botId }, select: SCHEDULE_ROW });
}

export async function upsertSchedule(id: string | undefined, data: Omit<Prisma.BotScheduleUncheckedCreateInput, "id">, tx: TDbOrTx = getDb()) {
  if (id) return (await tx.botSchedule.update({ where: { id }, data, select: SCHEDULE_ROW })) as TScheduleRow;
  return (await tx.botSchedule.create({ data, select: SCHEDULE_ROW })) as TScheduleRow;
}

export async function deleteSchedule(botId: string, id: string) {
  return (await getDb().botSchedule.deleteMany({ where: { id, botId } })).count;
}

/** "What will be sent next": enabled schedules with a next run first, soonest first. */
export async function listSchedules(botId: string): Promise<TScheduleRow[]> {
  return getDb().botSchedule.findMany({
    where: { botId },
    orderBy: [{ nextRunAt: { sort: "asc", nulls: "last" } }, { createdAt: "desc" }],
    select: SCHEDULE_ROW,
  });
}

export async function listDeliveries(botId: string, take: number, before?: Date) {
  return getDb().botDelivery.findMany({
    where: { botId, ...(before ? { createdAt: { lt: before } } : {}) },
    orderBy: { createdAt: "desc" },
    take,
    select: {
      id: true,
      kind: true,
      scheduleId: true,
      target: true,
      content: true,
      mediaItemId: true,
      dueAt: true,
      state: true,
      error: true,
      createdAt: true,
      sentAt: true,
    },
  });
}

const LIBRARY_ITEM = { id: true, name: true, kind: true, fileKey: true, mime: true, meta: true } as const satisfies Prisma.MediaItemSelect;
export type TLibraryItemRow = Prisma.MediaItemGetPayload<{ select: typeof LIBRARY_ITEM }>;

/** Library items of `ownerAccountId` that still have their file (deleted ones are left out). */
export async function findLibraryItems(ownerAccountId: string, ids: string[], tx: TDbOrTx = getDb()): Promise<TLibraryItemRow[]> {
  if (!ids.length) return [];
  return tx.mediaItem.findMany({ where: { id: { in: ids }, ownerAccountId, deletedAt: null, fileKey: { not: null } }, select: LIBRARY_ITEM });
}

/** Contacts and groups the bot has talked with, newest first: what scheduled messages can go to. */
export async function listTargets(botId: string, take = 200) {
  return getDb().botConversation.findMany({
    where: { botId },
    orderBy: { lastMessageAt: "desc" },
    distinct: ["kind", "externalId"],
    take,
    select: { kind: true, externalId: true, name: true, lastMessageAt: true },
  });
}
