// An API app's key and secret: created by the app's owner, shown in full once; reset
// replaces it (the old key stops at once) and revoke ends it. The bearer key is the /v1 API's
// credential and the native SSE endpoint's; it acts as the app's owner.
import { assertOwned } from "../accounts/access";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { AppError } from "../errors/app-error";
import { randomToken, sealSecret, sha256 } from "../lib/secret-box";
import { API_KEY_PREFIX, type TApiKeyAppInput, type TApiKeyView, type TIssuedApiKey } from "./api-keys.schema";
import * as repo from "./api-keys.repository";

type TOwnerActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;
type TKeyRow = NonNullable<Awaited<ReturnType<typeof repo.findActiveKeyOfApp>>>;

function toView(k: TKeyRow): TApiKeyView {
  return {
    id: k.id,
    key_hint: k.keyHint,
    rate_per_minute: k.ratePerMinute,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}

/** The app, when it is the actor's API app; another's (or no such app) answers not_found. */
async function loadOwnedApiApp(actor: TOwnerActor, appId: string) {
  const app = await repo.findAppOwnerAndType(appId);
  assertOwned(app ? { ...app, accountId: app.ownerAccountId } : null, actor);
  // API apps, and workshop apps, whose runs the API starts and follows (/api/v2/app/workshop/runs).
  if (app!.type !== "api" && app!.type !== "workshop") throw new AppError("not_found");
  return app!;
}

export function hintOf(key: string) {
  return `${key.slice(0, API_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
}

export async function getApiKey(actor: TOwnerActor, { app_id }: TApiKeyAppInput): Promise<TApiKeyView | null> {
  await loadOwnedApiApp(actor, app_id);
  const key = await repo.findActiveKeyOfApp(app_id);
  return key ? toView(key) : null;
}

/** A new key and secret replacing any live one, in one transaction: the old key stops at once. */
async function issueKey(appId: string): Promise<TIssuedApiKey> {
  const key = `${API_KEY_PREFIX}${randomToken(24)}`;
  const secret = randomToken(32);
  const row = await repo.runInTransaction(async (tx) => {
    await repo.revokeKeysOfApp(appId, new Date(), tx);
    return repo.insertKey({ appId, keyHash: sha256(key), keyHint: hintOf(key), secretEncrypted: sealSecret(secret) }, tx);
  });
  return { ...toView(row), key, secret };
}

/** The first key of an API app; when one is live already, use reset (repeat_action). */
export async function createApiKey(actor: TOwnerActor, { app_id }: TApiKeyAppInput): Promise<TIssuedApiKey> {
  await loadOwnedApiApp(actor, app_id);
  if (await repo.findActiveKeyOfApp(app_id)) throw new AppError("repeat_action");
  return issueKey(app_id);
}

export async function resetApiKey(actor: TOwnerActor, { app_id }: TApiKeyAppInput): Promise<TIssuedApiKey> {
  await loadOwnedApiApp(actor, app_id);
  return issueKey(app_id);
}

export async function revokeApiKey(actor: TOwnerActor, { app_id }: TApiKeyAppInput) {
  await loadOwnedApiApp(actor, app_id);
  return { revoked: (await repo.revokeKeysOfApp(app_id, new Date())) > 0 };
}

export type TKeyHolder = {
  apiKeyId: string;
  appId: string;
  ratePerMinute: number;
  ownerAccountId: string;
  appState: string;
  appName: string;
  appCreatedAt: Date;
};

/** The live key a bearer token names, or null (wrong, revoked, or its app deleted). */
export async function resolveApiKey(bearer: string | undefined, now = new Date()): Promise<TKeyHolder | null> {
  if (!bearer || !bearer.startsWith(API_KEY_PREFIX) || bearer.length > 100) return null;
  const row = await repo.findLiveKeyByHash(sha256(bearer));
  if (!row) return null;
  // Last use at most once a minute: one write, not one per call.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) repo.touchKey(row.id, now).catch(() => undefined);
  return {
    apiKeyId: row.id,
    appId: row.appId,
    ratePerMinute: row.ratePerMinute,
    ownerAccountId: row.app.ownerAccountId,
    appState: row.app.state,
    appName: row.app.name,
    appCreatedAt: row.app.createdAt,
  };
}

/** `Authorization: Bearer <token>`'s token. */
export function readBearer(header: string | undefined) {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return m?.[1];
}
