// An app and its paid plans as its owner edits them. Shared by the app form
// and the server: both refuse the same input with the same message key (keys under apps:validation,
// or the shared errors:validation ones) on the same field path.
import { z } from "zod";
import { MICRO } from "../accounts/editions";
import { ZVariable } from "../agents/agents.schema";
import { isListedVoice } from "../media/voices";
import { DEFAULT_PLACEMENT, ORIENTATIONS, ZPlacement } from "../digital/digital.schema";
import { ownVoiceIdOf } from "../digital/videos.schema";

export const APP_TYPES = ["h5", "api", "bot", "workshop", "digital_human"] as const;
export type TAppType = (typeof APP_TYPES)[number];
export const APP_STATES = ["under_review", "on_shelf", "off_shelf", "removed"] as const;
export type TAppState = (typeof APP_STATES)[number];
export const INPUT_MODES = ["text", "voice", "image"] as const;
export const OUTPUT_MODES = ["text", "voice", "image", "video"] as const;
export const MENU_REPLY_TYPES = ["picture_text", "link", "text"] as const;
export const APP_PLATFORMS = ["web", "wechat", "wecom", "dingtalk", "feishu", "api"] as const;
export const BOT_CHANNELS = ["wechat", "wecom", "dingtalk", "feishu"] as const;
/** Apps that run exactly one agent; the other types (workshop, digital_human) are not held to one. */
export const SINGLE_AGENT_TYPES: readonly TAppType[] = ["h5", "api", "bot"];

export const APP_NAME_MAX = 29; // "under 30 characters"
export const APP_INTRO_MAX_WORDS = 300;
export const MENU_TITLE_MAX = 12;
export const MAX_PLANS = 5;
export const MIN_PLAN_PRICE_MICRO = MICRO / 10; // 0.1 Z
export const SHARE_RATIO = { min: 10, max: 70 } as const;

/**
 * Words as an introduction's limit counts them: each CJK character is a word, and Latin text
 * counts its space-separated words.
 */
export function countWords(text: string): number {
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
  const cjkCount = (text.match(cjk) ?? []).length;
  const latin = text
    .replace(cjk, " ")
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return cjkCount + latin;
}

export const isHttpLink = (s: string) => /^https?:\/\/\S+$/i.test(s.trim());
/** A path whose browser-resolved form differs from its text ("/files/media/a/../b", "%2e%2e", "\\"). */
const hasDotSegments = (path: string) => path.includes("\\") || path.split("/").some((seg) => /^(\.|%2e){1,2}$/i.test(seg));
/** Images come from our upload service (/files/...) or, for seeds and imports, an http(s) URL. */
const isImageUrl = (s: string) => (s.startsWith("/files/") && !hasDotSegments(s)) || isHttpLink(s);

/** Where the multimedia library serves an account's pictures and videos (media.service keeps them under media/<account>/). */
export const MEDIA_FILES_PATH = "/files/media/";
/** One of this account's library files, as a path of this site: never another account's, never another origin. */
export function isOwnMediaPath(url: string, accountId: string): boolean {
  const prefix = `${MEDIA_FILES_PATH}${accountId}/`;
  return Boolean(accountId) && url.startsWith(prefix) && /^[\w.-]+(\/[\w.-]+)*$/.test(url.slice(prefix.length)) && !hasDotSegments(url);
}

const ZImageUrl = z.string().trim().max(500, "validation.too_long").refine(isImageUrl, "apps:validation.image_url");

export const ZMenuItem = z
  .object({
    title: z.string().trim().min(1, "apps:validation.menu_title").max(MENU_TITLE_MAX, "apps:validation.menu_title"),
    reply_type: z.enum(MENU_REPLY_TYPES, "apps:validation.menu_reply_type"),
    content: z.string().trim().min(1, "apps:validation.menu_content").max(2000, "validation.too_long"),
    image_url: ZImageUrl.optional(),
  })
  .refine((m) => m.reply_type !== "link" || isHttpLink(m.content), { message: "validation.link_scheme", path: ["content"] });

