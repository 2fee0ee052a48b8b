// Verification codes through Aliyun Dysmsapi SendSms (API 2017-05-25), chosen by SMS_PROVIDER=aliyun.
// The template must take one variable, ${code}. A refusal by Aliyun throws, so sms.service deletes
// the code and the phone's limits are untouched.
import crypto from "node:crypto";
import { getEnv, type TEnv } from "../../env";
import { logger } from "../../lib/logger";
import { buildCanonicalQuery, formatAliyunTimestamp, percentEncode, signAliyunRpc } from "./aliyun-signature";
import type { SmsProvider, TSmsMessage } from "./sms-provider";
import { registerSmsProvider } from "./sms.service";

export type TAliyunSmsSettings = {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  region: string;
  endpoint: string;
};

const TIMEOUT_MS = 10_000;
const REQUIRED = ["ALIYUN_SMS_ACCESS_KEY_ID", "ALIYUN_SMS_ACCESS_KEY_SECRET", "ALIYUN_SMS_SIGN_NAME", "ALIYUN_SMS_TEMPLATE_CODE"] as const;

/** Fails with a sentence naming every missing setting, so one restart fixes them all. */
export function readAliyunSmsSettings(env: TEnv = getEnv()): TAliyunSmsSettings {
  const missing = REQUIRED.filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new Error(`SMS_PROVIDER=aliyun needs ${missing.join(", ")} to be set; set them or use SMS_PROVIDER=dev.`);
  }
  return {
    accessKeyId: env.ALIYUN_SMS_ACCESS_KEY_ID!,
    accessKeySecret: env.ALIYUN_SMS_ACCESS_KEY_SECRET!,
    signName: env.ALIYUN_SMS_SIGN_NAME!,
    templateCode: env.ALIYUN_SMS_TEMPLATE_CODE!,
    region: env.ALIYUN_SMS_REGION,
    endpoint: env.ALIYUN_SMS_ENDPOINT.replace(/\/+$/, ""),
  };
}

type TSendSmsAnswer = { Code?: string; Message?: string; BizId?: string; RequestId?: string };

export class AliyunSmsProvider implements SmsProvider {
  readonly name = "aliyun";

  constructor(private readonly settings: TAliyunSmsSettings) {}

  async send(message: TSmsMessage) {
    const url = this.buildSendSmsUrl(message, new Date());
    const phone = maskPhone(message.phone);
    let status: number;
    let answer: TSendSmsAnswer;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      status = res.status;
      answer = parseAnswer(await res.text());
    } catch (err) {
      logger.warn({ err, phone }, "Aliyun SMS unreachable");
      throw new Error("Aliyun SMS unreachable", { cause: err });
    }
    if (status < 200 || status >= 300 || answer.Code !== "OK") {
      logger.warn({ phone, status, code: answer.Code, message: answer.Message, requestId: answer.RequestId }, "Aliyun SMS refused the message");
      throw new Error(`Aliyun SMS refused the message: ${answer.Code ?? `HTTP ${status}`} ${answer.Message ?? ""}`.trim());
    }
    logger.info({ phone, bizId: answer.BizId, requestId: answer.RequestId }, "Aliyun SMS sent");
  }

  /** The signed GET request; `now` and `nonce` are parameters so the result can be reproduced. */
  buildSendSmsUrl(message: Pick<TSmsMessage, "phone" | "code">, now: Date, nonce: string = crypto.randomUUID()) {
    const s = this.settings;
    const params: Record<string, string> = {
      AccessKeyId: s.accessKeyId,
      Action: "SendSms",
      Format: "JSON",
      PhoneNumbers: message.phone,
      RegionId: s.region,
      SignName: s.signName,
      SignatureMethod: "HMAC-SHA1",
      SignatureNonce: nonce,
      SignatureVersion: "1.0",
      TemplateCode: s.templateCode,
      TemplateParam: JSON.stringify({ code: message.code }),
      Timestamp: formatAliyunTimestamp(now),
      Version: "2017-05-25",
    };
    const signature = signAliyunRpc(params, s.accessKeySecret);
    return `${s.endpoint}/?Signature=${percentEncode(signature)}&${buildCanonicalQuery(params)}`;
  }
}

// Aliyun answers errors as JSON too (with a 4xx); anything else still has to be reported, not thrown raw.
function parseAnswer(text: string): TSendSmsAnswer {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as TSendSmsAnswer) : {};
  } catch {
    return { Message: text.slice(0, 200) };
  }
}

// Logs are read by more people than the accounts table: keep enough to trace, not the number.
function maskPhone(phone: string) {
  return phone.length > 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : "****";
}

registerSmsProvider("aliyun", () => new AliyunSmsProvider(readAliyunSmsSettings()));
