// A paid edition order (purpose "edition"): the edition's charge to platform revenue, the prepaid
// top-up to the buyer's coins, and the membership changed, in the transaction that marks it paid.
// The quote was made against the membership the order recorded (details.basis). If that changed
// before the money arrived (another purchase meanwhile), the quote no longer holds: the change is
// not made and the whole amount lands in the buyer's coins, named so on the statement. A paid
// order never throws for that: the provider would retry forever.
import type { TEditionKey } from "../../accounts/editions";
import { AppError } from "../../errors/app-error";
import { platform, wallet, type TLeg } from "../ledger.service";
import type { TPurposeHandler } from "../payments/purpose.types";
import { DAY_MS } from "./edition-pricing";
import type { TEditionOrderDetails } from "./editions.service";
import * as repo from "./editions.repository";

export const applyEditionOrder: TPurposeHandler = async (order, tx) => {
  if (!order.accountId) throw new AppError("payment_order_state");
  const accountId = order.accountId;
  const d = order.details as TEditionOrderDetails;
  const membership = await repo.lockMembership(accountId, tx);
  if (!membership) throw new AppError("not_found");
  const stillSame = membership.edition === d.basis?.edition && (membership.editionExpiresAt?.toISOString() ?? null) === (d.basis?.expiresAt ?? null);
  const adds = d.charge + d.prepaid === order.amountMicro;
  if (!stillSame || !adds) {
    return {
      accountId,
      legs: [{ account: wallet("spendable", accountId), amount: order.amountMicro }],
      memo: { edition: d.edition, days: d.days, notApplied: "membership_changed" },
    };
  }
  const now = new Date();
  // A renewal extends from the current expiry; a new membership or an upgrade starts now.
  const from = d.change === "renew" ? Math.max(now.getTime(), membership.editionExpiresAt?.getTime() ?? 0) : now.getTime();
  const expiresAt = new Date(from + d.days * DAY_MS);
  await repo.setMembership(accountId, d.edition as TEditionKey, expiresAt, tx);
  const legs: TLeg[] = [{ account: platform("platform_revenue"), amount: d.charge }];
  if (d.prepaid > 0) legs.push({ account: wallet("spendable", accountId), amount: d.prepaid });
  return { accountId, legs, memo: { ...d, basis: undefined, charge: undefined, expiresAt: expiresAt.toISOString() } };
};
