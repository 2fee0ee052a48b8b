// What the app runtime reads and writes (Prisma only here): the app a turn runs with its agent's
// live version, app dialogues with their owner (account or visitor), and AppUse rows.
import { Prisma } from "../db/generated/client";
import { getDb, type TDbOrTx } from "../db/client";
import { LIVE_AGENT_STATES } from "../agents/agent-lifecycle";

const APP_FOR_TURN = {
  id: true,
  ownerAccountId: true,
  enterpriseId: true,
  type: true,
  state: true,
  removedAt: true,
  mode: true,
  isPublic: true,
  name: true,
  trialDays: true,
  freePerDay: true,
  inputModes: true,
  outputModes: true,
  autoPlay: true,
  speaker: true,
  settings: true,
  owner: { select: { enterpriseId: true, roles: true } },
  agents: { orderBy: [{ sortOrder: "asc" }, { agentId: "asc" }], take: 1, select: { agentId: true } },
  plans: { orderBy: { sortOrder: "asc" }, select: { id: true, kind: true, quantity: true, priceMicro: true, dailyLimit: true } },
} as const satisfies Prisma.AppSelect;

export type TAppForTurn = Prisma.AppGetPayload<{ select: typeof APP_FOR_TURN }>;

export async function findAppForTurn(id: string, tx: TDbOrTx = getDb()): Promise<TAppForTurn | null> {
  return tx.app.findFirst({ where: { id, deletedAt: null }, select: APP_FOR_TURN });
}

/** The agent with the version an app runs: the newest live one (as the chat's "live" mode picks). */
export async function findAgentWithLiveVersion(agentId: string, tx: TDbOrTx = getDb()) {
  const agent = await tx.agent.findFirst({
    where: { id: agentId, deletedAt: null },
    select: { id: true, ownerAccountId: true, enterpriseId: true, name: true, avatarUrl: true },
  });
  if (!agent) return { agent: null, version: null };
  const version = await tx.agentVersion.findFirst({
    where: { agentId, state: { in: [...LIVE_AGENT_STATES] } },
    orderBy: { createdAt: "desc" },
    select: { id: true, state: true, config: true, updatedAt: true },
  });
  return { agent, version };
}

export async function findOwnerActor(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.account.findUnique({ where: { id: accountId }, select: { id: true, roles: true, enterpriseId: true } });
}

const APP_DIALOGUE = {
  id: true,
  accountId: true,
  visitorId: true,
  source: true,
  agentId: true,
  agentVersionId: true,
  appId: true,
  title: true,
  variables: true,
  documentId: true,
  lastMessageAt: true,
  createdAt: true,
} as const;

export type TAppDialogueRow = Prisma.DialogueGetPayload<{ select: typeof APP_DIALOGUE }>;

export async function findAppDialogue(id: string, tx: TDbOrTx = getDb()) {
  return tx.dialogue.findFirst({ where: { id, deletedAt: null, appId: { not: null } }, select: APP_DIALOGUE });
}

export type TConsumerKey = { accountId: string } | { visitorId: string };

function whoWhere(who: TConsumerKey) {
  return "accountId" in who ? { accountId: who.accountId } : { accountId: null, visitorId: who.visitorId };
}

export async function listAppDialogues(appId: string, who: TConsumerKey, opts: { before?: { at: Date; id: string }; limit: number }, tx: TDbOrTx = getDb()) {
  const before = opts.before;
  return tx.dialogue.findMany({
    where: {
      appId,
      deletedAt: null,
      ...whoWhere(who),
      ...(before ? { OR: [{ lastMessageAt: { lt: before.at } }, { lastMessageAt: before.at, id: { lt: before.id } }] } : {}),
    },
    orderBy: [{ lastMessageAt: "desc" }, { id: "desc" }],
    take: opts.limit,
    select: APP_DIALOGUE,
  });
}

export async function findAppMessage(id: string, tx: TDbOrTx = getDb()) {
  return tx.chatMessage.findUnique({
    where: { id },
    select: { id: true, role: true, dialogue: { select: { accountId: true, visitorId: true, appId: true, deletedAt: true } } },
  });
}

// --- AppUse -------------------------------------------------------------------------------------