export const ZAppPlan = z
  .object({
    kind: z.enum(["days", "count"], "apps:validation.plan_kind"),
    quantity: z
      .number("apps:validation.plan_quantity")
      .int("apps:validation.plan_quantity")
      .min(1, "apps:validation.plan_quantity")
      .max(100_000, "apps:validation.plan_quantity"),
    price_micro: z
      .number("apps:validation.plan_price")
      .int("validation.price_integer")
      .min(MIN_PLAN_PRICE_MICRO, "apps:validation.plan_price")
      .max(1_000_000 * MICRO, "apps:validation.plan_price"),
    /** Uses per day under the plan; null is unlimited, which a per-count plan may not be. */
    daily_limit: z.number().int("apps:validation.plan_daily_limit").min(1, "apps:validation.plan_daily_limit").nullable().default(null),
  })
  .refine((p) => p.kind !== "count" || p.daily_limit !== null, { message: "apps:validation.plan_count_unlimited", path: ["daily_limit"] });

export const ZInputContent = z
  .object({ enabled: z.boolean().default(false), variables: z.array(ZVariable).max(20, "apps:validation.variables_max").default([]) })
  .refine((c) => !c.enabled || c.variables.length > 0, { message: "apps:validation.input_content_variables", path: ["variables"] })
  .refine((c) => !c.enabled || c.variables.length === 0 || c.variables.some((v) => v.required), {
    message: "apps:validation.input_content_required",
    path: ["variables"],
  })
  .refine((c) => new Set(c.variables.map((v) => v.name)).size === c.variables.length, { message: "validation.variable_duplicate", path: ["variables"] });

// Type-specific settings: typed enough to refuse nonsense, loose enough for settings a type adds later.
export const ZBotSettings = z.object({
  channel: z.enum(BOT_CHANNELS, "apps:validation.bot_channel"),
  greeting: z.string().max(1000, "validation.too_long").default(""),
});
/**
 * A workshop app publishes one of the owner's workshops at a version the server pins (on creation,
 * and again only when the owner syncs it by hand); a version named by the form is not taken.
 */
export const ZWorkshopSettings = z.object({
  workshop_id: z.string("apps:validation.workshop").trim().min(1, "apps:validation.workshop").max(40, "apps:validation.workshop"),
  version_id: z.string().max(40).optional(),
});
/**
 * A digital-human app's scene, as /CreateAppDigital edits it: the figure (a DigitalFigure of the
 * owner's), the voice (a listed announcer, or `own:<DigitalVoice id>`), where the figure stands and
 * what is behind it (a library item of the owner's, else the colour). The service checks the ids.
 */
export const ZDigitalHumanSettings = z.object({
  figure_id: z.string().trim().max(100).default(""),
  voice_id: z
    .string()
    .trim()
    .max(100)
    .refine((s) => s === "" || ownVoiceIdOf(s) !== null || isListedVoice(s), "apps:validation.speaker")
    .default(""),
  orientation: z.enum(ORIENTATIONS, "apps:validation.orientation").default("vertical"),
  placement: ZPlacement.default(DEFAULT_PLACEMENT),
  background_item_id: z.string().trim().min(1).max(64).optional(),
  background_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "digital:render.validation.color")
    .default("#ffffff"),
});
export type TDigitalHumanSettings = z.infer<typeof ZDigitalHumanSettings>;
const SETTINGS_SCHEMAS = {
  h5: z.object({}).default({}),
  api: z.object({}).default({}),
  bot: ZBotSettings,
  workshop: ZWorkshopSettings,
  digital_human: ZDigitalHumanSettings,
} as const;

