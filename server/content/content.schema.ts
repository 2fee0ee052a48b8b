// The sensitive-word list's inputs and answers, shared by the REST handlers and the admin screen.
import { z } from "zod";

export const SENSITIVE_WORD_MAX_CHARS = 50;
/** The administrators' own words, all told (the default list comes on top). */
export const CUSTOM_WORDS_MAX = 50_000;
/** An imported .txt file: one word a line. */
export const WORD_FILE_MAX_BYTES = 1024 * 1024;
export const WORD_STATUSES = ["all", "default", "custom", "disabled"] as const;

export const ZSensitiveWord = z.string().trim().min(1, "validation.required").max(SENSITIVE_WORD_MAX_CHARS, "validation.too_long");

/** Replaces the administrators' own words (the default list is left as it is). */
export const ZSetSensitiveWordsInput = z.object({
  words: z.array(ZSensitiveWord).max(CUSTOM_WORDS_MAX),
});
export type TSetSensitiveWordsInput = z.infer<typeof ZSetSensitiveWordsInput>;

/** From form-encoded clients `words` is text: a JSON array, or one word a line. */
function wordsFromText(value: unknown) {
  if (typeof value !== "string") return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed;
  } catch {
    // Not JSON: one word a line.
  }
  return value.split(/\r?\n/).filter((line) => line.trim());
}

/** Words to add, remove (a default word is switched off) or restore (a default word switched back on). */
export const ZSensitiveWordsInput = z.object({
  words: z.preprocess(wordsFromText, z.array(ZSensitiveWord).min(1, "validation.required").max(1000)),
});
export type TSensitiveWordsInput = z.infer<typeof ZSensitiveWordsInput>;

export const ZListSensitiveWordsInput = z.object({
  q: z.string().trim().max(SENSITIVE_WORD_MAX_CHARS, "validation.too_long").default(""),
  status: z.enum(WORD_STATUSES).catch("all"),
  page: z.coerce.number().int().min(1).catch(1),
  page_size: z.coerce.number().int().min(1).max(200).catch(50),
});
export type TListSensitiveWordsInput = z.infer<typeof ZListSensitiveWordsInput>;
export type TWordStatus = (typeof WORD_STATUSES)[number];

export type TSensitiveWordRow = { word: string; source: "default" | "custom"; category: string | null; enabled: boolean };
export type TSensitiveWordPage = {
  items: TSensitiveWordRow[];
  total: number;
  page: number;
  page_size: number;
  counts: { default: number; disabled: number; custom: number };
};
export type TWordsAdded = { added: number; skipped: number };
export type TWordsRemoved = { removed: number; skipped: number };
export type TWordsRestored = { restored: number; skipped: number };
