// Membership (the /upgrade page): what the account has, what each edition would cost it now,
// buying from the balance, and buying through a payment order. Pricing rules: edition-pricing.ts.
import { EDITIONS, MEMBERSHIP_DAYS, type TEditionKey } from "../../accounts/editions";
import { effectiveEdition } from "../../accounts/entitlements.service";
import { runTransaction } from "../../db/transaction";
import { AppError } from "../../errors/app-error";
import { getWallet, platform, spend } from "../ledger.service";
import { DAY_MS, quoteEditionChange, type TEditionQuote, type TMembershipDays } from "./edition-pricing";
import { SOLD_EDITIONS, type TBuyEditionInput, type TEditionOrderInput } from "./editions.schema";
import * as repo from "./editions.repository";
import { createPaymentOrder } from "../payments/payment-orders.service";
import { listProviders } from "../payments/providers";

export type TQuoteView = {
  edition: TEditionKey;
  days: TMembershipDays;
  kind: TEditionQuote["kind"] | null;
  /** Why this change is refused now (an editions:refusals.* key), or null. */
  refused: string | null;
  fee: number;
  credit: number;
  prepaid: number;
  charge: number;
  total: number;
  unused_days: number;
  expires_at: string | null;
};

export type TMembershipView = {
  edition: TEditionKey;
  /** The edition bought, when it has ended (the page says it fell back to basic). */
  lapsed: TEditionKey | null;
  expires_at: string | null;
  /** Days left, fractional; the page shows them as years, months and days (DAYS_PER_YEAR, DAYS_PER_MONTH). */
  days_left: number;
  wallet: { spendable: number; gift: number; available: number };
  quotes: TQuoteView[];
};

function toQuoteView(edition: TEditionKey, days: TMembershipDays, membership: repo.TMembershipRow, now: Date): TQuoteView {
  const empty = { edition, days, fee: 0, credit: 0, prepaid: EDITIONS[edition].prepaidMicro, charge: 0, total: 0, unused_days: 0, expires_at: null };
  try {
    const q = quoteEditionChange(membership, edition, days, now);
    return {
      edition,
      days,
      kind: q.kind,
      refused: null,
      fee: q.feeMicro,
      credit: q.creditMicro,
      prepaid: q.prepaidMicro,
      charge: q.chargeMicro,
      total: q.totalMicro,
      unused_days: q.unusedDays,
      expires_at: q.expiresAt.toISOString(),
    };
  } catch (err) {
    if (err instanceof AppError && err.code === "edition_change_refused") return { ...empty, kind: null, refused: (err.data as { reason: string }).reason };
    throw err;
  }
}

export async function getMembership(accountId: string, now = new Date()): Promise<TMembershipView> {
  const membership = await repo.findMembership(accountId);
  if (!membership) throw new AppError("not_found");
  const edition = effectiveEdition(membership, now);
  const stored = membership.edition as TEditionKey;
  const expires = membership.editionExpiresAt;
  const w = await getWallet(accountId);
  return {
    edition,
    lapsed: stored !== "basic" && edition === "basic" ? stored : null,
    expires_at: edition === "basic" ? null : (expires?.toISOString() ?? null),
    days_left: edition === "basic" || !expires ? 0 : Math.max(0, (expires.getTime() - now.getTime()) / DAY_MS),
    wallet: { spendable: w.spendable, gift: w.gift, available: w.available },
    quotes: SOLD_EDITIONS.flatMap((e) => MEMBERSHIP_DAYS.map((d) => toQuoteView(e as TEditionKey, d, membership, now))),
  };
}

/** Memo of an edition posting: statements name the edition, the term and the breakdown. */
function memoOf(q: TEditionQuote) {
  return {
    edition: q.edition,
    days: q.days,
    change: q.kind,
    fee: q.feeMicro,
    credit: q.creditMicro,
    prepaid: q.prepaidMicro,
    expiresAt: q.expiresAt.toISOString(),
  };
}

export type TEditionBought = { edition: TEditionKey; days: number; change: string; charged: number; expires_at: string; replayed: boolean };

/**
 * Buys from the balance. The edition's charge (fee less any credit) is paid gift credit first, then
 * coins, to platform revenue; the prepaid top-up must be in the buyer's coins after that and stays
 * there (it would move from the wallet to the same wallet). Under the account's row lock, so a
 * second request with the same request_id waits and answers the first purchase.
 */
export async function buyEditionFromWallet(accountId: string, input: TBuyEditionInput, now = new Date()): Promise<TEditionBought> {
  const key = `edition:${accountId}:${input.request_id}`;
  return runTransaction(async (tx) => {
    const membership = await repo.lockMembership(accountId, tx);
    if (!membership) throw new AppError("not_found");
    const done = await repo.findPostingByKey(key, tx);
    if (done) return replayOf(done.memo, input);
    const q = quoteEditionChange(membership, input.edition as TEditionKey, input.days as TMembershipDays, now);
    const memo = memoOf(q);
    await spend(
      { key, kind: "edition", payer: accountId, amount: q.chargeMicro, credits: [{ account: platform("platform_revenue"), amount: q.chargeMicro }], memo },
      tx,
    );
    const after = await getWallet(accountId, tx);
    if (after.spendable < q.prepaidMicro) {
      throw new AppError("balance_insufficient", { data: { needed: q.totalMicro, prepaid: q.prepaidMicro } });
    }
    await repo.setMembership(accountId, q.edition, q.expiresAt, tx);
    return { edition: q.edition, days: q.days, change: q.kind, charged: q.chargeMicro, expires_at: q.expiresAt.toISOString(), replayed: false };
  });
}

function replayOf(memo: unknown, input: { edition: string; days: number }): TEditionBought {
  const m = (memo ?? {}) as Record<string, unknown>;
  // The same request_id for another edition or term is another request: refuse as the ledger would.
  if (m.edition !== input.edition || Number(m.days) !== input.days) throw new AppError("idempotency_conflict");
  return {
    edition: m.edition as TEditionKey,
    days: Number(m.days),
    change: String(m.change),
    charged: Number(m.fee) - Number(m.credit),
    expires_at: String(m.expiresAt),
    replayed: true,
  };
}

/** What an edition order keeps: the quote and the membership it was made against. */
export type TEditionOrderDetails = ReturnType<typeof memoOf> & { charge: number; basis: { edition: string; expiresAt: string | null } };

/** The order to pay for an edition through a provider; the payment applies it (edition.purpose.ts). */
export async function quoteEditionOrder(accountId: string, input: TEditionOrderInput, now = new Date()) {
  const membership = await repo.findMembership(accountId);
  if (!membership) throw new AppError("not_found");
  const q = quoteEditionChange(membership, input.edition as TEditionKey, input.days as TMembershipDays, now);
  const details: TEditionOrderDetails = {
    ...memoOf(q),
    charge: q.chargeMicro,
    basis: { edition: membership.edition, expiresAt: membership.editionExpiresAt?.toISOString() ?? null },
  };
  return { provider: input.provider, amountMicro: q.totalMicro, details };
}

/** Buys through a payment order (purpose "edition"): the payer opens pay_url; the payment applies it. */
export async function createEditionOrder(accountId: string, input: TEditionOrderInput, now = new Date()) {
  const { provider, amountMicro, details } = await quoteEditionOrder(accountId, input, now);
  if (!listProviders().includes(provider as never)) throw new AppError("payment_provider_unavailable");
  return createPaymentOrder({ accountId, purpose: "edition", amountMicro, provider, details: details as unknown as Record<string, unknown> });
}
