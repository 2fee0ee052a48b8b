import { getDb } from "../../db/client";
import { logger } from "../../lib/logger";
import type { SmsProvider, TSmsMessage } from "./sms-provider";

/** Development only: the code goes to the server log and to /dev/sms, never to a phone. */
export class DevSmsProvider implements SmsProvider {
  readonly name = "dev";
  async send(message: TSmsMessage) {
    logger.info({ phone: message.phone, code: message.code, purpose: message.purpose }, "DEV SMS (not sent to a phone)");
    await getDb().devSmsMessage.create({ data: { phone: message.phone, text: message.text } });
  }
}

export async function findDevSmsMessages(limit = 20) {
  return getDb().devSmsMessage.findMany({ orderBy: { id: "desc" }, take: limit, select: { phone: true, text: true, createdAt: true } });
}
