// Verification codes by SMS (login, registration, password reset, binding a phone). At most one code a
// minute and ten a day per phone; a code lives five minutes and survives five wrong guesses.
import crypto from "node:crypto";
import { AppError } from "../../errors/app-error";
import { getT } from "../../i18n/translate";
import { sha256 } from "../../lib/secret-box";
import { singleton } from "../../lib/singleton";
import type { TSendSmsInput } from "../../accounts/accounts.schema";
import * as repo from "./sms.repository";
import { chooseSmsProvider, DevSmsProvider } from "./dev-sms-provider";
import type { SmsProvider } from "./sms-provider";

type TSmsPurpose = TSendSmsInput["purpose"];

export const SMS_INTERVAL_MS = 60_000;
export const SMS_DAILY_LIMIT = 10;
export const SMS_CODE_TTL_MS = 5 * 60_000;
export const SMS_MAX_ATTEMPTS = 5;

const providers = new Map<string, () => SmsProvider>([["dev", () => new DevSmsProvider()]]);

/** Real providers register themselves here (server/auth/sms/aliyun-sms-provider.ts). */
export function registerSmsProvider(name: string, create: () => SmsProvider) {
  providers.set(name, create);
}

/** The configured provider; sms_unavailable when this deployment has none. */
export function getSmsProvider(): SmsProvider {
  const name = chooseSmsProvider();
  if (name === "none") throw new AppError("sms_unavailable");
  return singleton(`sms-provider:${name}`, () => {
    const create = providers.get(name);
    if (!create) throw new Error(`SMS_PROVIDER=${name} is not a known provider (${[...providers.keys()].join(", ")})`);
    return create();
  });
}

const hashCode = (phone: string, purpose: string, code: string) => sha256(`${phone}:${purpose}:${code}`);

export async function sendSmsCode(phone: string, purpose: TSmsPurpose, lng: string, now = new Date()) {
  // Refused before a code is made: nothing would deliver it.
  if (chooseSmsProvider() === "none") throw new AppError("sms_unavailable");
  const recent = await repo.findLatestCodeTimes(phone, new Date(now.getTime() - 24 * 3600_000));
  const last = recent[0]?.createdAt;
  if (last && now.getTime() - last.getTime() < SMS_INTERVAL_MS) {
    throw new AppError("sms_too_frequent", { params: { seconds: Math.ceil((SMS_INTERVAL_MS - (now.getTime() - last.getTime())) / 1000) } });
  }
  if (recent.length >= SMS_DAILY_LIMIT) throw new AppError("sms_daily_limit");
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
  const row = await repo.insertCode({ phone, purpose, codeHash: hashCode(phone, purpose, code), expiresAt: new Date(now.getTime() + SMS_CODE_TTL_MS) });
  const text = getT(lng, "auth")("sms.text", { code, minutes: SMS_CODE_TTL_MS / 60_000 });
  try {
    await getSmsProvider().send({ phone, code, purpose, text });
  } catch (err) {
    // Not delivered: it must not count against the phone's limits, and no code is left behind.
    await repo.deleteCode(row.id);
    throw new AppError("system_busy", { cause: err });
  }
  return { retryAfterSeconds: SMS_INTERVAL_MS / 1000 };
}

/** Checks and consumes a code. Wrong codes count; the sixth guess fails even if right. */
export async function verifySmsCode(phone: string, purpose: TSmsPurpose, code: string, now = new Date()) {
  const live = await repo.findLiveCode(phone, purpose, now);
  if (!live || live.attempts >= SMS_MAX_ATTEMPTS) throw new AppError("sms_code_invalid");
  if (live.codeHash !== hashCode(phone, purpose, code)) {
    await repo.countAttempt(live.id);
    throw new AppError("sms_code_invalid");
  }
  if (!(await repo.consumeCode(live.id, now))) throw new AppError("sms_code_invalid");
}
