// Model gateway input (models, channels and model parameters, with their limits), shared by
// the admin REST, later the builder forms and the chat runtime. Messages are i18n keys in
// public/locales/<lng>/errors.json, validation.*.
import { z } from "zod";
import { MODEL_KINDS } from "./model-kinds";
import { isWithinReadingWidth } from "../lib/text-width";

const REQUIRED = { error: "validation.required" };
const PARAM = "validation.model_parameter";

/** Upstreams that speak OpenAI chat completions over HTTP (their image and speech routes too). */
export const CHAT_CHANNEL_TYPES = ["openai", "deepseek", "qwen", "moonshot", "zhipu", "ollama", "vllm", "custom"] as const;
/**
 * Media providers with protocols of their own (server/media/providers): Kling, Aliyun DashScope, a
 * self-hosted Stable Diffusion WebUI or ComfyUI, HeyGen and a self-hosted HeyGem (lip-sync and avatars). They generate pictures, video and speech only; no
 * chat or embedding request is ever sent to them.
 */
export const MEDIA_CHANNEL_TYPES = ["kling", "dashscope", "sdwebui", "comfyui", "heygen", "heygem"] as const;
/** Upstream types an administrator (or an account, for its own keys) may create. */
export const CHANNEL_TYPES = [...CHAT_CHANNEL_TYPES, ...MEDIA_CHANNEL_TYPES] as const;
/** Plus the platform's in-process channel (knowledge/offline-channel.ts), made at start, never by a form. */
export const ALL_CHANNEL_TYPES = [...CHANNEL_TYPES, "offline"] as const;
export const CHANNEL_STATES = ["enabled", "disabled_manual", "disabled_auto"] as const;
export type TChannelType = (typeof ALL_CHANNEL_TYPES)[number];
export type TChannelState = (typeof CHANNEL_STATES)[number];
export type TMediaChannelType = (typeof MEDIA_CHANNEL_TYPES)[number];

/**
 * Self-hosted servers that may run without any authentication: an empty key means none is sent
 * (SD WebUI takes "user:password" for HTTP Basic, ComfyUI's proxy a bearer token).
 */
export const KEYLESS_CHANNEL_TYPES: readonly TChannelType[] = ["sdwebui", "comfyui", "heygem"];

/** Where each media provider's API usually lives: the form's placeholder, never a silent default. */
export const MEDIA_CHANNEL_BASE_URLS: Record<TMediaChannelType, string> = {
  kling: "https://api-beijing.klingai.com",
  dashscope: "https://dashscope.aliyuncs.com",
  sdwebui: "http://127.0.0.1:7860",
  comfyui: "http://127.0.0.1:8188",
  heygen: "https://api.heygen.com",
  heygem: "http://127.0.0.1:8383",
};

export function isMediaChannelType(type: string): type is TMediaChannelType {
  return (MEDIA_CHANNEL_TYPES as readonly string[]).includes(type);
}

/** Whether chat completions and embeddings may be sent to a channel of this type (the offline channel answers chat in-process). */
export function isChatChannelType(type: string) {
  return !isMediaChannelType(type);
}

/**
 * What is wrong with a channel's key for its type, as a validation message key, or null. Kling signs
 * its tokens with both halves of "accessKey:secretKey", so a key without them could never work.
 */
export function findChannelKeyIssue(type: string, key: string): string | null {
  if (!key) return KEYLESS_CHANNEL_TYPES.includes(type as TChannelType) ? null : "validation.required";
  if (type === "kling" && !hasBothKlingHalves(key)) return "validation.kling_key";
  return null;
}

function hasBothKlingHalves(key: string) {
  const at = key.indexOf(":");
  return at > 0 && key.slice(0, at).trim() !== "" && key.slice(at + 1).trim() !== "";
}

export const ZModelKey = z
  .string(REQUIRED)
  .trim()
  .min(1, "validation.required")
  .max(100, "validation.too_long")
  .regex(/^[A-Za-z0-9._/:-]+$/, "validation.model_key");

/** At most 8 characters in one reading (server/lib/text-width.ts). */
export const ZModelDisplayName = z
  .string(REQUIRED)
  .trim()
  .min(1, "validation.required")
  .refine((v) => isWithinReadingWidth(v, 8), "validation.model_display_name");

const ZPriceMicro = z.number().int(PARAM).min(0, PARAM).max(1_000_000_000, PARAM);

export const ZCreateModelInput = z.object({
  key: ZModelKey,
  display_name: ZModelDisplayName,
  kind: z.enum(MODEL_KINDS).default("text"),
  upstream_model: ZModelKey.optional(),
  context_window: z.number().int(PARAM).min(1, PARAM).max(10_000_000, PARAM).default(8192),
  input_price_micro: ZPriceMicro.default(0),
  output_price_micro: ZPriceMicro.default(0),
  /** Image models per picture, video models per second, voice models per 1000 characters (0: the platform's speech price). */
  unit_price_micro: ZPriceMicro.default(0),
  supports_tools: z.boolean().default(false),
  supports_reasoning: z.boolean().default(false),
  enabled: z.boolean().default(true),
});