export const ZAppFields = z.object({
  type: z.enum(APP_TYPES, "apps:validation.type"),
  name: z.string("apps:validation.name").trim().min(1, "apps:validation.name").max(APP_NAME_MAX, "apps:validation.name"),
  name_en: z.string().trim().max(60, "validation.too_long").default(""),
  icon_url: z
    .string("apps:validation.icon")
    .trim()
    .min(1, "apps:validation.icon")
    .max(500, "validation.too_long")
    .refine((s) => !s || isImageUrl(s), "apps:validation.image_url"),
  introduction: z
    .string("apps:validation.introduction")
    .trim()
    .min(1, "apps:validation.introduction")
    .max(5000, "apps:validation.introduction_words")
    .refine((s) => countWords(s) <= APP_INTRO_MAX_WORDS, "apps:validation.introduction_words"),
  introduction_en: z
    .string()
    .trim()
    .max(5000, "apps:validation.introduction_words")
    .refine((s) => countWords(s) <= APP_INTRO_MAX_WORDS, "apps:validation.introduction_words")
    .default(""),
  category_id: z.number("apps:validation.category").int("apps:validation.category").positive("apps:validation.category"),
  tags: z
    .array(z.string().trim().min(1, "apps:validation.tag").max(20, "apps:validation.tag"), "apps:validation.tags")
    .min(1, "apps:validation.tags")
    .max(10, "apps:validation.tags_max"),
  platform: z.enum(APP_PLATFORMS, "apps:validation.platform").default("web"),
  /** The agents an app runs; a workshop app's are its workshop's, filled in by the server. */
  agent_ids: z.array(z.string().min(1).max(40), "apps:validation.agents").max(20, "apps:validation.agents").default([]),
  style: z.enum(["conversation", "qa"], "apps:validation.style").default("conversation"),
  recommended_questions: z
    .array(z.string().trim().min(1, "validation.required").max(100, "validation.too_long"))
    .max(10, "apps:validation.questions_max")
    .default([]),
  menu_items: z.array(ZMenuItem).max(10, "apps:validation.menu_max").default([]),
  input_modes: z.array(z.enum(INPUT_MODES, "apps:validation.input_modes")).min(1, "apps:validation.input_modes").default(["text"]),
  output_modes: z.array(z.enum(OUTPUT_MODES, "apps:validation.output_modes")).default(["text"]),
  auto_play: z.boolean().default(false),
  /** An announcer from the voice list (server/media/voices.ts); empty speaks the default voice. */
  speaker: z
    .string()
    .trim()
    .refine((s) => s === "" || isListedVoice(s), "apps:validation.speaker")
    .default(""),
  background_url: ZImageUrl.nullable().default(null),
  welcome_messages: z.array(z.string().trim().min(1, "validation.required").max(500, "validation.too_long")).max(5, "apps:validation.welcome_max").default([]),
  mode: z.enum(["general", "sub_account"], "apps:validation.mode").default("general"),
  plans: z.array(ZAppPlan).max(MAX_PLANS, "apps:validation.plans_max").default([]),
  trial_days: z.number().int("apps:validation.trial_days").min(0, "apps:validation.trial_days").max(3650, "apps:validation.trial_days").default(0),
  free_per_day: z.number().int("apps:validation.free_per_day").min(0, "apps:validation.free_per_day").max(100_000, "apps:validation.free_per_day").default(0),
  share_ratio: z
    .number()
    .int("apps:validation.share_ratio")
    .min(SHARE_RATIO.min, "apps:validation.share_ratio")
    .max(SHARE_RATIO.max, "apps:validation.share_ratio")
    .default(SHARE_RATIO.min),
  is_public: z.boolean().default(true),
  in_app_centre: z.boolean().default(true),
  input_content: ZInputContent.default({ enabled: false, variables: [] }),
  settings: z.record(z.string(), z.unknown()).default({}),
});

