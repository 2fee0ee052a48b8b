// Registration and login. Every refusal is an AppError and writes nothing but the
// login attempt that throttling needs.
import { isUniqueViolation, withTransaction } from "../db/transaction";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import * as repo from "../accounts/accounts.repository";
import {
  passwordSchema,
  ZPhone,
  type TChangePasswordInput,
  type TLoginPasswordInput,
  type TLoginSmsInput,
  type TRegisterInput,
  type TResetPasswordInput,
} from "../accounts/accounts.schema";
import { hashPassword, verifyPassword } from "./password";
import { assertLoginAllowed, recordLoginAttempt } from "./login-throttle";
import { toSessionAccount } from "../accounts/session-account";
import { startSession } from "./session.service";
import { verifySmsCode } from "./sms";
import { grantExperienceBonus } from "../money/editions/experience-bonus";
import { resolveReferrer } from "../money/editions/referral";
import { isNameReserved } from "../money/editions/registration-reservation";

export type TRequestMeta = { ip: string; userAgent?: string; language?: string };

export function isStrictPasswordOn(enterprise?: { strictPassword: boolean } | null) {
  return getEnv().STRICT_PASSWORD || Boolean(enterprise?.strictPassword);
}

// The password rule depends on whose password it is, so the edge looks that up before it parses:
// the enterprise a registration names by its domain, the account a reset names by its phone, the
// signed-in account for a change.

/** The enterprise of a registration from /sso_login (null without a domain); enterprise_not_found for an unknown one. */
export async function findRegistrationEnterprise(domain: string | undefined) {
  const enterprise = domain ? await repo.findEnterpriseByDomain(domain) : null;
  if (domain && !enterprise) throw new AppError("enterprise_not_found");
  return enterprise;
}
export type TRegistrationEnterprise = Awaited<ReturnType<typeof findRegistrationEnterprise>>;

/** Whether a reset of the password of the account holding `phone` (as typed) follows the strict rule. */
export async function isStrictPasswordForPhone(phone: string) {
  const normalized = ZPhone.safeParse(phone);
  const found = normalized.success ? await repo.findAccountForLogin({ phone: normalized.data }) : null;
  return isStrictPasswordOn(found?.enterprise);
}

/** Whether the signed-in account's new password follows the strict rule. */
export async function isStrictPasswordForAccount(accountId: string) {
  const found = await repo.findAccountForLogin({ id: accountId });
  if (!found) throw new AppError("not_found");
  return isStrictPasswordOn(found.enterprise);
}

export async function registerAccount(input: TRegisterInput, meta: TRequestMeta, opts: { enterprise: TRegistrationEnterprise; touser?: unknown }) {
  const { enterprise } = opts;
  const mode = enterprise?.registrationMode ?? getEnv().REGISTRATION_MODE;
  if (mode === "closed") throw new AppError("registration_closed");
  // Paid registration goes through a payment order (paid-registration.service.ts).
  if (mode === "paid" && !input.invitation_code) throw new AppError("registration_requires_payment", { data: { next: "payment" } });
  if (mode === "invitation" && !input.invitation_code) throw new AppError("invitation_invalid");
  if ((await repo.accountNameExists(input.account)) || (await isNameReserved(input.account))) throw new AppError("account_taken");

  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  try {
    const account = await withTransaction(async (tx) => {
      let invitedById: string | undefined;
      if (input.invitation_code) {
        const invitation = await repo.consumeInvitation(input.invitation_code, now, tx);
        if (!invitation || (enterprise && invitation.enterpriseId !== enterprise.id)) throw new AppError("invitation_invalid");
        invitedById = invitation.createdById ?? undefined;
      }
      const created = await repo.createAccount(
        {
          account: input.account,
          nickname: input.account,
          // The language the person registered in becomes the account's.
          language: meta.language,
          passwordHash,
          passwordChangedAt: now,
          roles: enterprise ? ["enterprise_staff"] : ["individual_developer"],
          enterpriseId: enterprise?.id,
          invitedById,
          referredById: await resolveReferrer(opts.touser, null, tx),
        },
        tx,
      );
      await grantExperienceBonus(created.id, tx);
      return created;
    });
    const session = await startSession(account.id, meta);
    return { account: toSessionAccount(account), session };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("account_taken");
    throw err;
  }
}

