// Text as the sensitive-word matcher compares it: compatibility forms folded (NFKC: full-width
// letters, digits and punctuation, ideographic spaces, circled and styled characters), lower case,
// traditional characters as simplified ones, and nothing but letters, digits and marks (spaces,
// zero-width characters, punctuation and symbols put between characters are dropped).
//
// It runs on every streamed chunk of every reply, so text of common characters (Chinese, Latin,
// full-width forms) takes one pass with a table of what each UTF-16 unit becomes. A unit whose
// result depends on its neighbours (a combining mark, Hangul jamo, a surrogate, a case that is not
// ASCII's) sends the whole text down the general path, which gives the same result.
import { foldTraditional } from "./han-folding";

const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/gu;
const MARK = /\p{M}/u;
const NON_ASCII = /[^\x00-\x7f]/;
/** What each UTF-16 unit becomes on its own; null: it needs the general path. Filled when first met. */
const UNIT = new Array<string | null | undefined>(0x10000);

const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;
const isJamo = (code: number) => (code >= 0x1100 && code <= 0x11ff) || (code >= 0xa960 && code <= 0xa97f) || (code >= 0xd7b0 && code <= 0xd7ff);

function classify(code: number): string | null {
  const ch = String.fromCharCode(code);
  const compat = ch.normalize("NFKC");
  const lower = compat.toLowerCase();
  const alone =
    isSurrogate(code) || isJamo(code) || MARK.test(compat) || (lower !== compat && NON_ASCII.test(compat))
      ? null
      : foldTraditional(lower.replace(NOT_WORD, ""));
  UNIT[code] = alone;
  return alone;
}

export function normalizeGeneral(text: string) {
  return foldTraditional(text.normalize("NFKC").toLowerCase().replace(NOT_WORD, ""));
}

export function normalizeForMatching(text: string) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let unit = UNIT[code];
    if (unit === undefined) unit = classify(code);
    if (unit === null) return normalizeGeneral(text);
    out += unit;
  }
  return out;
}
