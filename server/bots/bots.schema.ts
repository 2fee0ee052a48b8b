// A bot as its owner creates and edits it, and the states it shows, shared by the console
// forms and the server: both refuse the same input with the same message key (keys under
// bots:validation, or the shared errors:validation ones) on the same field path.
import { z } from "zod";
import { EDITION_KEYS } from "../accounts/editions";

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
  agent_id: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/, "bots:validation.agent_id"),
  secret: text(128, "bots:validation.secret"),
  token: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{1,32}$/, "bots:validation.token"),
  encoding_aes_key: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{43}$/, "bots:validation.encoding_aes_key"),
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
    app_id: z
      .string("bots:validation.app_id")
      .trim()
      .regex(/^cli_[0-9a-f]{16}$/, "bots:validation.app_id"),
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
export const SECRET_FIELDS: Record<TBotChannel, string[]> = {
  wechat: [],
  wecom: ["secret", "encoding_aes_key"],
  dingtalk: ["client_secret"],
  feishu: ["app_secret", "encrypt_key", "verification_token"],
};

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

export const ZTarget = z.object({
  kind: z.enum(["contact", "group"], "bots:validation.target"),
  id: z.string().trim().min(1, "bots:validation.target").max(200),
  name: z.string().trim().max(100).default(""),
});

export const ZScheduleInput = z
  .object({
    bot_id: z.string().min(1).max(40),
    schedule_id: z.string().max(40).optional(),
    /** May be empty when a picture or video goes with it: the message is then the item alone. */
    content: z.string("bots:validation.schedule_content").trim().max(SCHEDULE_CONTENT_MAX, "validation.too_long").default(""),
    /** A picture or video of the bot owner's multimedia library sent after the text; null clears it, left out keeps it. */
    media_item_id: z.string().min(1).max(64).nullable().optional(),
    targets: z.array(ZTarget).min(1, "bots:validation.schedule_targets").max(SCHEDULE_TARGETS_MAX, "bots:validation.schedule_targets"),
    /** ISO time of the first send. */
    send_at: z.iso.datetime({ offset: true, message: "bots:validation.send_at" }),
    loop: z.enum(SCHEDULE_LOOPS, "bots:validation.loop").default("once"),
    every_hours: z
      .number()
      .int("bots:validation.every_hours")
      .min(1, "bots:validation.every_hours")
      .max(720, "bots:validation.every_hours")
      .nullable()
      .default(null),
    /** The owner's clock, minutes east of UTC (the browser's), that daily and weekly times are read in. */
    utc_offset_minutes: z.number().int().min(-720).max(840).default(480),
    enabled: z.boolean().default(true),
  })
  .refine((s) => s.loop !== "hours" || s.every_hours !== null, { message: "bots:validation.every_hours", path: ["every_hours"] })
  .refine((s) => s.content.length > 0 || Boolean(s.media_item_id), { message: "bots:validation.schedule_content_or_media", path: ["content"] });
export type TScheduleInput = z.infer<typeof ZScheduleInput>;

export const ZBotId = z.object({ bot_id: z.string().min(1).max(40) });
export const ZScheduleId = ZBotId.extend({ schedule_id: z.string().min(1).max(40) });
export const ZDeliveriesPage = ZBotId.extend({ before: z.iso.datetime({ offset: true }).optional(), take: z.number().int().min(1).max(100).optional() });

// --- What the procedures answer -------------------------------------------------------------

/** The package's price, the edition's bot limit (null: unlimited), how many bots the account has and what it can spend (the create form shows them). */
export const ZBotPackageQuote = z.object({
  edition: z.enum(EDITION_KEYS),
  price_year_micro: z.number(),
  package_days: z.number(),
  limit: z.number().nullable(),
  used: z.number(),
  balance_micro: z.number(),
});
export type TBotPackageQuote = z.infer<typeof ZBotPackageQuote>;

