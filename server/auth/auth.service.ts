// Registration and login (SPEC 2, 5, 6). Every refusal is an AppError and writes nothing but the
// login attempt that throttling needs.
import { getDb } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { Prisma } from "../db/generated/client";
import * as repo from "../accounts/accounts.repository";
import { changePasswordSchema, passwordSchema, registerSchema, resetPasswordSchema, ZLoginPasswordInput, ZLoginSmsInput } from "../accounts/accounts.schema";
import { hashPassword, verifyPassword } from "./password";
import { assertLoginAllowed, recordLoginAttempt } from "./login-throttle";
import { startSession, toSessionAccount } from "./session.service";
import { verifySmsCode } from "./sms";
import { grantExperienceBonus } from "../money/editions/experience-bonus";
import { resolveReferrer } from "../money/editions/referral";
import { isNameReserved } from "../money/editions/registration-reservation";

export type TRequestMeta = { ip: string; userAgent?: string; language?: string };

function isUniqueViolation(err: unknown) {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

export function isStrictPasswordOn(enterprise?: { strictPassword: boolean } | null) {
  return getEnv().STRICT_PASSWORD || Boolean(enterprise?.strictPassword);
}

export async function registerAccount(raw: unknown, meta: TRequestMeta, opts: { enterpriseDomain?: string; touser?: unknown } = {}) {
  const enterprise = opts.enterpriseDomain ? await repo.findEnterpriseByDomain(opts.enterpriseDomain) : null;
  if (opts.enterpriseDomain && !enterprise) throw new AppError("enterprise_not_found");
  const input = registerSchema(isStrictPasswordOn(enterprise)).parse(raw);
  const mode = enterprise?.registrationMode ?? getEnv().REGISTRATION_MODE;
  if (mode === "closed") throw new AppError("registration_closed");
  // Paid registration goes through a payment order (server/money/editions/registration.service.ts).
  if (mode === "paid" && !input.invitation_code) throw new AppError("registration_requires_payment", { data: { next: "payment" } });
  if (mode === "invitation" && !input.invitation_code) throw new AppError("invitation_invalid");
  if ((await repo.accountNameExists(input.account)) || (await isNameReserved(input.account))) throw new AppError("account_taken");

  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  try {
    const account = await getDb().$transaction(async (tx) => {
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

export async function loginWithPassword(raw: unknown, meta: TRequestMeta, opts: { enterpriseDomain?: string } = {}) {
  const input = ZLoginPasswordInput.parse(raw);
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

export async function loginWithSms(raw: unknown, meta: TRequestMeta, opts: { enterpriseDomain?: string } = {}) {
  const input = ZLoginSmsInput.parse(raw);
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
export async function resetPasswordWithSms(raw: unknown) {
  const phone = typeof raw === "object" && raw && "phone" in raw ? String((raw as { phone: unknown }).phone) : "";
  const found = await repo.findAccountForLogin({ phone: phone.replace(/^\+?86[-\s]?/, "").replace(/[\s-]/g, "") });
  const input = resetPasswordSchema(isStrictPasswordOn(found?.enterprise)).parse(raw);
  if (!found) throw new AppError("phone_not_registered");
  await verifySmsCode(input.phone, "reset_password", input.code);
  const now = new Date();
  const passwordHash = await hashPassword(input.password);
  await getDb().$transaction(async (tx) => {
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
  await getDb().$transaction(async (tx) => {
    await repo.updateAccount(found.id, { passwordHash, passwordChangedAt: now }, tx);
    await repo.revokeSessions({ accountId: found.id }, now, tx);
  });
}

/** A signed-in change of password ends every other session of the account. */
export async function changePassword(accountId: string, currentSessionId: string, raw: unknown) {
  const found = await repo.findAccountForLogin({ id: accountId });
  if (!found) throw new AppError("not_found");
  const input = changePasswordSchema(isStrictPasswordOn(found.enterprise)).parse(raw);
  if (!(await verifyPassword(found.passwordHash, input.current))) throw new AppError("invalid_credentials");
  const now = new Date();
  const passwordHash = await hashPassword(input.password);
  await getDb().$transaction(async (tx) => {
    await repo.updateAccount(found.id, { passwordHash, passwordChangedAt: now }, tx);
    await repo.revokeSessions({ accountId: found.id, exceptId: currentSessionId }, now, tx);
  });
}
