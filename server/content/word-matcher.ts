// Aho-Corasick over normalised text (normalize-text.ts): one pass finds every listed word, whatever
// the list's size, however it was spaced, cased, widened or written in traditional characters.
import { normalizeForMatching } from "./normalize-text";

export { normalizeForMatching };

type TNode = { next: Map<string, number>; fail: number; out: string[] };

export class WordMatcher {
  private nodes: TNode[] = [{ next: new Map(), fail: 0, out: [] }];
  readonly size: number;

  constructor(words: Iterable<string>) {
    let size = 0;
    for (const raw of words) if (this.insert(raw)) size++;
    this.size = size;
    this.link();
  }

  private insert(raw: string) {
    const word = normalizeForMatching(raw);
    if (!word) return false;
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
    return true;
  }

  // Breadth first, so a node's fail target is complete before the node takes its words.
  private link() {
    const queue = [...this.nodes[0].next.values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
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

  /**
   * Walks already-normalised text from `state` (0: the start) and adds the words completed on the
   * way to `found`; returns the state reached, from which the next piece of the same text goes on.
   */
  scan(normalized: string, state: number, found: Set<string>): number {
    for (const ch of normalized) {
      while (state !== 0 && !this.nodes[state].next.has(ch)) state = this.nodes[state].fail;
      state = this.nodes[state].next.get(ch) ?? 0;
      for (const w of this.nodes[state].out) found.add(w);
    }
    return state;
  }

  /** The listed words found in the text, each once, as they were listed. */
  find(text: string): string[] {
    const found = new Set<string>();
    this.scan(normalizeForMatching(text), 0, found);
    return [...found];
  }
}

/**
 * For streamed output: the automaton's state is kept between deltas, so a word split across two
 * chunks is still caught while each chunk is normalised and scanned once, never the answer so far.
 */
export function createStreamCensor(matcher: WordMatcher) {
  let state = 0;
  return {
    push(delta: string): string[] {
      const found = new Set<string>();
      state = matcher.scan(normalizeForMatching(delta), state, found);
      return [...found];
    },
  };
}
