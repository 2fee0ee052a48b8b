// What buying, renewing or upgrading an edition costs (docs/decisions/0006-edition-pricing.md).
// Pure: the service, the pages and the tests compute the same numbers from the same inputs.
//
// The rule:
// - The editions table's fee (server/accounts/editions.ts) is the price of a 365-day term. A 30-day
//   term costs fee * 30 / 365, rounded UP to the fen (providers move fen): professional 16.36,
//   flagship 24.58, enterprise and education 49.24.
// - The prepaid top-up comes with every purchase, whatever the term: it is the buyer's own money
//   and lands in the buyer's spendable coins.
// - Renewing the edition one has extends from the current expiry (or from now once it has ended).
// - Moving to a higher edition (or across to the other edition of the same rank) starts a new term
//   now; the whole unused days of the current one are credited at the current edition's yearly fee:
//   credit = floor(fee * unusedDays / 365) micro-Z (the day under way is not credited; rounding
//   down by under one micro). A credit that would reach the new term's fee is refused (choose the
//   365-day term): credit is never paid out as coins.
// - A lower edition while a higher one is active is refused (no scheduling): wait for the expiry.
// - Basic is never bought: it is what every account has without a membership.
import { EDITIONS, MEMBERSHIP_DAYS, type TEditionKey } from "../../accounts/editions";
import { AppError } from "../../errors/app-error";
import { FEN } from "../money.constants";
import { effectiveEdition } from "../../accounts/entitlements.service";

export const DAY_MS = 86_400_000;
/** The table's fee buys this many days. */
export const FEE_TERM_DAYS = 365;

export type TMembershipDays = (typeof MEMBERSHIP_DAYS)[number];
export type TEditionChangeKind = "new" | "renew" | "upgrade";

export type TMembership = { edition: string; editionExpiresAt: Date | string | null };

export type TEditionQuote = {
  kind: TEditionChangeKind;
  edition: TEditionKey;
  days: TMembershipDays;
  /** The edition in force now and its whole unused days (0 when basic). */
  current: TEditionKey;
  unusedDays: number;
  feeMicro: number;
  creditMicro: number;
  prepaidMicro: number;
  /** What the edition itself costs after the credit: goes to platform revenue. */
  chargeMicro: number;
  /** charge + prepaid: what a payment order asks for, and what the balance must cover. */
  totalMicro: number;
  expiresAt: Date;
};

/** The fee of one term of `days` days. */
export function termFeeMicro(edition: TEditionKey, days: TMembershipDays): number {
  const yearly = EDITIONS[edition].feeMicro;
  if (days === FEE_TERM_DAYS) return yearly;
  return Math.ceil((yearly * days) / FEE_TERM_DAYS / FEN) * FEN;
}

/** Whole days left before `expiresAt`; the day under way does not count. */
export function unusedWholeDays(expiresAt: Date | null, now: Date): number {
  if (!expiresAt) return 0;
  return Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS));
}

/** The credit for the unused days of an edition, at its yearly fee, rounded down to the micro. */
export function unusedCreditMicro(edition: TEditionKey, unusedDays: number): number {
  return Math.floor((EDITIONS[edition].feeMicro * unusedDays) / FEE_TERM_DAYS);
}

const refuse = (reason: string, data?: Record<string, unknown>) =>
  new AppError("edition_change_refused", { params: { reason: `$t:editions:refusals.${reason}` }, data: { reason, ...data } });

/** The price of taking `edition` for `days` days now, or the refusal. */
export function quoteEditionChange(membership: TMembership, edition: TEditionKey, days: TMembershipDays, now: Date): TEditionQuote {
  if (edition === "basic") throw refuse("basic_not_sold");
  if (!MEMBERSHIP_DAYS.includes(days)) throw refuse("term_invalid");
  const current = effectiveEdition(membership, now);
  const expires = membership.editionExpiresAt ? new Date(membership.editionExpiresAt) : null;
  const feeMicro = termFeeMicro(edition, days);
  const prepaidMicro = EDITIONS[edition].prepaidMicro;
  const base = { edition, days, current, feeMicro, prepaidMicro };
  if (current === "basic") {
    return {
      ...base,
      kind: "new",
      unusedDays: 0,
      creditMicro: 0,
      chargeMicro: feeMicro,
      totalMicro: feeMicro + prepaidMicro,
      expiresAt: new Date(now.getTime() + days * DAY_MS),
    };
  }
  if (current === edition) {
    const from = Math.max(now.getTime(), expires!.getTime());
    return {
      ...base,
      kind: "renew",
      unusedDays: unusedWholeDays(expires, now),
      creditMicro: 0,
      chargeMicro: feeMicro,
      totalMicro: feeMicro + prepaidMicro,
      expiresAt: new Date(from + days * DAY_MS),
    };
  }
  if (EDITIONS[edition].rank < EDITIONS[current].rank) throw refuse("downgrade_while_active", { current, expiresAt: expires?.toISOString() });
  const unusedDays = unusedWholeDays(expires, now);
  const creditMicro = unusedCreditMicro(current, unusedDays);
  if (creditMicro >= feeMicro) throw refuse("credit_exceeds_fee", { creditMicro, feeMicro });
  const chargeMicro = feeMicro - creditMicro;
  return {
    ...base,
    kind: "upgrade",
    unusedDays,
    creditMicro,
    chargeMicro,
    totalMicro: chargeMicro + prepaidMicro,
    expiresAt: new Date(now.getTime() + days * DAY_MS),
  };
}