export const ZUpdateModelInput = ZCreateModelInput.omit({ key: true })
  .partial()
  .extend({
    // Defaults of the create form must not overwrite stored values on a partial update.
    kind: z.enum(MODEL_KINDS).optional(),
    context_window: z.number().int(PARAM).min(1, PARAM).max(10_000_000, PARAM).optional(),
    input_price_micro: ZPriceMicro.optional(),
    output_price_micro: ZPriceMicro.optional(),
    unit_price_micro: ZPriceMicro.optional(),
    supports_tools: z.boolean().optional(),
    supports_reasoning: z.boolean().optional(),
    enabled: z.boolean().optional(),
  });

/** A channel's weight in its tier's random order: an integer 1-100. */
export const ZChannelWeight = z.number(REQUIRED).int("validation.channel_weight").min(1, "validation.channel_weight").max(100, "validation.channel_weight");

export const ZBaseUrl = z
  .string(REQUIRED)
  .trim()
  .regex(/^https?:\/\/[^\s]+$/, "validation.base_url")
  // Stored without the trailing slash so "{baseUrl}/chat/completions" never doubles it.
  .transform((v) => v.replace(/\/+$/, ""));

/** A channel's key as typed; whether it may be empty depends on the type (findChannelKeyIssue). */
export const ZChannelKey = z.string().trim().max(4000, "validation.too_long");

const ZChannelFields = z.object({
  name: z.string(REQUIRED).trim().min(1, "validation.required").max(60, "validation.too_long"),
  type: z.enum(CHANNEL_TYPES),
  base_url: ZBaseUrl,
  key: ZChannelKey.default(""),
  models: z.array(ZModelKey).min(1, "validation.required").max(200, "validation.too_long"),
  weight: ZChannelWeight.default(1),
  priority: z.number().int(PARAM).min(-1000, PARAM).max(1000, PARAM).default(0),
  owner_account_id: z.string().min(1).nullable().default(null),
});

function checkChannelKey(value: { type?: string; key?: string }, ctx: z.RefinementCtx) {
  if (value.type === undefined || value.key === undefined) return;
  const issue = findChannelKeyIssue(value.type, value.key);
  if (issue) ctx.addIssue({ code: "custom", path: ["key"], message: issue, input: value.key });
}

/** The fields alone, for forms that check one field at a time (the key's rule needs the type too). */
export const CHANNEL_FIELDS = ZChannelFields.shape;

export const ZCreateChannelInput = ZChannelFields.superRefine(checkChannelKey);

export const ZUpdateChannelInput = z.object({
  name: z.string().trim().min(1, "validation.required").max(60, "validation.too_long").optional(),
  type: z.enum(CHANNEL_TYPES).optional(),
  base_url: ZBaseUrl.optional(),
  /** Absent keeps the stored key: the admin never sees it again to send it back. */
  key: ZChannelKey.min(1, "validation.required").optional(),
  models: z.array(ZModelKey).min(1, "validation.required").max(200, "validation.too_long").optional(),
  weight: ZChannelWeight.optional(),
  priority: z.number().int(PARAM).min(-1000, PARAM).max(1000, PARAM).optional(),
});

/** Model parameters within their limits, in OpenAI's names as they go upstream. */
export const ZModelParameters = z.object({
  max_tokens: z.number().int(PARAM).min(1, PARAM).max(4096, PARAM).optional(),
  temperature: z.number().min(0, PARAM).max(2, PARAM).optional(),
  top_p: z.number().min(0, PARAM).max(1, PARAM).optional(),
  top_k: z.number().int(PARAM).min(1, PARAM).max(6, PARAM).optional(),
  presence_penalty: z.number().min(-2, PARAM).max(2, PARAM).optional(),
  frequency_penalty: z.number().min(-2, PARAM).max(2, PARAM).optional(),
  n: z.number().int(PARAM).min(1, PARAM).max(5, PARAM).optional(),
  stream: z.boolean().optional(),
  stop: z.union([z.string().max(200, PARAM), z.array(z.string().max(200, PARAM)).max(4, PARAM)]).optional(),
  logit_bias: z.record(z.string().regex(/^\d+$/, PARAM), z.number().min(-100, PARAM).max(100, PARAM)).optional(),
});

/** An account's own key (private key service, flagship and enterprise): the session names the owner, never the body. */
export const ZCreateOwnChannelInput = ZChannelFields.omit({ owner_account_id: true }).superRefine(checkChannelKey);

export type TCreateModelInput = z.infer<typeof ZCreateModelInput>;
export type TUpdateModelInput = z.infer<typeof ZUpdateModelInput>;
export type TCreateChannelInput = z.infer<typeof ZCreateChannelInput>;
export type TCreateOwnChannelInput = z.infer<typeof ZCreateOwnChannelInput>;
export type TUpdateChannelInput = z.infer<typeof ZUpdateChannelInput>;
export type TModelParameters = z.infer<typeof ZModelParameters>;

/** A chat message as OpenAI takes it; content and extra fields pass through untouched. */
export type TChatMessage = { role: "system" | "user" | "assistant" | "tool"; content: unknown; [extra: string]: unknown };

/** What an administrator sees of a channel: the key only by its last four characters. */
export type TChannelView = {
  id: string;
  name: string;
  type: TChannelType;
  base_url: string;
  key_hint: string;
  models: string[];
  weight: number;
  priority: number;
  state: TChannelState;
  disabled_reason: string | null;
  disabled_at: string | null;
  owner_account_id: string | null;
  created_at: string;
  updated_at: string;
};

/** The administrators' list adds how often the channel failed inside the auto-disable window. */
export type TAdminChannelView = TChannelView & { recent_failures: number };