/**
 * Serialises the entitlement decisions of one app, consumer and day for the rest of the
 * transaction (two requests at the last free use: the second waits, then counts the first).
 */
export async function lockConsumerDay(appId: string, consumer: string, day: number, tx: TDbOrTx) {
  const key = `app-use:${appId}:${consumer}:${day}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

export async function countUsesOnDay(appId: string, who: TConsumerKey, day: number, basis: string[], tx: TDbOrTx = getDb()) {
  return tx.appUse.count({
    where: { appId, day, basis: { in: basis }, ...("accountId" in who ? { accountId: who.accountId } : { visitorId: who.visitorId, accountId: null }) },
  });
}

export async function findFirstUseAt(appId: string, who: TConsumerKey, tx: TDbOrTx = getDb()) {
  const row = await tx.appUse.findFirst({
    where: { appId, ...("accountId" in who ? { accountId: who.accountId } : { visitorId: who.visitorId, accountId: null }) },
    orderBy: { createdAt: "asc" },
    select: { createdAt: true },
  });
  return row?.createdAt ?? null;
}

export async function insertUse(data: Prisma.AppUseUncheckedCreateInput, tx: TDbOrTx = getDb()) {
  return tx.appUse.create({ data, select: { id: true } });
}

export async function updateUse(id: string, data: Prisma.AppUseUncheckedUpdateInput, tx: TDbOrTx = getDb()) {
  await tx.appUse.update({ where: { id }, data, select: { id: true } });
}

export async function deleteUse(id: string, tx: TDbOrTx = getDb()) {
  await tx.appUse.deleteMany({ where: { id } });
}

export function runInTransaction<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>) {
  return getDb().$transaction(fn);
}

// --- Purchased plans (server/money/purchases) -----------------------------------------------------

const PLAN_PURCHASE = { id: true, kind: true, startsAt: true, endsAt: true, usesTotal: true, usesUsed: true, dailyLimit: true, createdAt: true } as const;
export type TPlanPurchase = Prisma.PurchaseGetPayload<{ select: typeof PLAN_PURCHASE }>;

/** The account's app-plan purchases of this app that were not refunded, oldest first. */
export async function listPlanPurchases(appId: string, accountId: string, tx: TDbOrTx = getDb()): Promise<TPlanPurchase[]> {
  return tx.purchase.findMany({
    where: { appId, buyerAccountId: accountId, targetType: "app_plan", refundedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: PLAN_PURCHASE,
  });
}

/** Plan uses counted against each purchase on one China day. */
export async function countPlanUsesOnDay(purchaseIds: string[], day: number, tx: TDbOrTx = getDb()): Promise<Map<string, number>> {
  if (!purchaseIds.length) return new Map();
  const rows = await tx.appUse.groupBy({ by: ["purchaseId"], where: { purchaseId: { in: purchaseIds }, day }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.purchaseId!, r._count._all]));
}

/** Takes one use of a count plan unless it is used up or refunded; false when it could not. */
export async function takeCountUse(purchaseId: string, tx: TDbOrTx = getDb()): Promise<boolean> {
  const n =
    await tx.$executeRaw`UPDATE purchase SET uses_used = uses_used + 1 WHERE id = ${purchaseId} AND uses_total IS NOT NULL AND uses_used < uses_total AND refunded_at IS NULL`;
  return n === 1;
}

/** Gives a count plan's use back (its turn gave no reply). */
export async function giveCountUseBack(purchaseId: string, tx: TDbOrTx = getDb()) {
  await tx.$executeRaw`UPDATE purchase SET uses_used = uses_used - 1 WHERE id = ${purchaseId} AND uses_total IS NOT NULL AND uses_used > 0`;
}

/** Deletes the use, answering the purchase it counted against (null when none or already gone). */
export async function deleteUseReturningPurchase(id: string, tx: TDbOrTx = getDb()): Promise<{ purchaseId: string | null } | null> {
  const row = await tx.appUse.findUnique({ where: { id }, select: { purchaseId: true } });
  if (!row) return null;
  const n = await tx.appUse.deleteMany({ where: { id } });
  return n.count === 1 ? row : null;
}
