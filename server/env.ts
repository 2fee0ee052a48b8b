// Settings come from the environment, parsed once per process at boot. A bad value stops the
// process with a sentence naming the setting, instead of failing later in some request.
import os from "node:os";
import path from "node:path";
import { z } from "zod";

const ZBool = z.enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""]).transform((v) => ["1", "true", "yes", "on"].includes(v));

const WEB_CONCURRENCY_RULE = 'must be a whole number from 1 to 64, or "auto"';
const KEEP_ALIVE_RULE = "must be whole milliseconds from 1000 to 3600000";

export const MARKETS = ["zelinai", "zelinai_hk", "zelinai_global"] as const;

export const ZEnv = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    // Web worker processes sharing PORT (server/web-cluster.ts): a number, or "auto" for one per CPU.
    WEB_CONCURRENCY: z
      .union([z.literal("auto"), z.coerce.number().int().min(1, WEB_CONCURRENCY_RULE).max(64, WEB_CONCURRENCY_RULE)], { message: WEB_CONCURRENCY_RULE })
      .default(1),
    // How long the web keeps a client's idle keep-alive connection (server/http/keep-alive.ts): past a
    // load balancer's own idle timeout (60 s on most), and across the pauses of a chat.
    HTTP_KEEP_ALIVE_MS: z.coerce
      .number({ message: KEEP_ALIVE_RULE })
      .int(KEEP_ALIVE_RULE)
      .min(1000, KEEP_ALIVE_RULE)
      .max(3_600_000, KEEP_ALIVE_RULE)
      .default(65_000),
    DATA_DIR: z.string().default(".data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
      .optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
      .optional(),
    MARKET: z.enum(MARKETS).default("zelinai"),
    OWN_HOSTS: z
      .string()
      .default("localhost,127.0.0.1")
      .transform((s) =>
        s
          .split(",")
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      ),
    PUBLIC_DOMAIN: z.string().default("zelinai.com"),
    PAY_ENABLE: ZBool.default(true),
    APP_AUDIO_ENABLE: ZBool.default(true),
    PRIVATE_DEPLOYMENT: ZBool.default(false),
    INTELLIGENT_AGENT_MARKET: ZBool.default(true),
    LICENCE_FILE: z.string().optional(),
    LICENCE_PUBLIC_KEY: z.string().optional(),
    LICENCE_TIMEZONE: z.string().default("Asia/Shanghai"),
    CONTACT_PHONE: z.string().default("400-820-1024"),
    ADMIN_API_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    REGISTRATION_MODE: z.enum(["open", "invitation", "paid", "closed"]).default("open"),
    STRICT_PASSWORD: ZBool.default(false),
    // Unset: the development provider where it may run (see mayUseDevSms), otherwise none (no codes are sent).
    SMS_PROVIDER: z.enum(["dev", "aliyun"]).optional(),
    // Lets the development SMS provider run on a production configuration (codes in the log and on /dev/sms for administrators).
    ALLOW_DEV_SMS: ZBool.default(false),
    // Whether an app's own link (share page, H5 chat, its plans) works before an administrator's review:
    // "listing" lets it, and review gates only the market listing; "review_first" serves nobody but the
    // owner until approved. Unset: "listing" on the embedded install, "review_first" on a production
    // configuration (appReviewPolicy; docs/decisions/0023-app-review-policy.md).
    APP_REVIEW_POLICY: z
      .enum(["listing", "review_first"], {
        message: 'must be "listing" (review gates only the market listing) or "review_first" (nothing is served before review)',
      })
      .optional(),
    // Set by `npm start` for its processes when it hosts the embedded database (server/supervisor.ts).
    ZELIN_EMBEDDED_DB: ZBool.default(false),
    // Aliyun Dysmsapi, used when SMS_PROVIDER=aliyun (server/auth/sms/aliyun-sms-provider.ts).
    ALIYUN_SMS_ACCESS_KEY_ID: z.string().optional(),
    ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().optional(),
    ALIYUN_SMS_SIGN_NAME: z.string().optional(),
    ALIYUN_SMS_TEMPLATE_CODE: z.string().optional(),
    ALIYUN_SMS_REGION: z.string().default("cn-hangzhou"),
    ALIYUN_SMS_ENDPOINT: z
      .string()
      .regex(/^https?:\/\//, "must be an http(s):// URL")
      .default("https://dysmsapi.aliyuncs.com"),
    // WeChat Open Platform website login (server/auth/wechat); off unless both id and secret are set.
    WECHAT_APP_ID: z.string().optional(),
    WECHAT_APP_SECRET: z.string().optional(),
    WECHAT_OPEN_BASE: z
      .string()
      .regex(/^https?:\/\//, "must be an http(s):// URL")
      .default("https://open.weixin.qq.com"),
    WECHAT_API_BASE: z
      .string()
      .regex(/^https?:\/\//, "must be an http(s):// URL")
      .default("https://api.weixin.qq.com"),
    PUBLIC_URL: z
      .string()
      .regex(/^https?:\/\/[^/]+\/?$/, "must be an origin like https://zelinai.com")
      .optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    QUEUE_PREFIX: z.string().default("zelin"),
    // Model gateway (server/models/gateway.service.ts): a channel with this many failures inside the
    // window is disabled automatically; one slow upstream must not hold a chat for minutes.
    CHANNEL_FAILURE_THRESHOLD: z.coerce.number().int().min(1).default(5),
    CHANNEL_FAILURE_WINDOW_MS: z.coerce.number().int().min(1000).default(300_000),
    MODEL_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
    // Chat runtime: the networking switch searches through a SearXNG-compatible JSON API
    // (`<url>?q=...&format=json`); without it web search answers that search is not configured.
    SEARCH_API_URL: z
      .string()
      .regex(/^https?:\/\//, "must be an http(s):// URL")
      .optional(),
    // Generation jobs (server/media/media-job-runner.ts): how many of one account's jobs run at
    // providers at once (the fair queue holds the rest), the first pause between polls of a task,
    // how often the sweep looks for lost polls and jobs past their deadline, and how many job steps
    // one worker runs at once (a blocking provider such as SD WebUI holds one for its whole run).
    MEDIA_JOBS_PER_ACCOUNT: z.coerce.number().int().min(1).default(2),
    MEDIA_POLL_BASE_MS: z.coerce.number().int().min(50).default(2000),
    MEDIA_SWEEP_MS: z.coerce.number().int().min(200).default(15_000),
    MEDIA_WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(4),
    // Workshop runs (server/workshops/run-jobs.ts): how often runs whose worker died are handed
    // to a live one, and how many runs one worker carries at once.
    WORKSHOP_SWEEP_MS: z.coerce.number().int().min(200).default(30_000),
    WORKSHOP_WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(8),
    // How long a worker's hold on a run lasts unrenewed: a dead worker's runs are taken over after it.
    WORKSHOP_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
    // Uploaded files (server/uploads/file-store.ts): in DATA_DIR/files unless S3_BUCKET names an
    // S3-compatible bucket (AWS S3, MinIO, Aliyun OSS, Tencent COS...), which then needs both keys.
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)")
      .optional(),
    S3_ENDPOINT: z
      .string()
      .regex(/^https?:\/\/[^/]+\/?$/, "must be an origin like https://s3.example.com")
      .optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: ZBool.default(false),
    // Media work in the worker (workers/media/ffmpeg-path.ts): the ffmpeg and ffprobe programs (unset:
    // Debian's in /usr/bin when present, else the npm package's ffmpeg, probing through `ffmpeg -i`),
    // and how many ffmpeg processes one worker runs at once (each uses every core it is given).
    FFMPEG_PATH: z.string().optional(),
    FFPROBE_PATH: z.string().optional(),
    MEDIA_FFMPEG_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
    // Bot gateway (bot-gateway/): the platforms' API addresses (tests point them at loopback fakes),
    // the personal-WeChat puppet, and how long a gateway instance holds a bot without renewing.
    WECOM_API_BASE: z
      .string()
      .regex(/^https?:\/\//, "must be an http(s):// URL")
      .default("https://qyapi.weixin.qq.com"),
    DINGTALK_API_BASE: z
      .string()
      .regex(/^https?:\/\//, "must be an http(s):// URL")
      .default("https://api.dingtalk.com"),
    // DingTalk's older API host: media upload (a picture a robot sends) lives only there.
    DINGTALK_OAPI_BASE: z
      .string()
      .regex(/^https?:\/\//, "must be an http(s):// URL")
      .default("https://oapi.dingtalk.com"),
    FEISHU_DOMAIN: z
      .string()
      .regex(/^https?:\/\//, "must be an http(s):// URL")
      .default("https://open.feishu.cn"),
    WECHATY_PUPPET: z.string().default("wechaty-puppet-wechat4u"),
    WECHATY_PUPPET_TOKEN: z.string().optional(),
    // With WECHATY_PUPPET=wechaty-puppet-mock: each bot shows a login QR when it starts, and
    // fetching the QR's loopback URL logs it in (bot-gateway/channels/wechat/mock-puppet.ts).
    WECHATY_MOCK_AUTO_SCAN: ZBool.default(false),
    BOT_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
    BOT_SCAN_MS: z.coerce.number().int().min(100).default(5_000),
    BOT_TICK_MS: z.coerce.number().int().min(100).default(1_000),
  })
  .superRefine((env, ctx) => {
    if (env.SMS_PROVIDER === "dev" && !mayUseDevSms(env)) {
      ctx.addIssue({ code: "custom", path: ["SMS_PROVIDER"], message: DEV_SMS_REFUSED });
    }
    if (!env.S3_BUCKET) return;
    for (const name of ["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when S3_BUCKET is set" });
    }
  });

export type TEnv = z.infer<typeof ZEnv>;

const DEV_SMS_REFUSED =
  "is dev, whose codes go to the server log and never to a phone, on a production configuration (NODE_ENV=production with a DATABASE_URL); set SMS_PROVIDER=aliyun, or ALLOW_DEV_SMS=1 to keep the development provider on purpose";

/**
 * A production configuration: built for production and on a database server of its own. `npm start`
 * on the embedded database (the demo) and development or test runs are not.
 */
export function isProductionConfiguration(env: Pick<TEnv, "NODE_ENV" | "DATABASE_URL" | "ZELIN_EMBEDDED_DB">) {
  return env.NODE_ENV === "production" && Boolean(env.DATABASE_URL) && !env.ZELIN_EMBEDDED_DB;
}

/** The development SMS provider never runs on a production configuration unless ALLOW_DEV_SMS says so. */
export function mayUseDevSms(env: Pick<TEnv, "NODE_ENV" | "DATABASE_URL" | "ZELIN_EMBEDDED_DB" | "ALLOW_DEV_SMS">) {
  return env.ALLOW_DEV_SMS || !isProductionConfiguration(env);
}

export type TAppReviewPolicy = "listing" | "review_first";

/** The app review policy in force: the setting, else "review_first" on a production configuration and "listing" elsewhere. */
export function appReviewPolicy(env: Pick<TEnv, "APP_REVIEW_POLICY" | "NODE_ENV" | "DATABASE_URL" | "ZELIN_EMBEDDED_DB"> = getEnv()): TAppReviewPolicy {
  return env.APP_REVIEW_POLICY ?? (isProductionConfiguration(env) ? "review_first" : "listing");
}

export function parseEnv(source: Record<string, string | undefined> = process.env): TEnv {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = ZEnv.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message} (got ${JSON.stringify(cleaned[String(i.path[0])])})`);
    throw new Error(`Zelin cannot start: bad settings in the environment.\n${lines.join("\n")}\nSee docs/configuration.md.`);
  }
  const env = result.data;
  return { ...env, DATA_DIR: path.resolve(env.DATA_DIR) };
}

/** How many web workers to run: WEB_CONCURRENCY, with "auto" meaning one per CPU. */
export function webWorkerCount(env: Pick<TEnv, "WEB_CONCURRENCY">) {
  return env.WEB_CONCURRENCY === "auto" ? os.availableParallelism() : env.WEB_CONCURRENCY;
}

let cached: TEnv | undefined;
export function getEnv(): TEnv {
  cached ??= parseEnv();
  return cached;
}

/** For tests that change settings between cases. */
export function resetEnvCache() {
  cached = undefined;
}
