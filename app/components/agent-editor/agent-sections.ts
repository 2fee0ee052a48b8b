// The editor's folding sections: which section holds each form field, and which sections start
// open. Who the agent is, what it is told, which model answers and what it knows are the heart of
// an agent, so they are open; the rest opens when it already holds something, so a returning
// author sees every setting that is in effect without unfolding empty ones.
import type { TAgentFormValues } from "./agent-form-values";

export const SECTION_KEYS = ["basics", "prompt", "model", "variables", "training_sets", "abilities", "pricing", "versions"] as const;
export type TSectionKey = (typeof SECTION_KEYS)[number];

const ALWAYS_OPEN: TSectionKey[] = ["basics", "prompt", "model", "training_sets"];

const FIELDS: Record<Exclude<TSectionKey, "versions">, string[]> = {
  basics: ["name", "avatar_url", "introduction", "details", "version", "update_note", "original"],
  prompt: ["role_style", "prompt", "welcome_message", "out_of_scope_reply"],
  model: ["model_key", "model_version", "parameters"],
  variables: ["variables"],
  training_sets: ["training_set_ids"],
  abilities: ["plugins", "networking", "document_reading", "show_reasoning", "keep_context", "output_format"],
  pricing: ["sale_price", "use_price", "purchase_price", "trial_count"],
};

const SECTION_BY_FIELD = new Map(Object.entries(FIELDS).flatMap(([section, fields]) => fields.map((f) => [f, section as TSectionKey])));

/** The section of a form field name (["variables", 0, "name"] is in "variables"); null for none. */
export function sectionOfField(name: (string | number)[] | string): TSectionKey | null {
  const head = Array.isArray(name) ? name[0] : name;
  return SECTION_BY_FIELD.get(String(head)) ?? null;
}

/** The sections holding any of these fields, each once, in the editor's order. */
export function sectionsOfFields(names: (string | number)[][]): TSectionKey[] {
  const found = new Set(names.map(sectionOfField).filter((s): s is TSectionKey => s !== null));
  return SECTION_KEYS.filter((k) => found.has(k));
}

/** The sections open when the editor starts. */
export function startOpenSections(values: TAgentFormValues): TSectionKey[] {
  const holds: Partial<Record<TSectionKey, boolean>> = {
    variables: (values.variables ?? []).length > 0,
    abilities: (values.plugins ?? []).length > 0 || Boolean(values.networking) || Boolean(values.document_reading),
    pricing: [values.sale_price, values.use_price, values.purchase_price].some((p) => Number(p ?? 0) > 0),
  };
  return SECTION_KEYS.filter((k) => ALWAYS_OPEN.includes(k) || holds[k]);
}
