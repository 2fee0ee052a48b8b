// "May this account do X, and how many are left?" Every area asks here; a refusal
// names the cheapest edition that would allow it.
import { AppError } from "../errors/app-error";
import type { TDbOrTx } from "../db/transaction";
import * as repo from "./accounts.repository";
import { EDITIONS, editionAllowing, type TEditionFeatures, type TEditionKey, type TEditionLimits } from "./editions";

const editionName = (key: string) => `$t:common:editions.${key}`;

export type TLimitedResource = Exclude<keyof TEditionLimits, "chatsPerDay">;

/** A membership that has ended falls back to basic. */
export function effectiveEdition(account: { edition: string; editionExpiresAt: Date | string | null }, now = new Date()): TEditionKey {
  const key = account.edition as TEditionKey;
  if (key === "basic") return key;
  const expires = account.editionExpiresAt ? new Date(account.editionExpiresAt) : null;
  return expires && expires.getTime() > now.getTime() ? key : "basic";
}

async function editionOf(accountId: string, now: Date, tx?: TDbOrTx) {
  const account = await repo.findAccountById(accountId, tx);
  if (!account) throw new AppError("not_found");
  return EDITIONS[effectiveEdition(account, now)];
}

export async function getEntitlements(accountId: string, now = new Date()) {
  const edition = await editionOf(accountId, now);
  return { edition: edition.key, limits: edition.limits, features: edition.features };
}

export async function assertFeature(accountId: string, feature: keyof TEditionFeatures, now = new Date()) {
  const edition = await editionOf(accountId, now);
  if (!edition.features[feature])
    throw new AppError("edition_upgrade_required", {
      params: { edition: editionName(editionAllowing((e) => e.features[feature]) ?? "enterprise") },
      data: { feature },
    });
}

/**
 * Before creating one more of a resource: `used` is how many the account has now (the owning area
 * counts its own rows). Returns how many remain after this one; null means unlimited.
 */
export async function assertWithinLimit(accountId: string, resource: TLimitedResource, used: number, now = new Date(), tx?: TDbOrTx): Promise<number | null> {
  // Inside a transaction the read must use it: on the embedded database another connection would
  // wait for the transaction to end.
  const edition = await editionOf(accountId, now, tx);
  const limit = edition.limits[resource];
  if (limit === null) return null;
  if (used < limit) return limit - used - 1;
  const upgrade = editionAllowing((e) => e.limits[resource] === null || (e.limits[resource] as number) > used);
  if (resource === "bots") throw new AppError("bot_limit_reached", { params: { edition: editionName(upgrade ?? "enterprise") }, data: { limit, upgrade } });
  throw new AppError("edition_upgrade_required", { params: { edition: editionName(upgrade ?? "enterprise") }, data: { resource, limit, upgrade } });
}

export async function getChatsPerDay(accountId: string, now = new Date()) {
  return (await editionOf(accountId, now)).limits.chatsPerDay;
}
