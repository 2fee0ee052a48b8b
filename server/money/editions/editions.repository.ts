// The account's membership and the rows editions and paid registration read. Prisma stays here.
import { getDb, type TDbOrTx } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import type { TEditionKey } from "../../accounts/editions";

const MEMBERSHIP = { id: true, edition: true, editionExpiresAt: true, enterpriseId: true } as const;

export async function findMembership(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.account.findUnique({ where: { id: accountId }, select: MEMBERSHIP });
}

/** Reads the membership under a row lock: two purchases of one account run one after the other. */
export async function lockMembership(accountId: string, tx: TDbOrTx) {
  await tx.$queryRaw`SELECT id FROM account WHERE id = ${accountId} FOR UPDATE`;
  return findMembership(accountId, tx);
}

export async function setMembership(accountId: string, edition: TEditionKey, expiresAt: Date, tx: TDbOrTx = getDb()) {
  await tx.account.update({ where: { id: accountId }, data: { edition, editionExpiresAt: expiresAt }, select: { id: true } });
}

/** A ledger transaction already written under `key`, with its memo (a replayed purchase answers it). */
export async function findPostingByKey(key: string, tx: TDbOrTx = getDb()) {
  return tx.ledgerTransaction.findUnique({ where: { idempotencyKey: key }, select: { id: true, memo: true, createdAt: true } });
}

export async function accountExists(id: string, tx: TDbOrTx = getDb()) {
  return (await tx.account.count({ where: { id } })) > 0;
}

export async function accountNameExists(account: string, tx: TDbOrTx = getDb()) {
  return (await tx.account.count({ where: { account } })) > 0;
}

/** Pending paid registrations holding a name (newer than `since`): the name is reserved for them. */
export async function findRegistrationReservation(account: string, since: Date, tx: TDbOrTx = getDb()) {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM payment_order
      WHERE purpose = 'registration' AND state = 'pending' AND created_at > $2
        AND details->>'account' = $1
      LIMIT 1`,
    account,
    since,
  );
  return rows[0] ?? null;
}

/** Serialises registrations of one name (order creation and account creation) inside a transaction. */
export async function lockAccountName(account: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('account-name:' || ${account}))`;
}

export async function findPaymentOrderForAccount(orderId: string, accountId: string | null, tx: TDbOrTx = getDb()) {
  return tx.paymentOrder.findFirst({
    where: { id: orderId, accountId },
    select: { id: true, purpose: true, state: true, amountMicro: true, details: true, accountId: true, failureReason: true, paidAt: true },
  });
}

export async function findPaymentOrder(orderId: string, tx: TDbOrTx = getDb()) {
  return tx.paymentOrder.findUnique({
    where: { id: orderId },
    select: { id: true, purpose: true, state: true, amountMicro: true, details: true, accountId: true, failureReason: true, paidAt: true },
  });
}

export async function createAccountRow(data: Prisma.AccountUncheckedCreateInput, tx: TDbOrTx) {
  return tx.account.create({ data, select: { id: true, account: true } });
}

export type TMembershipRow = NonNullable<Awaited<ReturnType<typeof findMembership>>>;
