// Who speaks next in a node, decided without a model wherever it can be. First a deterministic
// filter: the node's rounds and cycles, no speaker twice in a row unless the node allows it, no
// role past its cap (a role speaks at most `max_cycles` times in a node). Then short cuts: nobody
// left ends the node, one left speaks, sequential speech takes the next in order, free speech the
// role the last message @mentions or else the next in order. Only on-demand speech asks its host,
// and the caller does that (host-answer.ts reads the answer).
import type { TEndReason, TNode } from "../workshops.schema";
import { isLoop, type TSpoken } from "./loop-guard";

export type { TSpoken };

export type TNextStep =
  | { kind: "end"; reason: TEndReason }
  | { kind: "speak"; role: string }
  /** On-demand speech with more than one eligible role: the host picks among them. */
  | { kind: "ask_host"; eligible: string[]; fallback: string };

export function decideNextStep(node: TNode, spoken: TSpoken[]): TNextStep {
  const counts = countSpeeches(node, spoken);
  if (spoken.length >= node.max_rounds) return { kind: "end", reason: "rounds" };
  if (node.roles.every((r) => (counts.get(r) ?? 0) >= node.max_cycles)) return { kind: "end", reason: "cycles" };
  if (isLoop(spoken)) return { kind: "end", reason: "loop" };
  const previous = spoken[spoken.length - 1]?.role ?? null;
  const eligible = eligibleRoles(node, counts, previous);
  if (eligible.length === 0) return { kind: "end", reason: "no_speaker" };
  if (eligible.length === 1) return { kind: "speak", role: eligible[0] };
  const next = nextInOrder(node.roles, eligible, previous);
  if (node.speech_mode === "sequential") return { kind: "speak", role: next };
  if (node.speech_mode === "free") return { kind: "speak", role: mentionedRole(spoken[spoken.length - 1]?.content ?? "", eligible) ?? next };
  return { kind: "ask_host", eligible, fallback: next };
}

/** The node's roles that may speak now, in the node's order. */
export function eligibleRoles(node: TNode, counts: Map<string, number>, previous: string | null) {
  return node.roles.filter((r) => (counts.get(r) ?? 0) < node.max_cycles && (node.allow_repeat || r !== previous));
}

function countSpeeches(node: TNode, spoken: TSpoken[]) {
  const counts = new Map<string, number>();
  for (const s of spoken) if (node.roles.includes(s.role)) counts.set(s.role, (counts.get(s.role) ?? 0) + 1);
  return counts;
}

/** The first eligible role after the previous speaker in the node's order, wrapping around. */
export function nextInOrder(order: string[], eligible: string[], previous: string | null) {
  const start = previous === null ? 0 : order.indexOf(previous) + 1;
  for (let k = 0; k < order.length; k++) {
    const role = order[(start + k) % order.length];
    if (eligible.includes(role)) return role;
  }
  return eligible[0];
}

/** The first eligible role a message @mentions (`@Name`, as a whole word), if any. */
export function mentionedRole(content: string, eligible: string[]): string | null {
  let best: { role: string; at: number } | null = null;
  for (const role of eligible) {
    const at = findMention(content, role);
    if (at >= 0 && (!best || at < best.at)) best = { role, at };
  }
  return best?.role ?? null;
}

/** Roles a message @mentions, among `names`. */
export function mentionedRoles(content: string, names: string[]) {
  return names.filter((n) => findMention(content, n) >= 0);
}

function findMention(content: string, role: string) {
  const needle = `@${role}`.toLowerCase();
  const text = content.toLowerCase();
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const after = text[at + needle.length];
    if (after === undefined || !/[a-z0-9_-]/.test(after)) return at;
  }
  return -1;
}
