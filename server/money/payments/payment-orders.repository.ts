// Payment orders and the notifications providers sent about them. State changes are conditional
// updates (`WHERE state IN (...)`), so two notifications racing for one order change it once.
import type { TDbOrTx } from "../../db/client";
import { getDb } from "../../db/client";
import type { Prisma } from "../../db/generated/client";

const ORDER = {
  id: true,
  accountId: true,
  purpose: true,
  provider: true,
  amountMicro: true,
  details: true,
  state: true,
  providerTradeNo: true,
  payUrl: true,
  failureReason: true,
  sharerAccountId: true,
  paidAt: true,
  createdAt: true,
} as const;

export type TOrderRow = Prisma.PaymentOrderGetPayload<{ select: typeof ORDER }>;
export type TOrderState = TOrderRow["state"];

export function createOrder(
  data: { accountId: string | null; purpose: string; provider: string; amountMicro: number; details: Prisma.InputJsonValue; sharerAccountId: string | null },
  db: TDbOrTx = getDb(),
) {
  return db.paymentOrder.create({ data: { ...data, amountMicro: BigInt(data.amountMicro) }, select: ORDER });
}

export function setPayUrl(id: string, payUrl: string | null, db: TDbOrTx = getDb()) {
  return db.paymentOrder.update({ where: { id }, data: { payUrl }, select: ORDER });
}

export function findOrder(id: string, db: TDbOrTx = getDb()) {
  return db.paymentOrder.findUnique({ where: { id }, select: ORDER });
}

/** pending (or, when the provider insists it was paid after all, failed/cancelled) → paid. */
export async function markPaid(id: string, from: TOrderState[], data: { providerTradeNo: string | null; accountId?: string }, db: TDbOrTx = getDb()) {
  const r = await db.paymentOrder.updateMany({
    where: { id, state: { in: from } },
    data: { state: "paid", paidAt: new Date(), failureReason: null, ...(data.providerTradeNo ? { providerTradeNo: data.providerTradeNo } : {}) },
  });
  return r.count === 1;
}

export function setOrderAccount(id: string, accountId: string, db: TDbOrTx = getDb()) {
  return db.paymentOrder.update({ where: { id }, data: { accountId }, select: { id: true } });
}

/** pending → failed | cancelled; false when the order was no longer pending. */
export async function markUnpaid(id: string, state: "failed" | "cancelled", reason: string, db: TDbOrTx = getDb()) {
  const r = await db.paymentOrder.updateMany({ where: { id, state: "pending" }, data: { state, failureReason: reason.slice(0, 200) } });
  return r.count === 1;
}

export function recordNotification(
  data: { provider: string; orderId: string | null; outcome: "verified" | "rejected" | "applied" | "duplicate"; body: string },
  db: TDbOrTx = getDb(),
) {
  return db.paymentNotification.create({ data: { ...data, body: data.body.slice(0, 20_000) }, select: { id: true } });
}

export function countNotifications(orderIds: string[], db: TDbOrTx = getDb()) {
  return db.paymentNotification.groupBy({ by: ["orderId"], where: { orderId: { in: orderIds } }, _count: { _all: true } });
}

export function findNotifications(orderId: string, db: TDbOrTx = getDb()) {
  return db.paymentNotification.findMany({ where: { orderId }, orderBy: { createdAt: "asc" }, select: { outcome: true, createdAt: true } });
}

export function findStalePending(before: Date, limit: number, db: TDbOrTx = getDb()) {
  return db.paymentOrder.findMany({ where: { state: "pending", createdAt: { lt: before } }, orderBy: { createdAt: "asc" }, take: limit, select: ORDER });
}

export async function listOrders(
  f: { state?: TOrderState; provider?: string; purpose?: string; id?: string; accountIds?: string[]; skip: number; take: number },
  db: TDbOrTx = getDb(),
) {
  const where: Prisma.PaymentOrderWhereInput = {
    ...(f.state ? { state: f.state } : {}),
    ...(f.provider ? { provider: f.provider } : {}),
    ...(f.purpose ? { purpose: f.purpose } : {}),
    ...(f.id || f.accountIds ? { OR: [...(f.id ? [{ id: f.id }] : []), ...(f.accountIds?.length ? [{ accountId: { in: f.accountIds } }] : [])] } : {}),
  };
  const [items, total] = await Promise.all([
    db.paymentOrder.findMany({ where, orderBy: { createdAt: "desc" }, skip: f.skip, take: f.take, select: ORDER }),
    db.paymentOrder.count({ where }),
  ]);
  return { items, total };
}

export function findAccountIdsByName(q: string, db: TDbOrTx = getDb()) {
  return db.account.findMany({
    where: { OR: [{ account: { contains: q, mode: "insensitive" } }, { nickname: { contains: q, mode: "insensitive" } }] },
    take: 50,
    select: { id: true },
  });
}

export function findAccountNames(ids: string[], db: TDbOrTx = getDb()) {
  return db.account.findMany({ where: { id: { in: ids } }, select: { id: true, account: true } });
}