/** Shown before the owner confirms a deletion: until when it refunds, and how much; null when it refunds nothing. */
export const ZDeleteRefund = z.object({ until: z.string(), amount_micro: z.number() }).nullable();
export type TDeleteRefund = z.infer<typeof ZDeleteRefund>;

export const ZBotView = z.object({
  id: z.string(),
  app_id: z.string(),
  name: z.string(),
  channel: z.enum(BOT_CHANNELS),
  state: z.enum(BOT_STATES),
  state_detail: z.string().nullable(),
  state_changed_at: z.string(),
  login_qr: z.string().nullable(),
  login_name: z.string().nullable(),
  group_reply: z.enum(GROUP_REPLY),
  greeting: z.string(),
  enabled: z.boolean(),
  paid_until: z.string(),
  package_expired: z.boolean(),
  credentials_masked: z.record(z.string(), z.string()),
  /** Webhook platforms: the path the platform calls (the console puts the site's origin before it). */
  callback_path: z.string().nullable(),
  agent: z.object({ id: z.string(), name: z.string() }).nullable(),
  created_at: z.string(),
  unread_events: z.number(),
  /** What deleting it now gives back (never online, bought less than a day ago); null: nothing. */
  refund_on_delete: ZDeleteRefund,
});
export type TBotView = z.infer<typeof ZBotView>;

export const ZBotCreated = z.object({ bot_id: z.string(), app_id: z.string() });
export const ZBotDeleted = z.object({ refunded_micro: z.number() });
export type TBotDeleted = z.infer<typeof ZBotDeleted>;
/** A renewal: the package's end now, and whether this call paid for it (false: already extended). */
export const ZBotRenewal = z.object({ paid_until: z.string(), charged: z.boolean() });

const ZTargetRef = z.object({ kind: z.enum(["contact", "group"]), id: z.string(), name: z.string() });
/** The library item a schedule sends; null when it has none, or the item was deleted since. */
export const ZScheduleMedia = z.object({
  id: z.string(),
  kind: z.enum(["image", "video"]),
  name: z.string(),
  url: z.string(),
  thumbnail_url: z.string().nullable(),
});
export type TScheduleMedia = z.infer<typeof ZScheduleMedia>;
export const ZScheduleView = z.object({
  id: z.string(),
  content: z.string(),
  media: ZScheduleMedia.nullable(),
  targets: z.array(ZTargetRef),
  send_at: z.string(),
  loop: z.string(),
  every_hours: z.number().nullable(),
  utc_offset_minutes: z.number(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  enabled: z.boolean(),
});
export type TScheduleView = z.infer<typeof ZScheduleView>;

/** One message the bot sent or tried to send, scheduled or a greeting. */
export const ZDeliveryView = z.object({
  id: z.string(),
  kind: z.enum(["scheduled", "greeting"]),
  schedule_id: z.string().nullable(),
  target: ZTargetRef.extend({ name: z.string().optional() }),
  content: z.string(),
  /** The library item that went (or was to go) with the text. */
  media_item_id: z.string().nullable(),
  due_at: z.string(),
  state: z.enum(["sending", "sent", "failed"]),
  error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type TDeliveryView = z.infer<typeof ZDeliveryView>;
/** A delivery's note when its text went but its library item had been deleted in the meantime. */
export const DELIVERY_MEDIA_MISSING = "media_missing";

/** A chat the bot has heard from, which a scheduled message can go to. */
export const ZTargetView = ZTargetRef.extend({ last_message_at: z.string() });
export type TTargetView = z.infer<typeof ZTargetView>;

/** A notice to the owner (a failure, a renewal), with what it says in `detail`. */
export const ZBotEventView = z.object({
  id: z.string(),
  kind: z.string(),
  detail: z.record(z.string(), z.unknown()),
  read: z.boolean(),
  created_at: z.string(),
});
export type TBotEventView = z.infer<typeof ZBotEventView>;
