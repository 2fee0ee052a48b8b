// Whether an account's share links earn it a dividend: only editions with distribution credit the
// sharer (the purchase service checks the same flag when a sale comes through a link). No reads:
// the pages pass their session account, so the share panel can say which applies.
import { EDITIONS, editionAllowing, type TEditionKey } from "../../accounts/editions";
import { effectiveEdition } from "../../accounts/entitlements.service";

export type TShareCredit = { earns: boolean; upgradeTo: TEditionKey | null };

export function getShareCredit(account: { edition: string; editionExpiresAt: Date | string | null }, now = new Date()): TShareCredit {
  const earns = EDITIONS[effectiveEdition(account, now)].features.distribution;
  return { earns, upgradeTo: earns ? null : editionAllowing((e) => e.features.distribution) };
}
