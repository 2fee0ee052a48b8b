// A conversation going round in circles: the same two roles trading near-identical messages. Two
// speakers alternating (A, B, A, B) whose repeated messages each match the earlier one closely end
// the node as a loop, before a host that keeps naming them spends the rest of the rounds on it.
/** A finished message of the current node, as the engine reads it. */
export type TSpoken = { role: string; content: string };

/** How alike two messages must be (Dice coefficient over character bigrams) to count as a repeat. */
export const LOOP_SIMILARITY = 0.9;

export function isLoop(spoken: TSpoken[]): boolean {
  if (spoken.length < 4) return false;
  const [a1, b1, a2, b2] = spoken.slice(-4);
  if (a1.role !== a2.role || b1.role !== b2.role || a1.role === b1.role) return false;
  return similarity(a1.content, a2.content) >= LOOP_SIMILARITY && similarity(b1.content, b2.content) >= LOOP_SIMILARITY;
}

export function similarity(x: string, y: string): number {
  const a = normalize(x);
  const b = normalize(y);
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const g = a.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      shared++;
      grams.set(g, n - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

const normalize = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
