// A paid registration (purpose "registration"): the account is created from the order's details,
// with its experience bonus, and the fee goes to platform revenue, all in the transaction that
// marks the order paid. The sharer who brought it (the order's touser) becomes referredById.
//
// A name taken before the money arrived (a payment reported after the order had been closed and
// its reservation ended, or two orders racing for one name) must not throw: the provider would
// retry for ever. No account is made (one under another name is not what was paid for); the fee
// is held in escrow, named "refund owed" on the posting, for an administrator to refund through
// the provider, and the page says the name was taken.
import { AppError } from "../../errors/app-error";
import { platform } from "../ledger.service";
import type { TPurposeHandler, TPurposeResult } from "../payments/purpose.types";
import { grantExperienceBonus } from "./experience-bonus";
import { resolveReferrer } from "./referral";
import * as repo from "./editions.repository";

/** What a registration order keeps (made by auth/paid-registration.service.ts). Never shown raw. */
export type TRegistrationDetails = {
  account: string;
  passwordHash: string;
  language: string | null;
  enterpriseId: string | null;
  /** sha256 of the token the ordering page keeps to sign in once paid. */
  claimHash: string;
};

export const applyRegistrationOrder: TPurposeHandler = async (order, tx) => {
  const d = order.details as Partial<TRegistrationDetails>;
  if (!d.account || !d.passwordHash) throw new AppError("payment_order_state");
  await repo.lockAccountName(d.account, tx);
  if (await repo.accountNameExists(d.account, tx)) {
    const held: TPurposeResult = {
      // Nobody's statement: there is no account. The payments service keeps the order's account empty.
      accountId: null as unknown as string,
      legs: [{ account: platform("escrow"), amount: order.amountMicro }],
      memo: { refundOwed: true, reason: "account_taken", account: d.account },
    };
    return held;
  }
  const now = new Date();
  const created = await repo.createAccountRow(
    {
      account: d.account,
      nickname: d.account,
      language: d.language ?? undefined,
      passwordHash: d.passwordHash,
      passwordChangedAt: now,
      roles: d.enterpriseId ? ["enterprise_staff"] : ["individual_developer"],
      enterpriseId: d.enterpriseId ?? undefined,
      referredById: await resolveReferrer(order.sharerAccountId, null, tx),
    },
    tx,
  );
  await grantExperienceBonus(created.id, tx);
  return { accountId: created.id, legs: [{ account: platform("platform_revenue"), amount: order.amountMicro }], memo: { account: d.account } };
};
