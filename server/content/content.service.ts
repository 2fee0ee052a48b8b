// The administrator-managed sensitive-word list (SPEC 5, 8): input with a hit is refused before any
// model call; output with a hit ends the stream with `censor` (the runtime uses createOutputCensor).
import { AppError } from "../errors/app-error";
import { findSetting, upsertSetting } from "../platform/platform.repository";
import { createStreamCensor, WordMatcher } from "./word-matcher";
import { ZSetSensitiveWordsInput } from "./content.schema";

const SETTING = "sensitive_words";
const REFRESH_MS = 5_000;
let cached: { at: number; words: string[]; matcher: WordMatcher } | undefined;

/** Re-read at most every few seconds, so every instance sees a change soon after it is made. */
async function getMatcher(now = Date.now()) {
  if (!cached || now - cached.at > REFRESH_MS) {
    const words = ((await findSetting(SETTING)) as string[] | null) ?? [];
    cached = { at: now, words, matcher: new WordMatcher(words) };
  }
  return cached.matcher;
}

export async function getSensitiveWords() {
  await getMatcher();
  return cached!.words;
}

export async function setSensitiveWords(raw: unknown) {
  const { words } = ZSetSensitiveWordsInput.parse(raw);
  const unique = [...new Set(words)];
  await upsertSetting(SETTING, unique);
  cached = { at: Date.now(), words: unique, matcher: new WordMatcher(unique) };
  return { count: unique.length };
}

export async function findSensitiveWords(text: string) {
  return (await getMatcher()).find(text);
}

/** Refuses input with a listed word; the words found are not echoed back to the user. */
export async function assertNoSensitiveInput(text: string) {
  if ((await findSensitiveWords(text)).length) throw new AppError("sensitive_input");
}

export async function createOutputCensor() {
  return createStreamCensor(await getMatcher());
}
