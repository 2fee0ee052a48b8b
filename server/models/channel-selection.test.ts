import { describe, expect, it } from "vitest";
import { keepChatChannels, orderCandidates, shuffleByWeight } from "./channel-selection";
import { ALL_CHANNEL_TYPES, CHAT_CHANNEL_TYPES, MEDIA_CHANNEL_TYPES } from "./models.schema";

const ch = (id: string, weight: number, priority = 0, state = "enabled") => ({ id, weight, priority, state });

/** A random source that returns the given values in turn. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length];
};

describe("orderCandidates", () => {
  it("puts higher priority tiers first, whatever the weights", () => {
    const order = orderCandidates([ch("low", 100, 0), ch("high", 1, 10), ch("mid", 50, 5)], () => 0.99).map((c) => c.id);
    expect(order).toEqual(["high", "mid", "low"]);
  });

  it("never includes disabled channels", () => {
    const order = orderCandidates([ch("a", 1, 0, "disabled_manual"), ch("b", 1), ch("c", 1, 9, "disabled_auto")]).map((c) => c.id);
    expect(order).toEqual(["b"]);
  });

  it("answers nothing when nothing is enabled", () => {
    expect(orderCandidates([ch("a", 1, 0, "disabled_auto")])).toEqual([]);
  });

  it("picks by weight inside a tier, deterministically with an injected random", () => {
    // Weights 1 and 3 split [0, 4): a draw below 1/4 picks a, above picks b.
    expect(orderCandidates([ch("a", 1), ch("b", 3)], sequence(0.1, 0)).map((c) => c.id)).toEqual(["a", "b"]);
    expect(orderCandidates([ch("a", 1), ch("b", 3)], sequence(0.3, 0)).map((c) => c.id)).toEqual(["b", "a"]);
  });

  it("keeps every channel of a tier exactly once", () => {
    const channels = [ch("a", 5), ch("b", 1), ch("c", 100), ch("d", 20)];
    for (let i = 0; i < 50; i++)
      expect(
        orderCandidates(channels)
          .map((c) => c.id)
          .sort(),
      ).toEqual(["a", "b", "c", "d"]);
  });
});

describe("shuffleByWeight", () => {
  it("leads with each item in proportion to its weight", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const firsts = { a: 0, b: 0 };
    for (let i = 0; i < 4000; i++) firsts[shuffleByWeight([ch("a", 1), ch("b", 3)], random)[0].id as "a" | "b"]++;
    expect(firsts.b / 4000).toBeGreaterThan(0.7);
    expect(firsts.b / 4000).toBeLessThan(0.8);
  });

  it("survives a random source that returns the top of its range", () => {
    expect(shuffleByWeight([ch("a", 1), ch("b", 1)], () => 0.9999999999999999).map((c) => c.id)).toHaveLength(2);
  });
});

describe("keepChatChannels", () => {
  it("drops every media provider's channel and keeps every chat-speaking one", () => {
    const channels = ALL_CHANNEL_TYPES.map((type) => ({ id: type, type }));
    expect(keepChatChannels(channels).map((c) => c.id)).toEqual([...CHAT_CHANNEL_TYPES, "offline"]);
    for (const type of MEDIA_CHANNEL_TYPES) expect(keepChatChannels([{ id: "x", type }])).toEqual([]);
  });

  it("leaves nothing to order when a text model is listed only on a Kling channel", () => {
    const kling = { ...ch("kling", 100, 10), type: "kling" };
    expect(orderCandidates(keepChatChannels([kling]))).toEqual([]);
    const openai = { ...ch("openai", 1, 0), type: "openai" };
    expect(orderCandidates(keepChatChannels([kling, openai])).map((c) => c.id)).toEqual(["openai"]);
  });
});
