// Agent and model names hold "at most 8 characters in one reading". A CJK (or other wide)
// character counts 1; two Latin (narrow) characters count 1, so "GPT-4o mini" is 5.5 and fits.

// East Asian wide ranges: CJK, kana, Hangul, full-width forms, and emoji, which render wide too.
const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;

/** The width of a text in "readings": wide characters 1, narrow ones 0.5. */
export function measureReadingWidth(text: string): number {
  let halves = 0;
  for (const ch of text) halves += WIDE.test(ch) ? 2 : 1;
  return halves / 2;
}

export function isWithinReadingWidth(text: string, max: number): boolean {
  return measureReadingWidth(text) <= max;
}
