// Platform administrators' work on the sensitive-word list: list and search it, add words, remove
// them (a default word is switched off, never deleted: it can be restored), and import a .txt file.
// Two words are the same word when they normalise alike ("賭博" and "赌博", "Casino" and "casino").
import { AppError } from "../errors/app-error";
import { decodeText, sniffType } from "../uploads/sniff";
import { findWordSettings, updateWordSettings, type TWordSettings } from "./content.repository";
import { applyWordSettings } from "./content.service";
import {
  CUSTOM_WORDS_MAX,
  SENSITIVE_WORD_MAX_CHARS,
  type TListSensitiveWordsInput,
  type TSensitiveWordPage,
  type TSensitiveWordRow,
  type TWordsAdded,
  type TWordsRemoved,
  type TWordsRestored,
} from "./content.schema";
import { getDefaultWords, parseWordList } from "./word-list-text";
import { normalizeForMatching } from "./word-matcher";

const keyOf = normalizeForMatching;

function toRows(settings: TWordSettings): TSensitiveWordRow[] {
  const off = new Set(settings.disabled);
  return [
    ...settings.added.map((word) => ({ word, source: "custom" as const, category: null, enabled: true })),
    ...getDefaultWords().map((d) => ({ word: d.word, source: "default" as const, category: d.category, enabled: !off.has(d.word) })),
  ];
}

const STATUS_TEST: Record<TListSensitiveWordsInput["status"], (r: TSensitiveWordRow) => boolean> = {
  all: () => true,
  default: (r) => r.source === "default" && r.enabled,
  custom: (r) => r.source === "custom",
  disabled: (r) => !r.enabled,
};

/** Read from the database, not the chat's cache: the screen shows what was just saved. */
export async function listSensitiveWords(input: TListSensitiveWordsInput): Promise<TSensitiveWordPage> {
  const rows = toRows(await findWordSettings());
  const q = keyOf(input.q);
  const found = rows.filter((r) => STATUS_TEST[input.status](r) && (!q || keyOf(r.word).includes(q)));
  const start = (input.page - 1) * input.page_size;
  return {
    items: found.slice(start, start + input.page_size),
    total: found.length,
    page: input.page,
    page_size: input.page_size,
    counts: {
      default: rows.filter(STATUS_TEST.default).length,
      disabled: rows.filter(STATUS_TEST.disabled).length,
      custom: rows.filter(STATUS_TEST.custom).length,
    },
  };
}

/** The words not yet in force are added (a default word switched off is switched back on); the rest are skipped. */
function addWords(current: TWordSettings, words: string[]) {
  const defaults = new Map(getDefaultWords().map((d) => [keyOf(d.word), d.word]));
  const off = new Set(current.disabled);
  const inForce = new Set([...current.added.map(keyOf), ...[...defaults].filter(([, word]) => !off.has(word)).map(([key]) => key)]);
  const next = { added: [...current.added], disabled: [...current.disabled] };
  let added = 0;
  for (const word of words) {
    const key = keyOf(word);
    if (!key || inForce.has(key)) continue;
    inForce.add(key);
    added++;
    const dormant = defaults.get(key);
    if (dormant !== undefined && off.has(dormant)) next.disabled = next.disabled.filter((w) => w !== dormant);
    else next.added.push(word);
  }
  if (next.added.length > CUSTOM_WORDS_MAX) throw new AppError("sensitive_words_too_many", { params: { max: CUSTOM_WORDS_MAX } });
  return { next, result: { added, skipped: words.length - added } };
}

export async function addSensitiveWords(words: string[]): Promise<TWordsAdded> {
  const { settings, result } = await updateWordSettings((current) => addWords(current, words));
  applyWordSettings(settings);
  return result;
}

/** An administrator's word is deleted; a default word is switched off. Words not in force are skipped. */
export async function removeSensitiveWords(words: string[]): Promise<TWordsRemoved> {
  const { settings, result } = await updateWordSettings((current) => {
    const off = new Set(current.disabled);
    const next = { added: [...current.added], disabled: [...current.disabled] };
    let removed = 0;
    for (const key of new Set(words.map(keyOf))) {
      const before = next.added.length;
      next.added = next.added.filter((w) => keyOf(w) !== key);
      const switchedOff = getDefaultWords()
        .filter((d) => keyOf(d.word) === key && !off.has(d.word))
        .map((d) => d.word);
      next.disabled.push(...switchedOff);
      if (next.added.length < before || switchedOff.length) removed++;
    }
    return { next, result: { removed, skipped: words.length - removed } };
  });
  applyWordSettings(settings);
  return result;
}

/** Default words switched off are switched back on. */
export async function restoreSensitiveWords(words: string[]): Promise<TWordsRestored> {
  const keys = new Set(words.map(keyOf));
  const { settings, result } = await updateWordSettings((current) => {
    const disabled = current.disabled.filter((w) => !keys.has(keyOf(w)));
    const restored = current.disabled.length - disabled.length;
    return { next: { ...current, disabled }, result: { restored, skipped: Math.max(0, words.length - restored) } };
  });
  applyWordSettings(settings);
  return result;
}

/** A .txt file, one word a line ("#" lines are comments): blank lines are ignored, over-long lines skipped. */
export async function importSensitiveWords(bytes: Buffer | undefined): Promise<TWordsAdded> {
  if (!bytes?.length) throw new AppError("file_empty_or_prohibited");
  const text = sniffType(bytes) === "txt" ? decodeText(bytes) : null;
  if (text === null) throw new AppError("sensitive_words_file_not_text");
  const lines = parseWordList(text).map((l) => l.word);
  if (!lines.length) throw new AppError("file_empty_or_prohibited");
  const fitting = lines.filter((w) => w.length <= SENSITIVE_WORD_MAX_CHARS);
  const result = await addSensitiveWords(fitting);
  return { added: result.added, skipped: result.skipped + lines.length - fitting.length };
}
