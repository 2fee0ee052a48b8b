// The agent as its builder edits it: its fields and variables, their lengths, the model parameters' ranges.
// Shared by the editor and the server: both refuse the same input with the same message key.
import { z } from "zod";
import { isWithinReadingWidth } from "../lib/text-width";
import { MICRO } from "../accounts/editions";

export const MAX_PLUGINS = 3;
/**
 * Built-in plugins, offered to the model as OpenAI tools (the runtime implements each). Web search
 * is the separate "networking" switch, so it does not take one of the three plugin places.
 */
export const AGENT_PLUGINS = ["web_reader", "html_interpreter", "python_interpreter", "current_time"] as const;
export type TAgentPlugin = (typeof AGENT_PLUGINS)[number];
export const MIN_PRICE_MICRO = MICRO / 10; // 0.1 yuan

/** Prices are entered in yuan and kept as integer micro-Z. */
const ZPriceMicro = z
  .number()
  .int("validation.price_integer")
  .refine((n) => n === 0 || n >= MIN_PRICE_MICRO, "validation.price_minimum");

export const ZVariable = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "validation.variable_name")
      .max(20, "validation.variable_name")
      .regex(/^[\p{L}\p{N}_]+$/u, "validation.variable_name"),
    prompt: z.string().trim().max(100, "validation.too_long").default(""),
    required: z.boolean().default(false),
    type: z.enum(["fill", "select"]),
    options: z.array(z.string().trim().min(1).max(50)).max(50).default([]),
    default: z.string().max(500).default(""),
    range: z.object({ min: z.number().int().min(0), max: z.number().int().min(1) }).optional(),
    associated: z.array(z.string()).max(10).default([]),
  })
  .refine((v) => v.type !== "select" || v.options.length > 0, { message: "validation.select_needs_options", path: ["options"] })
  .refine((v) => v.type !== "select" || !v.default || v.options.includes(v.default), { message: "validation.default_not_in_options", path: ["default"] })
  .refine((v) => !v.range || v.range.min <= v.range.max, { message: "validation.range_order", path: ["range"] });

/** The builder's parameter set: the ranges below with defaults; the gateway takes it as TModelParameters. */
export const ZAgentParameters = z.object({
  max_tokens: z.number().int().min(1, "validation.max_tokens").max(4096, "validation.max_tokens").default(1024),
  temperature: z.number().min(0, "validation.temperature").max(2, "validation.temperature").default(0.7),
  top_p: z.number().min(0, "validation.top_p").max(1, "validation.top_p").default(1),
  top_k: z.number().int().min(1, "validation.top_k").max(6, "validation.top_k").optional(),
  presence_penalty: z.number().min(-2, "validation.penalty").max(2, "validation.penalty").default(0),
  frequency_penalty: z.number().min(-2, "validation.penalty").max(2, "validation.penalty").default(0),
  n: z.number().int().min(1, "validation.n").max(5, "validation.n").default(1),
  stream: z.boolean().default(true),
  stop: z.array(z.string().min(1).max(32)).max(4).default([]),
  logit_bias: z
    .record(z.string().regex(/^\d+$/, "validation.logit_bias"), z.number().min(-100, "validation.logit_bias").max(100, "validation.logit_bias"))
    .default({}),
});

export const ZAgentInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "validation.required")
      .refine((n) => isWithinReadingWidth(n, 8), "validation.agent_name_length"),
    avatar_url: z.string().max(500).optional(),
    introduction: z.string().trim().min(1, "validation.required").max(300, "validation.too_long"),
    details: z.string().max(5000, "validation.too_long").default(""),
    version: z
      .string()
      .regex(/^\d+\.\d+(\.\d+)?$/, "validation.version")
      .default("1.0.0"),
    model_key: z.string().min(1, "validation.required"),
    model_version: z.string().max(50).default(""),
    original: z.boolean().default(true),
    update_note: z.string().max(500, "validation.too_long").default(""),
    role_style: z.string().max(2000, "validation.too_long").default(""),
    prompt: z.string().max(20_000, "validation.too_long").default(""),
    variables: z.array(ZVariable).max(20).default([]),
    welcome_message: z.string().max(1000, "validation.too_long").default(""),
    out_of_scope_reply: z.string().max(1000, "validation.too_long").default(""),
    training_set_ids: z.array(z.string()).max(20).default([]),
    plugins: z.array(z.enum(AGENT_PLUGINS, "validation.plugin_unknown")).max(MAX_PLUGINS, "validation.plugins_max").default([]),
    networking: z.boolean().default(false),
    output_format: z.enum(["text", "markdown", "json"]).default("markdown"),
    keep_context: z.number().int().min(0).max(50).default(10),
    document_reading: z.boolean().default(false),
    show_reasoning: z.boolean().default(true),
    sale_price_micro: ZPriceMicro.default(0),
    trial_count: z.number().int().min(0, "validation.trial_count").default(0),
    use_price_micro: ZPriceMicro.default(0),
    purchase_price_micro: ZPriceMicro.default(0),
    parameters: ZAgentParameters.default(ZAgentParameters.parse({})),
  })
  .refine((a) => new Set(a.variables.map((v) => v.name)).size === a.variables.length, { message: "validation.variable_duplicate", path: ["variables"] })
  .refine((a) => new Set(a.plugins).size === a.plugins.length, { message: "validation.plugin_duplicate", path: ["plugins"] });

