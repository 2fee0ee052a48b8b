// Personal settings (SPEC 2 /setting): profile, and the app key and secret of the API.
import { randomToken, sealSecret } from "../lib/secret-box";
import * as repo from "./accounts.repository";
import { ZUpdateProfileInput } from "./settings.schema";
import { toSessionAccount } from "../auth/session.service";

export async function updateProfile(accountId: string, raw: unknown) {
  const input = ZUpdateProfileInput.parse(raw);
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
