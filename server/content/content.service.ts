// The administrator-managed sensitive-word list (SPEC 5, 8): input with a hit is refused before any
// model call; output with a hit ends the stream with `censor` (the runtime uses createOutputCensor).
import { AppError } from "../errors/app-error";
import { createRefreshingCache } from "../lib/refreshing-cache";
import { findSetting, upsertSetting } from "../platform/platform.repository";
import { createStreamCensor, WordMatcher } from "./word-matcher";
import { ZSetSensitiveWordsInput } from "./content.schema";

const SETTING = "sensitive_words";
const REFRESH_MS = 5_000;
type TWords = { words: string[]; matcher: WordMatcher };
/** Re-read in the background every few seconds, so every instance sees a change soon after it is made. */
const cache = createRefreshingCache<TWords>({
  maxAgeMs: REFRESH_MS,
  idleMs: 10 * 60_000,
  load: async () => {
    const words = ((await findSetting(SETTING)) as string[] | null) ?? [];
    return { words, matcher: new WordMatcher(words) };
  },
});

async function getMatcher() {
  return (await cache.get(SETTING)).matcher;
}

export async function getSensitiveWords() {
  return (await cache.get(SETTING)).words;
}

export async function setSensitiveWords(raw: unknown) {
  const { words } = ZSetSensitiveWordsInput.parse(raw);
  const unique = [...new Set(words)];
  await upsertSetting(SETTING, unique);
  cache.set(SETTING, { words: unique, matcher: new WordMatcher(unique) });
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
