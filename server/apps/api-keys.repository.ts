// API app keys (Prisma only here). The key is stored as its sha256 hash and a hint; the secret sealed.
import { getDb, type TDbOrTx } from "../db/client";

const KEY_VIEW = { id: true, appId: true, keyHint: true, ratePerMinute: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

export async function findActiveKeyOfApp(appId: string, tx: TDbOrTx = getDb()) {
  return tx.appApiKey.findFirst({ where: { appId, revokedAt: null }, orderBy: { createdAt: "desc" }, select: KEY_VIEW });
}

export async function insertKey(
  data: { appId: string; keyHash: string; keyHint: string; secretEncrypted: string; ratePerMinute?: number },
  tx: TDbOrTx = getDb(),
) {
  return tx.appApiKey.create({ data, select: KEY_VIEW });
}

export async function revokeKeysOfApp(appId: string, at: Date, tx: TDbOrTx = getDb()) {
  const { count } = await tx.appApiKey.updateMany({ where: { appId, revokedAt: null }, data: { revokedAt: at } });
  return count;
}

/** A live key by its hash, with its app's owner (the API's consumer) and state. */
export async function findLiveKeyByHash(keyHash: string, tx: TDbOrTx = getDb()) {
  return tx.appApiKey.findFirst({
    where: { keyHash, revokedAt: null, app: { deletedAt: null } },
    select: {
      id: true,
      appId: true,
      ratePerMinute: true,
      lastUsedAt: true,
      app: { select: { ownerAccountId: true, type: true, state: true, name: true, createdAt: true } },
    },
  });
}

export async function touchKey(id: string, at: Date, tx: TDbOrTx = getDb()) {
  await tx.appApiKey.update({ where: { id }, data: { lastUsedAt: at }, select: { id: true } });
}

export async function findAppOwnerAndType(appId: string, tx: TDbOrTx = getDb()) {
  return tx.app.findFirst({ where: { id: appId, deletedAt: null }, select: { id: true, ownerAccountId: true, enterpriseId: true, type: true } });
}

export function runInTransaction<T>(fn: (tx: Parameters<Parameters<ReturnType<typeof getDb>["$transaction"]>[0]>[0]) => Promise<T>) {
  return getDb().$transaction(fn);
}