/** The whole app input, with the rules that look at several fields at once. */
export const ZAppInput = ZAppFields.superRefine((a, ctx) => {
  const dup = (list: string[]) => new Set(list).size !== list.length;
  if (a.type !== "workshop" && a.agent_ids.length === 0) ctx.addIssue({ code: "custom", path: ["agent_ids"], message: "apps:validation.agents" });
  else if (SINGLE_AGENT_TYPES.includes(a.type) && a.agent_ids.length !== 1)
    ctx.addIssue({ code: "custom", path: ["agent_ids"], message: "apps:validation.agents_one" });
  if (dup(a.agent_ids)) ctx.addIssue({ code: "custom", path: ["agent_ids"], message: "apps:validation.agents" });
  if (dup(a.input_modes)) ctx.addIssue({ code: "custom", path: ["input_modes"], message: "apps:validation.input_modes" });
  if (dup(a.output_modes)) ctx.addIssue({ code: "custom", path: ["output_modes"], message: "apps:validation.output_modes" });
  if (dup(a.tags.map((t) => t.toLowerCase()))) ctx.addIssue({ code: "custom", path: ["tags"], message: "apps:validation.tags_duplicate" });
  const settings = SETTINGS_SCHEMAS[a.type].safeParse(a.settings);
  if (!settings.success)
    for (const issue of settings.error.issues) ctx.addIssue({ code: "custom", path: ["settings", ...issue.path.map(String)], message: issue.message });
});

export type TAppInput = z.infer<typeof ZAppInput>;
export type TAppPlanInput = z.infer<typeof ZAppPlan>;
export type TMenuItem = z.infer<typeof ZMenuItem>;
export type TInputContent = z.infer<typeof ZInputContent>;

/** The settings with their type's defaults filled in (what is stored). */
export function parseAppSettings(type: TAppType, settings: unknown): Record<string, unknown> {
  return SETTINGS_SCHEMAS[type].parse(settings ?? {}) as Record<string, unknown>;
}

export const ZAppId = z.object({ id: z.string().min(1).max(40) });
export const ZUpdateAppInput = z.object({ id: z.string().min(1).max(40), app: ZAppInput });
export const ZListAppsInput = z
  .object({ type: z.enum(APP_TYPES).optional(), state: z.enum(APP_STATES).optional(), deleted: z.boolean().default(false) })
  .default({ deleted: false });
export const ZRemoveAppInput = z.object({
  id: z.string().min(1).max(40),
  reason: z.string().trim().min(1, "validation.reject_reason").max(200, "validation.reject_reason"),
});

export type TAppIdInput = z.infer<typeof ZAppId>;
export type TUpdateAppInput = z.infer<typeof ZUpdateAppInput>;
export type TListAppsInput = z.infer<typeof ZListAppsInput>;
export type TRemoveAppInput = z.infer<typeof ZRemoveAppInput>;

// --- What the procedures answer -------------------------------------------------------------

export type TAppPlanView = { id: string; kind: "days" | "count"; quantity: number; price_micro: number; daily_limit: number | null };

/**
 * The form's value of a stored app, passed through as it is: ZAppInput's limits are for what an
 * owner submits, and apps made elsewhere (a bot's own app has no category or keywords) never met them.
 */
const ZStoredAppInput = z.custom<TAppInput>((v) => typeof v === "object" && v !== null);

/** What the owner's pages show of an app; also what the form edits (`input`). */
export const ZAppView = z.object({
  id: z.string(),
  type: z.enum(APP_TYPES),
  state: z.enum(APP_STATES),
  removed_reason: z.string().nullable(),
  /** Whether others can open it by its link now (app-review-policy.ts): on the shelf, or waiting under the "listing" policy. */
  link_open: z.boolean(),
  name: z.string(),
  icon_url: z.string(),
  introduction: z.string(),
  category_id: z.number().nullable(),
  agent_ids: z.array(z.string()),
  agent_names: z.array(z.string()),
  is_public: z.boolean(),
  in_app_centre: z.boolean(),
  free_per_day: z.number(),
  owner_account_id: z.string(),
  submitted_at: z.string(),
  reviewed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  input: ZStoredAppInput,
});
export type TAppView = z.infer<typeof ZAppView>;

/** A row of the administrators' review queue. */
export const ZAppReviewItem = ZAppView.extend({ owner: z.string() });
export type TAppReviewItem = z.infer<typeof ZAppReviewItem>;

/** A category the form offers, with its name in each language. */
export const ZAppCategory = z.object({ id: z.number(), slug: z.string(), names: z.record(z.string(), z.string()) });
export type TAppCategory = z.infer<typeof ZAppCategory>;
