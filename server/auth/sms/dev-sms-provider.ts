// The development SMS provider: a code goes to the server log and to /dev/sms, a page only platform
// administrators can open, never to a phone. It is the default only where it cannot be mistaken for
// a real one: development and test runs, and `npm start` on the embedded database. A production
// configuration (NODE_ENV=production on a database server) gets no provider at all unless
// SMS_PROVIDER names one, and SMS_PROVIDER=dev there stops the process at start unless ALLOW_DEV_SMS=1.
import { getEnv, mayUseDevSms, type TEnv } from "../../env";
import { logger } from "../../lib/logger";
import type { SmsProvider, TSmsMessage } from "./sms-provider";
import * as repo from "./sms.repository";

export type TSmsProviderName = "dev" | "aliyun" | "none";

/** Which provider sends codes: the one SMS_PROVIDER names, else the development one where it may run, else none. */
export function chooseSmsProvider(env: TEnv = getEnv()): TSmsProviderName {
  return env.SMS_PROVIDER ?? (mayUseDevSms(env) ? "dev" : "none");
}

export function isDevSmsActive(env: TEnv = getEnv()) {
  return chooseSmsProvider(env) === "dev";
}

export class DevSmsProvider implements SmsProvider {
  readonly name = "dev";

  constructor(env: TEnv = getEnv()) {
    // The settings already refuse this at start; kept here so no other path can build one.
    if (!mayUseDevSms(env))
      throw new Error("The development SMS provider does not run on a production configuration; set SMS_PROVIDER=aliyun, or ALLOW_DEV_SMS=1.");
  }

  async send(message: TSmsMessage) {
    logger.info({ phone: message.phone, code: message.code, purpose: message.purpose }, "DEV SMS (not sent to a phone)");
    await repo.insertDevSmsMessage({ phone: message.phone, text: message.text });
  }
}

/** The latest codes the development provider "sent", for the administrators' /dev/sms page. */
export async function findDevSmsMessages(limit = 20) {
  return repo.findDevSmsMessages(limit);
}
