// Which payment providers this deployment offers, from the environment (read once, like server/env.ts;
// tests reset it). WeChat Pay and Alipay are on when all their keys are set. The sandbox (a cashier
// page where the payer pays or cancels, no real money) is on by default only while neither real
// provider is configured, so a fresh install can top up and a real one never shows it by accident.
// On a production configuration its coins would be as spendable as bought ones: it is off there, and
// asking for it stops the process at start unless ALLOW_PAYMENT_SANDBOX=1 says it is meant (a staging server).
import fs from "node:fs";
import { z } from "zod";
import { isProductionConfiguration } from "../../env";

const ZBool = z.enum(["1", "0", "true", "false", "yes", "no", "on", "off"]).transform((v) => ["1", "true", "yes", "on"].includes(v));
const ZUrl = z.string().regex(/^https?:\/\/[^\s]+$/, "must be an http(s):// URL");

const ZPaymentEnv = z.object({
  /** Where WeChat Pay and Alipay send notifications: this site's public origin. */
  PAYMENT_NOTIFY_BASE: ZUrl.optional(),
  PUBLIC_URL: ZUrl.optional(),
  /** on/off; unset: on only when neither WeChat Pay nor Alipay is configured and this is not a production configuration. */
  PAYMENT_SANDBOX: ZBool.optional(),
  /** 1: PAYMENT_SANDBOX=on is meant on a production configuration (a staging server, the end-to-end platform). */
  ALLOW_PAYMENT_SANDBOX: ZBool.optional(),
  /** Minutes a pending order waits for its payment before money.close-stale-orders closes it. */
  PAYMENT_ORDER_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(30),
  WECHATPAY_MCHID: z.string().optional(),
  WECHATPAY_APPID: z.string().optional(),
  /** Serial number of the merchant API certificate (the key below). */
  WECHATPAY_SERIAL_NO: z.string().optional(),
  /** The merchant API private key (apiclient_key.pem): PEM text (\n allowed) or a file path. */
  WECHATPAY_PRIVATE_KEY: z.string().optional(),
  /** The APIv3 key (32 characters) that decrypts notifications. */
  WECHATPAY_APIV3_KEY: z.string().length(32, "must be the 32-character APIv3 key").optional(),
  /** WeChat Pay's platform public key or platform certificate: PEM text or a file path. */
  WECHATPAY_PLATFORM_PUBLIC_KEY: z.string().optional(),
  /** Its id (PUB_KEY_ID_... or the certificate serial) that Wechatpay-Serial must name. */
  WECHATPAY_PLATFORM_SERIAL: z.string().optional(),
  WECHATPAY_API_BASE: ZUrl.default("https://api.mch.weixin.qq.com"),
  ALIPAY_APP_ID: z.string().optional(),
  /** The application private key (PKCS#8 or PKCS#1 PEM, or bare base64 as Alipay's tool prints it) or a file path. */
  ALIPAY_PRIVATE_KEY: z.string().optional(),
  /** Alipay's public key (PEM or bare base64) or a file path. */
  ALIPAY_PUBLIC_KEY: z.string().optional(),
  ALIPAY_GATEWAY: ZUrl.default("https://openapi.alipay.com/gateway.do"),
  /** Where Alipay sends the payer's browser back after paying (defaults to the notify base's /setting). */
  ALIPAY_RETURN_URL: ZUrl.optional(),
});

const SANDBOX_REFUSED =
  "is on, on a production configuration (NODE_ENV=production with a DATABASE_URL): sandbox payments move no money yet credit real coins; configure WeChat Pay or Alipay and remove PAYMENT_SANDBOX, or set ALLOW_PAYMENT_SANDBOX=1 to keep the sandbox on purpose";

export type TWechatPaySettings = {
  mchid: string;
  appid: string;
  serialNo: string;
  privateKey: string;
  apiV3Key: string;
  platformPublicKey: string;
  platformSerial: string;
  apiBase: string;
};
export type TAlipaySettings = { appId: string; privateKey: string; publicKey: string; gateway: string; returnUrl: string | null };
export type TPaymentSettings = {
  notifyBase: string | null;
  sandbox: boolean;
  orderTtlMinutes: number;
  wechat: TWechatPaySettings | null;
  alipay: TAlipaySettings | null;
};

