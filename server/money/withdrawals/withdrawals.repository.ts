// Withdrawal rows and the enterprise switch they obey. Money itself moves only through the ledger.
import { getDb, type TDbOrTx } from "../../db/client";
import type { TWithdrawalState } from "./withdrawals.schema";

const WITHDRAWAL = {
  id: true,
  accountId: true,
  realName: true,
  idNumberSealed: true,
  idNumberHint: true,
  phone: true,
  amountMicro: true,
  taxMicro: true,
  receivedMicro: true,
  state: true,
  note: true,
  reviewedAt: true,
  createdAt: true,
} as const;

export type TWithdrawalInsert = {
  id: string;
  accountId: string;
  realName: string;
  idNumberSealed: string;
  idNumberHint: string;
  phone: string;
  amountMicro: number;
  taxMicro: number;
  receivedMicro: number;
};

/** Inserts unless a withdrawal with this id exists (the same request again); true when inserted. */
export async function insertWithdrawalIfAbsent(data: TWithdrawalInsert, tx: TDbOrTx = getDb()) {
  const { count } = await tx.withdrawal.createMany({
    data: [{ ...data, amountMicro: BigInt(data.amountMicro), taxMicro: BigInt(data.taxMicro), receivedMicro: BigInt(data.receivedMicro) }],
    skipDuplicates: true,
  });
  return count === 1;
}

export async function findWithdrawalById(id: string, tx: TDbOrTx = getDb()) {
  return tx.withdrawal.findUnique({ where: { id }, select: WITHDRAWAL });
}
export type TWithdrawalRow = NonNullable<Awaited<ReturnType<typeof findWithdrawalById>>>;

/** Newest first; `cursor` is the last id of the previous page. */
export async function listWithdrawalsOf(
  accountId: string,
  filter: { state?: TWithdrawalState },
  page: { cursor?: string; take: number },
  tx: TDbOrTx = getDb(),
) {
  return tx.withdrawal.findMany({
    where: { accountId, ...(filter.state ? { state: filter.state } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.take,
    ...(page.cursor ? { cursor: { id: page.cursor }, skip: 1 } : {}),
    select: WITHDRAWAL,
  });
}

/** The administrators' queue: oldest submitted first, so nobody waits longest. */
export async function listWithdrawalsForReview(filter: { state?: TWithdrawalState }, page: { cursor?: string; take: number }, tx: TDbOrTx = getDb()) {
  const waiting = filter.state === "submitted";
  return tx.withdrawal.findMany({
    where: filter.state ? { state: filter.state } : {},
    orderBy: waiting ? [{ createdAt: "asc" }, { id: "asc" }] : [{ createdAt: "desc" }, { id: "desc" }],
    take: page.take,
    ...(page.cursor ? { cursor: { id: page.cursor }, skip: 1 } : {}),
    select: WITHDRAWAL,
  });
}

/** Login names and nicknames of the withdrawers on a page (a withdrawal keeps no relation to its account). */
export async function findAccountNames(ids: string[], tx: TDbOrTx = getDb()) {
  return tx.account.findMany({ where: { id: { in: ids } }, select: { id: true, account: true, nickname: true } });
}

/** Moves a withdrawal only while it is in `from`: two administrators cannot both decide. */
export async function moveWithdrawal(
  id: string,
  from: TWithdrawalState,
  data: { state: TWithdrawalState; note: string | null; reviewedById: string; reviewedAt: Date },
  tx: TDbOrTx = getDb(),
) {
  const { count } = await tx.withdrawal.updateMany({ where: { id, state: from }, data });
  return count === 1;
}

/** What decides whether an account may withdraw: its roles and its enterprise's switch. */
export async function findWithdrawer(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.account.findUnique({
    where: { id: accountId },
    select: { id: true, roles: true, enterpriseId: true, enterprise: { select: { staffMayWithdraw: true } } },
  });
}

export async function findEnterprisePolicy(enterpriseId: string, tx: TDbOrTx = getDb()) {
  return tx.enterprise.findUnique({ where: { id: enterpriseId }, select: { id: true, name: true, staffMayWithdraw: true } });
}

export async function setStaffMayWithdraw(enterpriseId: string, allowed: boolean, tx: TDbOrTx = getDb()) {
  return tx.enterprise.update({ where: { id: enterpriseId }, data: { staffMayWithdraw: allowed }, select: { id: true, name: true, staffMayWithdraw: true } });
}
