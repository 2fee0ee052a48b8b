// The sensitive-word list in force: the shipped default words, less those an
// administrator switched off, plus the administrators' own. Input with a hit is refused before any
// model call; output with a hit ends the stream with `censor` (the runtime uses createOutputCensor).
import { AppError } from "../errors/app-error";
import { createRefreshingCache } from "../lib/refreshing-cache";
import { findWordSettings, updateWordSettings, type TWordSettings } from "./content.repository";
import type { TSetSensitiveWordsInput } from "./content.schema";
import { getDefaultWords } from "./word-list-text";
import { createStreamCensor, WordMatcher } from "./word-matcher";

const KEY = "sensitive_words";
const REFRESH_MS = 5_000;
type TReading = { settings: TWordSettings; matcher: WordMatcher; signature: string };
let latest: TReading | undefined;

/** The words in force: the default words not switched off, then the administrators' own. */
export function listActiveWords(settings: TWordSettings): string[] {
  const off = new Set(settings.disabled);
  return [...getDefaultWords().flatMap((d) => (off.has(d.word) ? [] : [d.word])), ...settings.added];
}

// The lists are re-read every few seconds; the automaton is rebuilt only when they changed.
function toReading(settings: TWordSettings): TReading {
  const signature = JSON.stringify(settings);
  if (latest?.signature !== signature) latest = { settings, matcher: new WordMatcher(listActiveWords(settings)), signature };
  return latest;
}

/** Re-read in the background every few seconds, so every instance sees a change soon after it is made. */
const cache = createRefreshingCache<TReading>({
  maxAgeMs: REFRESH_MS,
  idleMs: 10 * 60_000,
  load: async () => toReading(await findWordSettings()),
});

/** A change this process made is in force here at once (other processes see it within REFRESH_MS). */
export function applyWordSettings(settings: TWordSettings) {
  cache.set(KEY, toReading(settings));
}

async function getMatcher() {
  return (await cache.get(KEY)).matcher;
}

/** The administrators' own words (the default list is not among them). */
export async function getSensitiveWords() {
  return (await cache.get(KEY)).settings.added;
}

/** Replaces the administrators' own words; the default list and the words switched off stay. */
export async function setSensitiveWords({ words }: TSetSensitiveWordsInput) {
  const unique = [...new Set(words)];
  const { settings } = await updateWordSettings((current) => ({ next: { ...current, added: unique }, result: null }));
  applyWordSettings(settings);
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
