import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";

const SESSION_ACCOUNT = {
  id: true,
  account: true,
  nickname: true,
  avatarUrl: true,
  phone: true,
  roles: true,
  status: true,
  edition: true,
  editionExpiresAt: true,
  enterpriseId: true,
  language: true,
} as const;

export async function findAccountForLogin(where: { account?: string; phone?: string; id?: string }, tx: TDbOrTx = getDb()) {
  // Nothing to look for (an empty form) finds nobody; Prisma would refuse an empty unique filter.
  if (!where.id && !where.phone && !where.account) return null;
  const filter = where.id ? { id: where.id } : where.phone ? { phone: where.phone } : { account: where.account! };
  return tx.account.findUnique({ where: filter, select: { ...SESSION_ACCOUNT, passwordHash: true, enterprise: { select: { strictPassword: true } } } });
}

export async function findAccountById(id: string, tx: TDbOrTx = getDb()) {
  return tx.account.findUnique({ where: { id }, select: SESSION_ACCOUNT });
}

export async function createAccount(data: Prisma.AccountUncheckedCreateInput, tx: TDbOrTx = getDb()) {
  return tx.account.create({ data, select: SESSION_ACCOUNT });
}

export async function updateAccount(id: string, data: Prisma.AccountUncheckedUpdateInput, tx: TDbOrTx = getDb()) {
  return tx.account.update({ where: { id }, data, select: SESSION_ACCOUNT });
}

export async function accountNameExists(account: string, tx: TDbOrTx = getDb()) {
  return (await tx.account.count({ where: { account } })) > 0;
}

// Sessions ----------------------------------------------------------------------------------

export async function insertSession(data: { id: string; accountId: string; expiresAt: Date; ip?: string; userAgent?: string }, tx: TDbOrTx = getDb()) {
  await tx.session.create({ data });
}

export async function findLiveSession(id: string, now: Date, tx: TDbOrTx = getDb()) {
  return tx.session.findFirst({
    where: { id, revokedAt: null, expiresAt: { gt: now } },
    select: { id: true, lastSeenAt: true, account: { select: SESSION_ACCOUNT } },
  });
}

export async function touchSession(id: string, now: Date, tx: TDbOrTx = getDb()) {
  await tx.session.update({ where: { id }, data: { lastSeenAt: now } });
}

export async function revokeSessions(where: { id?: string; accountId?: string; exceptId?: string }, now: Date, tx: TDbOrTx = getDb()) {
  const filter = where.id ? { id: where.id } : { accountId: where.accountId, ...(where.exceptId ? { NOT: { id: where.exceptId } } : {}) };
  const { count } = await tx.session.updateMany({ where: { ...filter, revokedAt: null }, data: { revokedAt: now } });
  return count;
}

// Login attempts ----------------------------------------------------------------------------

export async function insertLoginAttempt(data: { account: string; ip: string; success: boolean }, tx: TDbOrTx = getDb()) {
  await tx.loginAttempt.create({ data });
}

/** Failures since the last success, newest first, within the window. */
export async function findRecentFailures(by: { account?: string; ip?: string }, since: Date, tx: TDbOrTx = getDb()) {
  const key = by.account !== undefined ? { account: by.account } : { ip: by.ip! };
  const lastSuccess = await tx.loginAttempt.findFirst({
    where: { ...key, success: true, createdAt: { gte: since } },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  return tx.loginAttempt.findMany({
    where: { ...key, success: false, createdAt: { gte: lastSuccess && by.account !== undefined ? lastSuccess.createdAt : since } },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
}

// Invitations -------------------------------------------------------------------------------

/** Uses one invitation atomically: two registrations cannot both take the last use. */
export async function consumeInvitation(code: string, now: Date, tx: TDbOrTx = getDb()) {
  const rows =
    await tx.$executeRaw`UPDATE invitation_code SET uses = uses + 1 WHERE code = ${code} AND uses < max_uses AND (expires_at IS NULL OR expires_at > ${now})`;
  if (rows !== 1) return null;
  return tx.invitationCode.findUnique({ where: { code }, select: { code: true, createdById: true, enterpriseId: true } });
}

export async function insertInvitation(
  data: { code: string; createdById?: string; enterpriseId?: string; maxUses?: number; expiresAt?: Date },
  tx: TDbOrTx = getDb(),
) {
  return tx.invitationCode.create({ data });
}

// Enterprises -------------------------------------------------------------------------------

export async function findEnterpriseByDomain(domain: string, tx: TDbOrTx = getDb()) {
  return tx.enterprise.findUnique({
    where: { domain },
    select: { id: true, name: true, domain: true, logoUrl: true, loginBackgroundUrl: true, registrationMode: true, strictPassword: true },
  });
}

// App keys ----------------------------------------------------------------------------------

export async function findAppKey(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.appKey.findUnique({ where: { accountId }, select: { appKey: true, secretHint: true, updatedAt: true } });
}

export async function upsertAppKey(accountId: string, data: { appKey: string; secretEncrypted: string; secretHint: string }, tx: TDbOrTx = getDb()) {
  await tx.appKey.upsert({ where: { accountId }, create: { accountId, ...data }, update: data });
}

export async function findWechatBinding(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.wechatIdentity.findUnique({ where: { accountId }, select: { nickname: true, createdAt: true } });
}
