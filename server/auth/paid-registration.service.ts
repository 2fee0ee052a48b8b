// Paid registration, for a registration without an invitation code. The form is validated as a free
// registration would be, then a payment order (purpose "registration") carries the account name,
// the password's HASH (never the password), the language, the enterprise and the sharer. While
// the order is pending the name is reserved (money/editions/registration-reservation.ts). The paid
// handler (money/editions/registration.purpose.ts) creates the account in the transaction that takes the money. The page
// that made the order keeps a claim token (its hash is in the order) and signs in with it once paid.
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { randomToken, sha256 } from "../lib/secret-box";
import * as accounts from "../accounts/accounts.repository";
import type { TCompleteRegistrationInput, TRegisterInput } from "../accounts/accounts.schema";
import { toSessionAccount } from "../accounts/session-account";
import { createPaymentOrder, getPaymentOrder } from "../money/payments/payment-orders.service";
import { listProviders } from "../money/payments/providers";
import { getRegistrationFeeMicro } from "../money/editions/registration-settings";
import { isNameReserved } from "../money/editions/registration-reservation";
import { resolveReferrer } from "../money/editions/referral";
import { findPaymentOrder } from "../money/editions/editions.repository";
import type { TRegistrationDetails } from "../money/editions/registration.purpose";
import { hashPassword } from "./password";
import type { TRegistrationEnterprise, TRequestMeta } from "./auth.service";
import { startSession } from "./session.service";

/** How long after the payment the page may still sign in with its claim; later it signs in by password. */
export const CLAIM_TTL_MS = 60 * 60 * 1000;

export async function getRegistrationTerms(opts: { enterpriseDomain?: string } = {}) {
  const enterprise = opts.enterpriseDomain ? await accounts.findEnterpriseByDomain(opts.enterpriseDomain) : null;
  const mode = enterprise?.registrationMode ?? getEnv().REGISTRATION_MODE;
  return { mode, fee: getRegistrationFeeMicro(), providers: mode === "paid" ? listProviders() : [] };
}

export async function createRegistrationOrder(
  input: TRegisterInput,
  provider: string,
  meta: TRequestMeta,
  opts: { enterprise: TRegistrationEnterprise; touser?: unknown },
) {
  const { enterprise } = opts;
  const mode = enterprise?.registrationMode ?? getEnv().REGISTRATION_MODE;
  if (mode === "closed") throw new AppError("registration_closed");
  // Only a paid registration is made here; the free and invitation ones are /api/v1/auth/register.
  if (mode !== "paid") throw new AppError("payment_order_state");
  if (!listProviders().includes(provider as never)) throw new AppError("payment_provider_unavailable");
  if ((await accounts.accountNameExists(input.account)) || (await isNameReserved(input.account))) throw new AppError("account_taken");
  const claim = randomToken(24);
  const details: TRegistrationDetails = {
    account: input.account,
    passwordHash: await hashPassword(input.password),
    language: meta.language ?? null,
    enterpriseId: enterprise?.id ?? null,
    claimHash: sha256(claim),
  };
  const sharer = await resolveReferrer(opts.touser, null);
  const order = await createPaymentOrder({
    accountId: null,
    purpose: "registration",
    amountMicro: getRegistrationFeeMicro(),
    provider,
    details,
    sharerAccountId: sharer ?? null,
  });
  return { order, claim, account: input.account };
}

async function findClaimedOrder(orderId: string, claim: string) {
  const order = typeof orderId === "string" && orderId.length < 64 ? await findPaymentOrder(orderId) : null;
  const details = (order?.details ?? {}) as Partial<TRegistrationDetails>;
  // Without the claim an order is nobody's business: the same answer as a missing one.
  if (!order || order.purpose !== "registration" || typeof claim !== "string" || !details.claimHash || details.claimHash !== sha256(claim))
    throw new AppError("not_found");
  return order;
}

/** The registration order's state for the page that made it. */
export async function getRegistrationOrder(orderId: string, claim: string) {
  const order = await findClaimedOrder(orderId, claim);
  const view = await getPaymentOrder(order.id);
  return { ...view!, registered: order.state === "paid" && Boolean(order.accountId) };
}

/** Once paid, the page that made the order signs in with its claim (for an hour after payment). */
export async function completeRegistration(input: TCompleteRegistrationInput, meta: TRequestMeta, now = new Date()) {
  const order = await findClaimedOrder(input.order_id, input.claim);
  if (order.state === "failed" || order.state === "cancelled") throw new AppError("payment_failed");
  if (order.state !== "paid") throw new AppError("payment_order_state");
  // Paid but the name was taken after all (registration.purpose.ts): the fee is held for a refund.
  if (!order.accountId) throw new AppError("account_taken");
  if (!order.paidAt || now.getTime() - order.paidAt.getTime() > CLAIM_TTL_MS) throw new AppError("payment_order_state");
  const account = await accounts.findAccountForLogin({ id: order.accountId });
  if (!account || account.status !== "active") throw new AppError("account_disabled");
  return { account: toSessionAccount(account), session: await startSession(account.id, meta) };
}
