// A bot as its owner creates and edits it (SPEC 3 Bot, SPEC 4 Bot states), shared by the console
// forms and the server: both refuse the same input with the same message key (keys under
// bots:validation, or the shared errors:validation ones) on the same field path.
import { z } from "zod";

export const BOT_CHANNELS = ["wechat", "wecom", "dingtalk", "feishu"] as const;
export type TBotChannel = (typeof BOT_CHANNELS)[number];
export const BOT_STATES = ["deploying", "to_be_associated", "online", "offline", "expired"] as const;
export type TBotState = (typeof BOT_STATES)[number];
export const GROUP_REPLY = ["mention", "all"] as const;
export const SCHEDULE_LOOPS = ["once", "daily", "weekly", "hours"] as const;
export type TScheduleLoop = (typeof SCHEDULE_LOOPS)[number];

/** The state detail of a bot whose owner asked to log in again, until a gateway takes it (and forgets the saved session). */
export const RELOGIN_DETAIL = "detail.relogin";

export const BOT_NAME_MAX = 29;
export const GREETING_MAX = 1000;
export const SCHEDULE_CONTENT_MAX = 2000;
export const SCHEDULE_TARGETS_MAX = 50;
export const SCHEDULES_PER_BOT_MAX = 50;

const text = (max: number, key = "validation.required") => z.string(key).trim().min(1, key).max(max, "validation.too_long");

/** Personal WeChat: nothing to fill in; the owner scans the login QR code the console shows. */
export const ZWechatCredentials = z.object({}).strip();
/** WeCom self-built app: the callback's token and EncodingAESKey, and the app's secret for replies. */
export const ZWecomCredentials = z.object({
  corp_id: text(64, "bots:validation.corp_id"),
  agent_id: z.string().trim().regex(/^\d{1,12}$/, "bots:validation.agent_id"),
  secret: text(128, "bots:validation.secret"),
  token: z.string().trim().regex(/^[A-Za-z0-9]{1,32}$/, "bots:validation.token"),
  encoding_aes_key: z.string().trim().regex(/^[A-Za-z0-9]{43}$/, "bots:validation.encoding_aes_key"),
});
/** DingTalk robot in stream mode: the app's Client ID and Secret; an AI card template streams replies. */
export const ZDingtalkCredentials = z.object({
  client_id: text(128, "bots:validation.client_id"),
  client_secret: text(256, "bots:validation.secret"),
  card_template_id: z.string().trim().max(128, "validation.too_long").default(""),
});
/** Feishu: a websocket long connection by default; a webhook checks the encrypt key and verification token. */
export const ZFeishuCredentials = z
  .object({
    /** Feishu app ids are "cli_" and 16 hex digits; the SDK's long connection silently ignores any other. */
    app_id: z.string("bots:validation.app_id").trim().regex(/^cli_[0-9a-f]{16}$/, "bots:validation.app_id"),
    app_secret: text(128, "bots:validation.secret"),
    mode: z.enum(["websocket", "webhook"], "bots:validation.feishu_mode").default("websocket"),
    encrypt_key: z.string().trim().max(128, "validation.too_long").default(""),
    verification_token: z.string().trim().max(128, "validation.too_long").default(""),
    /** Replies as a card updated while the agent streams. */
    stream_card: z.boolean().default(true),
  })
  .refine((c) => c.mode !== "webhook" || c.verification_token.length > 0, { message: "bots:validation.verification_token", path: ["verification_token"] });

export const CREDENTIAL_SCHEMAS = { wechat: ZWechatCredentials, wecom: ZWecomCredentials, dingtalk: ZDingtalkCredentials, feishu: ZFeishuCredentials } as const;
export type TBotCredentials<C extends TBotChannel = TBotChannel> = z.infer<(typeof CREDENTIAL_SCHEMAS)[C]>;

/** Credential fields that are secret: shown masked, and left unchanged when an edit sends them empty. */
export const SECRET_FIELDS: Record<TBotChannel, string[]> = { wechat: [], wecom: ["secret", "encoding_aes_key"], dingtalk: ["client_secret"], feishu: ["app_secret", "encrypt_key", "verification_token"] };

export const ZBotCreate = z.object({
  name: text(BOT_NAME_MAX, "bots:validation.name"),
  agent_id: z.string("bots:validation.agent").min(1, "bots:validation.agent").max(40),
  channel: z.enum(BOT_CHANNELS, "bots:validation.channel"),
  credentials: z.record(z.string(), z.unknown()).default({}),
  group_reply: z.enum(GROUP_REPLY).default("mention"),
  greeting: z.string().trim().max(GREETING_MAX, "validation.too_long").default(""),
});
export type TBotCreate = z.infer<typeof ZBotCreate>;

export const ZBotUpdate = z.object({
  bot_id: z.string().min(1).max(40),
  name: text(BOT_NAME_MAX, "bots:validation.name").optional(),
  credentials: z.record(z.string(), z.unknown()).optional(),
  group_reply: z.enum(GROUP_REPLY).optional(),
  greeting: z.string().trim().max(GREETING_MAX, "validation.too_long").optional(),
  enabled: z.boolean().optional(),
});
export type TBotUpdate = z.infer<typeof ZBotUpdate>;

export const ZTarget = z.object({ kind: z.enum(["contact", "group"], "bots:validation.target"), id: z.string().trim().min(1, "bots:validation.target").max(200), name: z.string().trim().max(100).default("") });

export const ZScheduleInput = z
  .object({
    bot_id: z.string().min(1).max(40),
    schedule_id: z.string().max(40).optional(),
    content: text(SCHEDULE_CONTENT_MAX, "bots:validation.schedule_content"),
    targets: z.array(ZTarget).min(1, "bots:validation.schedule_targets").max(SCHEDULE_TARGETS_MAX, "bots:validation.schedule_targets"),
    /** ISO time of the first send. */
    send_at: z.iso.datetime({ offset: true, message: "bots:validation.send_at" }),
    loop: z.enum(SCHEDULE_LOOPS, "bots:validation.loop").default("once"),
    every_hours: z.number().int("bots:validation.every_hours").min(1, "bots:validation.every_hours").max(720, "bots:validation.every_hours").nullable().default(null),
    /** The owner's clock, minutes east of UTC (the browser's), that daily and weekly times are read in. */
    utc_offset_minutes: z.number().int().min(-720).max(840).default(480),
    enabled: z.boolean().default(true),
  })
  .refine((s) => s.loop !== "hours" || s.every_hours !== null, { message: "bots:validation.every_hours", path: ["every_hours"] });
export type TScheduleInput = z.infer<typeof ZScheduleInput>;
