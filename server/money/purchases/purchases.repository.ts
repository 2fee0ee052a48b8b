// What selling reads and writes (Prisma only here): the app, plan or agent on sale, the sharer's
// edition, Purchase rows, and a purchase's ledger entries (read only: the ledger is written by
// server/money/ledger.service.ts alone).
import { Prisma } from "../../db/generated/client";
import { getDb, type TDbOrTx } from "../../db/client";
import { runTransaction } from "../../db/transaction";

export async function findAppForSale(appId: string, tx: TDbOrTx = getDb()) {
  return tx.app.findFirst({
    where: { id: appId, deletedAt: null },
    select: {
      id: true,
      name: true,
      state: true,
      removedAt: true,
      ownerAccountId: true,
      shareRatio: true,
      plans: { orderBy: { sortOrder: "asc" }, select: { id: true, kind: true, quantity: true, priceMicro: true, dailyLimit: true } },
    },
  });
}

/** The agent and its newest on-shelf version's prices (what the market shows for sale). */
export async function findAgentForSale(agentId: string, tx: TDbOrTx = getDb()) {
  const agent = await tx.agent.findFirst({ where: { id: agentId, deletedAt: null }, select: { id: true, name: true, ownerAccountId: true } });
  if (!agent) return null;
  const version = await tx.agentVersion.findFirst({
    where: { agentId, state: "on_shelf" },
    orderBy: { createdAt: "desc" },
    select: { id: true, config: true },
  });
  return { ...agent, version };
}

export async function findAccountEdition(id: string, tx: TDbOrTx = getDb()) {
  return tx.account.findUnique({ where: { id }, select: { id: true, status: true, edition: true, editionExpiresAt: true } });
}

/**
 * Serialises work on one key (a purchase's idempotency key, a buyer's renewals of one app) for
 * the rest of the transaction: a double click waits for the first click's purchase, then sees it.
 */
export async function lockKey(key: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

const PURCHASE = {
  id: true,
  buyerAccountId: true,
  targetType: true,
  appId: true,
  planId: true,
  agentId: true,
  kind: true,
  priceMicro: true,
  startsAt: true,
  endsAt: true,
  usesTotal: true,
  usesUsed: true,
  dailyLimit: true,
  sharerAccountId: true,
  ledgerTransactionId: true,
  refundedAt: true,
  createdAt: true,
} as const satisfies Prisma.PurchaseSelect;

export type TPurchaseRow = Prisma.PurchaseGetPayload<{ select: typeof PURCHASE }>;

/** The purchase written under the ledger key `key`, if any. */
export async function findPurchaseByLedgerKey(key: string, tx: TDbOrTx = getDb()): Promise<TPurchaseRow | null> {
  const t = await tx.ledgerTransaction.findUnique({ where: { idempotencyKey: key }, select: { id: true } });
  if (!t) return null;
  return tx.purchase.findUnique({ where: { ledgerTransactionId: t.id }, select: PURCHASE });
}

/** The id of the ledger transaction under `key`, if any. */
export async function findLedgerTransactionId(key: string, tx: TDbOrTx = getDb()) {
  return (await tx.ledgerTransaction.findUnique({ where: { idempotencyKey: key }, select: { id: true } }))?.id ?? null;
}

export async function findPurchase(id: string, tx: TDbOrTx = getDb()) {
  return tx.purchase.findUnique({ where: { id }, select: PURCHASE });
}

/** Locks the purchase's row until the transaction ends (two refunds of one purchase: one runs). */
export async function lockPurchase(id: string, tx: TDbOrTx) {
  await tx.$queryRaw`SELECT id FROM purchase WHERE id = ${id} FOR UPDATE`;
}

/** When the buyer's days plans of this app run out (renewals start there), or null. */
export async function findLastDaysEnd(buyerAccountId: string, appId: string, tx: TDbOrTx = getDb()) {
  const row = await tx.purchase.findFirst({
    where: { buyerAccountId, appId, kind: "days", refundedAt: null },
    orderBy: { endsAt: "desc" },
    select: { endsAt: true },
  });
  return row?.endsAt ?? null;
}

export async function insertPurchase(data: Prisma.PurchaseUncheckedCreateInput, tx: TDbOrTx = getDb()) {
  return tx.purchase.create({ data, select: PURCHASE });
}

/** Marks it refunded unless it already is; false when another refund came first. */
export async function markRefunded(id: string, at: Date, tx: TDbOrTx = getDb()) {
  const r = await tx.purchase.updateMany({ where: { id, refundedAt: null }, data: { refundedAt: at } });
  return r.count === 1;
}

export async function listLedgerEntries(transactionId: string, tx: TDbOrTx = getDb()) {
  return tx.ledgerEntry.findMany({ where: { transactionId }, orderBy: { id: "asc" }, select: { ledgerAccountId: true, amountMicro: true } });
}

export async function findLedgerMemo(transactionId: string, tx: TDbOrTx = getDb()) {
  const t = await tx.ledgerTransaction.findUnique({ where: { id: transactionId }, select: { memo: true } });
  return (t?.memo ?? {}) as Record<string, unknown>;
}

export type TPurchaseFilter = { buyerAccountId?: string; appId?: string; refunded?: boolean };

/** Newest first, with the names an administrator reads. */
export async function listPurchases(filter: TPurchaseFilter, page: { before?: { at: Date; id: string }; limit: number }, tx: TDbOrTx = getDb()) {
  const before = page.before;
  const rows = await tx.purchase.findMany({
    where: {
      ...(filter.buyerAccountId ? { buyerAccountId: filter.buyerAccountId } : {}),
      ...(filter.appId ? { appId: filter.appId } : {}),
      ...(filter.refunded === undefined ? {} : filter.refunded ? { refundedAt: { not: null } } : { refundedAt: null }),
      ...(before ? { OR: [{ createdAt: { lt: before.at } }, { createdAt: before.at, id: { lt: before.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit,
    select: PURCHASE,
  });
  const accountIds = [...new Set(rows.flatMap((r) => [r.buyerAccountId, r.sharerAccountId].filter((x): x is string => Boolean(x))))];
  const appIds = [...new Set(rows.map((r) => r.appId).filter((x): x is string => Boolean(x)))];
  const agentIds = [...new Set(rows.map((r) => r.agentId).filter((x): x is string => Boolean(x)))];
  const [accounts, apps, agents] = await Promise.all([
    accountIds.length ? tx.account.findMany({ where: { id: { in: accountIds } }, select: { id: true, account: true, nickname: true } }) : [],
    appIds.length ? tx.app.findMany({ where: { id: { in: appIds } }, select: { id: true, name: true, ownerAccountId: true } }) : [],
    agentIds.length ? tx.agent.findMany({ where: { id: { in: agentIds } }, select: { id: true, name: true, ownerAccountId: true } }) : [],
  ]);
  return { rows, accounts: new Map(accounts.map((a) => [a.id, a])), apps: new Map(apps.map((a) => [a.id, a])), agents: new Map(agents.map((a) => [a.id, a])) };
}

/** A purchase or refund and its posting, all or nothing; run again after a deadlock (server/db/transaction.ts). */
export function runInTransaction<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>) {
  return runTransaction(fn, { timeout: 20_000 });
}

export async function findActiveBuyout(buyerAccountId: string, agentId: string, tx: TDbOrTx = getDb()) {
  return tx.purchase.findFirst({ where: { buyerAccountId, agentId, kind: "buyout", refundedAt: null }, select: { id: true } });
}