/** PEM text as given (with literal \n turned into newlines), bare base64 wrapped, or a file's content. */
export function readKeyText(value: string, kind: "PRIVATE KEY" | "PUBLIC KEY"): string {
  const text = value.replace(/\\n/g, "\n").trim();
  if (text.startsWith("-----BEGIN")) return text;
  if (/^[A-Za-z0-9+/=\s]{100,}$/.test(text)) return `-----BEGIN ${kind}-----\n${text.replace(/\s+/g, "").replace(/(.{64})/g, "$1\n")}\n-----END ${kind}-----`;
  return fs.readFileSync(text, "utf8");
}

export function parsePaymentSettings(source: Record<string, string | undefined> = process.env): TPaymentSettings {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([k, v]) => k in ZPaymentEnv.shape && v !== undefined && v !== ""));
  const parsed = ZPaymentEnv.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Zelin cannot start: bad payment settings in the environment.\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const wechatSet = [
    e.WECHATPAY_MCHID,
    e.WECHATPAY_APPID,
    e.WECHATPAY_SERIAL_NO,
    e.WECHATPAY_PRIVATE_KEY,
    e.WECHATPAY_APIV3_KEY,
    e.WECHATPAY_PLATFORM_PUBLIC_KEY,
    e.WECHATPAY_PLATFORM_SERIAL,
  ];
  const wechat = wechatSet.every(Boolean)
    ? {
        mchid: e.WECHATPAY_MCHID!,
        appid: e.WECHATPAY_APPID!,
        serialNo: e.WECHATPAY_SERIAL_NO!,
        privateKey: readKeyText(e.WECHATPAY_PRIVATE_KEY!, "PRIVATE KEY"),
        apiV3Key: e.WECHATPAY_APIV3_KEY!,
        platformPublicKey: readKeyText(e.WECHATPAY_PLATFORM_PUBLIC_KEY!, "PUBLIC KEY"),
        platformSerial: e.WECHATPAY_PLATFORM_SERIAL!,
        apiBase: e.WECHATPAY_API_BASE.replace(/\/$/, ""),
      }
    : null;
  const alipay =
    e.ALIPAY_APP_ID && e.ALIPAY_PRIVATE_KEY && e.ALIPAY_PUBLIC_KEY
      ? {
          appId: e.ALIPAY_APP_ID,
          privateKey: readKeyText(e.ALIPAY_PRIVATE_KEY, "PRIVATE KEY"),
          publicKey: readKeyText(e.ALIPAY_PUBLIC_KEY, "PUBLIC KEY"),
          gateway: e.ALIPAY_GATEWAY,
          returnUrl: e.ALIPAY_RETURN_URL ?? null,
        }
      : null;
  const notifyBase = (e.PAYMENT_NOTIFY_BASE ?? e.PUBLIC_URL ?? null)?.replace(/\/$/, "") ?? null;
  // The sandbox is the default only where no real provider is set up and this is not a production
  // configuration: there anyone could "pay" and then spend or withdraw the coins, so it takes two settings.
  const production = isProductionConfiguration({
    NODE_ENV: (source.NODE_ENV ?? "production") as "production",
    DATABASE_URL: source.DATABASE_URL,
    ZELIN_EMBEDDED_DB: source.ZELIN_EMBEDDED_DB === "1",
  });
  if (production && e.PAYMENT_SANDBOX && !e.ALLOW_PAYMENT_SANDBOX)
    throw new Error(`Zelin cannot start: bad payment settings in the environment.\n  PAYMENT_SANDBOX: ${SANDBOX_REFUSED}`);
  const sandbox = e.PAYMENT_SANDBOX ?? (!wechat && !alipay && !production);
  return { notifyBase, sandbox, orderTtlMinutes: e.PAYMENT_ORDER_TTL_MINUTES, wechat, alipay };
}

let cached: TPaymentSettings | undefined;
export function getPaymentSettings(): TPaymentSettings {
  cached ??= parsePaymentSettings();
  return cached;
}

/** For tests that change the payment settings between cases. */
export function resetPaymentSettings() {
  cached = undefined;
}
