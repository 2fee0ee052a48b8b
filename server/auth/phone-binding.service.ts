// Binding a phone to a signed-in account. The bound phone is how SMS login finds the account and
// how a forgotten password is reset, so it is proved by a code sent to it and serves one account
// only. Replacing a bound phone also asks for the current password: a session left open on
// someone else's screen must not be enough to move the account's recovery to another phone.
// Wrong passwords count as failed logins, so this cannot be used to guess the password faster.
import { AppError } from "../errors/app-error";
import { isUniqueViolation } from "../db/transaction";
import * as repo from "../accounts/accounts.repository";
import type { TBindPhoneInput, TSendSmsInput } from "../accounts/accounts.schema";
import { verifyPassword } from "./password";
import { assertLoginAllowed, recordLoginAttempt } from "./login-throttle";
import { toSessionAccount } from "../accounts/session-account";
import { sendSmsCode, verifySmsCode } from "./sms";

/** Refused before any code is sent or used: the phone is already this account's, or another's. */
async function assertPhoneFree(accountId: string, phone: string) {
  const holder = await repo.findAccountForLogin({ phone });
  if (holder?.id === accountId) throw new AppError("phone_unchanged");
  if (holder) throw new AppError("phone_taken");
}

/** A code to the phone about to be bound; the per-phone limits of every SMS code apply. */
export async function sendBindPhoneCode(accountId: string, { phone }: Pick<TSendSmsInput, "phone">, lng: string) {
  await assertPhoneFree(accountId, phone);
  return sendSmsCode(phone, "bind_phone", lng);
}

export async function bindPhone(accountId: string, input: TBindPhoneInput, meta: { ip: string }) {
  const account = await repo.findAccountForLogin({ id: accountId });
  if (!account) throw new AppError("not_found");
  await assertPhoneFree(accountId, input.phone);
  if (account.phone) await assertCurrentPassword(account, input.password ?? "", meta.ip);
  await verifySmsCode(input.phone, "bind_phone", input.code);
  try {
    return toSessionAccount(await repo.updateAccount(accountId, { phone: input.phone }));
  } catch (err) {
    // Another account took the phone between the check and the write.
    if (isUniqueViolation(err)) throw new AppError("phone_taken");
    throw err;
  }
}

async function assertCurrentPassword(account: { account: string; passwordHash: string | null }, password: string, ip: string) {
  if (!account.passwordHash) throw new AppError("phone_change_needs_password");
  await assertLoginAllowed(account.account, ip);
  if (!password) throw new AppError("invalid_credentials");
  if (!(await verifyPassword(account.passwordHash, password))) {
    await recordLoginAttempt(account.account, ip, false);
    throw new AppError("invalid_credentials");
  }
}