/** /sso_login: the enterprise the login is for, when it came with a domain. */
async function resolveLoginEnterprise(domain: string | undefined) {
  if (!domain) return undefined;
  const enterprise = await repo.findEnterpriseByDomain(domain);
  if (!enterprise) throw new AppError("enterprise_not_found");
  return enterprise.id;
}

export async function loginWithPassword(input: TLoginPasswordInput, meta: TRequestMeta, opts: { enterpriseDomain?: string } = {}) {
  const enterpriseId = await resolveLoginEnterprise(opts.enterpriseDomain);
  await assertLoginAllowed(input.account, meta.ip);
  const found = await repo.findAccountForLogin(/^1[3-9]\d{9}$/.test(input.account) ? { phone: input.account } : { account: input.account });
  // An account of another enterprise (or none) cannot sign in through an enterprise's page.
  const member = enterpriseId === undefined || found?.enterpriseId === enterpriseId;
  const ok = found && member ? await verifyPassword(found.passwordHash, input.password) : false;
  await recordLoginAttempt(input.account, meta.ip, ok);
  if (!found || !ok) throw new AppError("invalid_credentials");
  if (found.status !== "active") throw new AppError("account_disabled");
  return { account: toSessionAccount(found), session: await startSession(found.id, meta) };
}

export async function loginWithSms(input: TLoginSmsInput, meta: TRequestMeta, opts: { enterpriseDomain?: string } = {}) {
  const enterpriseId = await resolveLoginEnterprise(opts.enterpriseDomain);
  await assertLoginAllowed(input.phone, meta.ip);
  const found = await repo.findAccountForLogin({ phone: input.phone });
  if (!found || (enterpriseId !== undefined && found.enterpriseId !== enterpriseId)) throw new AppError("phone_not_registered");
  try {
    await verifySmsCode(input.phone, "login", input.code);
  } catch (err) {
    await recordLoginAttempt(input.phone, meta.ip, false);
    throw err;
  }
  await recordLoginAttempt(input.phone, meta.ip, true);
  if (found.status !== "active") throw new AppError("account_disabled");
  return { account: toSessionAccount(found), session: await startSession(found.id, meta) };
}

/** Forgot password: a code to the account's phone sets a new password and ends every session. */
export async function resetPasswordWithSms(input: TResetPasswordInput) {
  const found = await repo.findAccountForLogin({ phone: input.phone });
  if (!found) throw new AppError("phone_not_registered");
  await verifySmsCode(input.phone, "reset_password", input.code);
  const now = new Date();
  const passwordHash = await hashPassword(input.password);
  await withTransaction(async (tx) => {
    await repo.updateAccount(found.id, { passwordHash, passwordChangedAt: now }, tx);
    await repo.revokeSessions({ accountId: found.id }, now, tx);
  });
}

/**
 * An operator sets a password for an account that cannot recover its own (no phone bound): the
 * account's rule applies as at sign-up, and every session ends, as a reset by SMS does.
 */
export async function resetPasswordByOperator(accountName: string, password: string) {
  const found = await repo.findAccountForLogin({ account: accountName });
  if (!found) throw new AppError("not_found");
  const passwordHash = await hashPassword(passwordSchema(isStrictPasswordOn(found.enterprise)).parse(password));
  const now = new Date();
  await withTransaction(async (tx) => {
    await repo.updateAccount(found.id, { passwordHash, passwordChangedAt: now }, tx);
    await repo.revokeSessions({ accountId: found.id }, now, tx);
  });
}

/** A signed-in change of password ends every other session of the account. */
export async function changePassword(accountId: string, currentSessionId: string, input: TChangePasswordInput) {
  const found = await repo.findAccountForLogin({ id: accountId });
  if (!found) throw new AppError("not_found");
  if (!(await verifyPassword(found.passwordHash, input.current))) throw new AppError("invalid_credentials");
  const now = new Date();
  const passwordHash = await hashPassword(input.password);
  await withTransaction(async (tx) => {
    await repo.updateAccount(found.id, { passwordHash, passwordChangedAt: now }, tx);
    await repo.revokeSessions({ accountId: found.id, exceptId: currentSessionId }, now, tx);
  });
}

/** A login or reset code only for a phone some account has: said now, not after waiting for a code that cannot work. */
export async function assertPhoneRegistered(phone: string) {
  if (!(await repo.findAccountForLogin({ phone }))) throw new AppError("phone_not_registered");
}
