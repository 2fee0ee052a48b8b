// Aho-Corasick over normalised text: one pass finds every listed word, whatever the list's size.
// Normalising folds full-width forms and case (NFKC + lower case) and drops the spaces, zero-width
// characters and punctuation people put between characters to slip past filters.

const SEPARATORS = /[\s\u200b-\u200f\u2060\ufeff·•.,，。、_*\-|/\\]+/gu;

export function normalizeForMatching(text: string) {
  return text.normalize("NFKC").toLowerCase().replace(SEPARATORS, "");
}

type TNode = { next: Map<string, number>; fail: number; out: string[] };

export class WordMatcher {
  private nodes: TNode[] = [{ next: new Map(), fail: 0, out: [] }];
  readonly longest: number;

  constructor(words: string[]) {
    let longest = 0;
    for (const raw of words) {
      const word = normalizeForMatching(raw);
      if (!word) continue;
      longest = Math.max(longest, [...word].length);
      let state = 0;
      for (const ch of word) {
        let next = this.nodes[state].next.get(ch);
        if (next === undefined) {
          next = this.nodes.push({ next: new Map(), fail: 0, out: [] }) - 1;
          this.nodes[state].next.set(ch, next);
        }
        state = next;
      }
      this.nodes[state].out.push(raw);
    }
    this.longest = longest;
    this.link();
  }

  private link() {
    const queue = [...this.nodes[0].next.values()];
    while (queue.length) {
      const state = queue.shift()!;
      for (const [ch, child] of this.nodes[state].next) {
        let f = this.nodes[state].fail;
        while (f !== 0 && !this.nodes[f].next.has(ch)) f = this.nodes[f].fail;
        const target = this.nodes[f].next.get(ch);
        this.nodes[child].fail = target !== undefined && target !== child ? target : 0;
        this.nodes[child].out.push(...this.nodes[this.nodes[child].fail].out);
        queue.push(child);
      }
    }
  }

  /** The listed words found in the text, each once, as the administrator wrote them. */
  find(text: string): string[] {
    const found = new Set<string>();
    let state = 0;
    for (const ch of normalizeForMatching(text)) {
      while (state !== 0 && !this.nodes[state].next.has(ch)) state = this.nodes[state].fail;
      state = this.nodes[state].next.get(ch) ?? 0;
      for (const w of this.nodes[state].out) found.add(w);
    }
    return [...found];
  }
}

/**
 * For streamed output: checks each new delta together with the end of what came before, so a word
 * split across two chunks is still caught, without re-scanning the whole answer each time.
 */
export function createStreamCensor(matcher: WordMatcher) {
  let tail = "";
  return {
    push(delta: string): string[] {
      const window = tail + delta;
      const hits = matcher.find(window);
      const keep = Math.max(0, matcher.longest * 4);
      tail = keep ? [...window].slice(-keep).join("") : "";
      return hits;
    },
  };
}
