// Which channels a request tries, in order: the highest priority tier first; inside a
// tier a weighted random order, so a weight-3 channel leads three times as often as a weight-1
// one; disabled channels never. Pure, with the random source injected so tests are exact.

import { isChatChannelType } from "./models.schema";

export type TSelectable = { id: string; weight: number; priority: number; state: string };

/**
 * The channels a chat completion or an embedding may go to. A media provider's channel (Kling,
 * DashScope's task API, SD WebUI, ComfyUI) that lists a text model by mistake must not receive it:
 * it would answer an OpenAI body with an error at best, and count failures against a good key.
 */
export function keepChatChannels<T extends { type: string }>(channels: readonly T[]): T[] {
  return channels.filter((c) => isChatChannelType(c.type));
}

export function orderCandidates<T extends TSelectable>(channels: readonly T[], random: () => number = Math.random): T[] {
  const usable = channels.filter((c) => c.state === "enabled" && c.weight > 0);
  const tiers = new Map<number, T[]>();
  for (const c of usable) tiers.set(c.priority, [...(tiers.get(c.priority) ?? []), c]);
  const priorities = [...tiers.keys()].sort((a, b) => b - a);
  return priorities.flatMap((p) => shuffleByWeight(tiers.get(p)!, random));
}

/** Weighted sampling without replacement: each pick is proportional to the weights still left. */
export function shuffleByWeight<T extends { weight: number }>(items: readonly T[], random: () => number = Math.random): T[] {
  const left = [...items];
  const out: T[] = [];
  while (left.length > 0) {
    const total = left.reduce((sum, c) => sum + c.weight, 0);
    let point = random() * total;
    let index = left.findIndex((c) => (point -= c.weight) < 0);
    // random() may return a value that rounding pushes past the last boundary.
    if (index < 0) index = left.length - 1;
    out.push(left.splice(index, 1)[0]);
  }
  return out;
}
