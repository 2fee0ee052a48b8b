// Personal settings (the /setting page): profile, avatar, and the app key and secret of the API.
import { randomToken, sealSecret } from "../lib/secret-box";
import * as repo from "./accounts.repository";
import type { TUpdateProfileInput } from "./settings.schema";
import { toSessionAccount } from "./session-account";
import { acceptImage, deleteFiles, PUBLIC_FILES_PATH, storeFile, toPublicFileUrl } from "../uploads/uploads.service";
import { AVATAR_LIMITS } from "../uploads/upload-limits";

export async function updateProfile(accountId: string, input: TUpdateProfileInput) {
  return toSessionAccount(await repo.updateAccount(accountId, input));
}

export async function getAppKey(accountId: string) {
  const row = await repo.findAppKey(accountId);
  return row ? { app_key: row.appKey, secret_hint: row.secretHint, updated_at: row.updatedAt.toISOString() } : null;
}

/** Creates or replaces the key pair. The secret is returned this once and stored sealed. */
export async function resetAppKey(accountId: string) {
  const appKey = `zk_${randomToken(12)}`;
  const secret = `zs_${randomToken(24)}`;
  const data = { appKey, secretEncrypted: sealSecret(secret), secretHint: `${secret.slice(0, 5)}…${secret.slice(-4)}` };
  await repo.upsertAppKey(accountId, data);
  return { app_key: appKey, app_secret: secret, secret_hint: data.secretHint };
}

/** Replaces the account's avatar: the new picture is kept, the account points at it, the old one goes. */
export async function setAvatar(accountId: string, bytes: Buffer | undefined) {
  const image = acceptImage(bytes, AVATAR_LIMITS);
  const previous = (await repo.findAccountById(accountId))?.avatarUrl ?? null;
  const key = await storeFile(`avatars/${accountId}`, image);
  const avatarUrl = toPublicFileUrl(key);
  try {
    await repo.updateAccount(accountId, { avatarUrl });
  } catch (err) {
    await deleteFiles([key]);
    throw err;
  }
  // Only our own copy of this account's earlier upload; a WeChat picture URL is not ours to delete.
  const ownFolder = `${PUBLIC_FILES_PATH}avatars/${accountId}/`;
  if (previous?.startsWith(ownFolder) && previous !== avatarUrl) await deleteFiles([previous.slice(PUBLIC_FILES_PATH.length)]);
  return { avatarUrl };
}