export type TAgentInput = z.infer<typeof ZAgentInput>;
export type TVariable = z.infer<typeof ZVariable>;
export type TAgentParameters = z.infer<typeof ZAgentParameters>;

/** Orders "1.2.10" after "1.2.9": numbers compared part by part, missing parts as 0. */
export function compareVersions(a: string, b: string) {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

export const ZAgentId = z.object({ id: z.string().min(1).max(40) });
/** Which version goes to the market's review: the draft, or the published one as it is (unnamed: the draft if any). */
export const ZSubmitAgentInput = ZAgentId.extend({ source: z.enum(["draft", "published"], "validation.submit_source").optional() });
export const ZSaveAgentDraftInput = z.object({ id: z.string().min(1).max(40), agent: ZAgentInput });
export const ZReorderAgentsInput = z.object({ ids: z.array(z.string().min(1).max(40)).min(1).max(500) });
export const ZReviewDecisionInput = z.object({
  versionId: z.string().min(1).max(40),
  reason: z.string().trim().max(200, "validation.reject_reason").optional(),
});
/** Refusing or taking down a version says why: the owner reads it. */
export const ZReviewRefusalInput = ZReviewDecisionInput.extend({
  reason: z.string().trim().min(1, "validation.reject_reason").max(200, "validation.reject_reason"),
});

export type TAgentIdInput = z.infer<typeof ZAgentId>;
export type TSubmitAgentInput = z.infer<typeof ZSubmitAgentInput>;
export type TSaveAgentDraftInput = z.infer<typeof ZSaveAgentDraftInput>;
export type TReorderAgentsInput = z.infer<typeof ZReorderAgentsInput>;
export type TReviewDecisionInput = z.infer<typeof ZReviewDecisionInput>;

// --- What the procedures answer -------------------------------------------------------------

/** What lists and the editor show of one version. */
export const ZAgentVersionView = z.object({
  id: z.string(),
  version: z.string(),
  state: z.string(),
  update_note: z.string(),
  removed_reason: z.string().nullable(),
  submitted_at: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  published_at: z.string().nullable(),
  created_at: z.string(),
});
export type TAgentVersionView = z.infer<typeof ZAgentVersionView>;

export const ZAgentSummary = z.object({
  id: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  sort_order: z.number(),
  invalid_reason: z.string().nullable(),
  /** The version users chat with (published, on shelf or invalid), if any. */
  live: ZAgentVersionView.nullable(),
  draft: ZAgentVersionView.nullable(),
  under_review: ZAgentVersionView.nullable(),
  /** The newest removal, so the owner sees why. */
  removed: ZAgentVersionView.nullable(),
  updated_at: z.string(),
});
export type TAgentSummary = z.infer<typeof ZAgentSummary>;

export const ZAgentDetail = ZAgentSummary.extend({
  /** What the editor opens: the draft, else the version under review, else the live one. */
  config: ZAgentInput,
  /** Which version `config` came from, and whether saving it edits that version or makes a new draft. */
  config_version_id: z.string(),
  config_editable: z.boolean(),
  versions: z.array(ZAgentVersionView),
});
export type TAgentDetail = z.infer<typeof ZAgentDetail>;

/** What the editor offers: chat models (with whether they call tools) and the plugins. */
export const ZAgentOptions = z.object({
  models: z.array(z.object({ key: z.string(), display_name: z.string(), kind: z.string(), supports_tools: z.boolean(), supports_reasoning: z.boolean() })),
  plugins: z.array(z.enum(AGENT_PLUGINS)),
});

export const ZUpdateLogEntry = z.object({ version: z.string(), update_note: z.string(), published_at: z.string() });
export type TUpdateLogEntry = z.infer<typeof ZUpdateLogEntry>;
export const ZUpdateLog = z.object({ name: z.string(), entries: z.array(ZUpdateLogEntry) });
export type TUpdateLog = z.infer<typeof ZUpdateLog>;

/** A version waiting for the reviewers, with its agent, its owner and the configuration to judge. */
export const ZAgentReviewItem = ZAgentVersionView.extend({
  agent_id: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  owner: z.string(),
  config: ZAgentInput,
});
export type TAgentReviewItem = z.infer<typeof ZAgentReviewItem>;
