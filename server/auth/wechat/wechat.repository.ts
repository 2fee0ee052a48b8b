import { getDb, type TDbOrTx } from "../../db/client";

// OAuth states -------------------------------------------------------------------------------

export async function insertOauthState(
  data: { state: string; purpose: string; accountId?: string; redirect?: string; expiresAt: Date },
  tx: TDbOrTx = getDb(),
) {
  await tx.oauthState.create({ data });
}

/**
 * Takes a state once: of two callbacks with the same state only one deletes the row, and only that
 * one gets it back. Expired rows are returned too (the caller refuses them) so they are cleared.
 */
export async function consumeOauthState(state: string, tx: TDbOrTx = getDb()) {
  const found = await tx.oauthState.findUnique({ where: { state }, select: { purpose: true, accountId: true, redirect: true, expiresAt: true } });
  if (!found) return null;
  const { count } = await tx.oauthState.deleteMany({ where: { state } });
  return count === 1 ? found : null;
}

/** States of QR pages nobody scanned; called on each start so the table stays small. */
export async function deleteExpiredOauthStates(now: Date, tx: TDbOrTx = getDb()) {
  await tx.oauthState.deleteMany({ where: { expiresAt: { lt: now } } });
}

// Identities ---------------------------------------------------------------------------------

/** The identity of a WeChat user: the same person has one unionid across an Open Platform's apps. */
export async function findWechatIdentity(by: { openid: string; unionid?: string | null }, tx: TDbOrTx = getDb()) {
  const or = by.unionid ? [{ openid: by.openid }, { unionid: by.unionid }] : [{ openid: by.openid }];
  return tx.wechatIdentity.findFirst({ where: { OR: or }, select: { accountId: true, openid: true } });
}

export async function findWechatIdentityOfAccount(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.wechatIdentity.findUnique({ where: { accountId }, select: { openid: true, unionid: true, nickname: true } });
}

export async function insertWechatIdentity(
  data: { accountId: string; openid: string; unionid?: string | null; nickname?: string | null },
  tx: TDbOrTx = getDb(),
) {
  await tx.wechatIdentity.create({ data });
}

export async function deleteWechatIdentity(accountId: string, tx: TDbOrTx = getDb()) {
  const { count } = await tx.wechatIdentity.deleteMany({ where: { accountId } });
  return count;
}
