import { describe, expect, it } from "vitest";
import { measureReadingWidth } from "../lib/text-width";
import { ZAgentInput, ZAgentParameters } from "./agents.schema";

const base = { name: "税务助手", introduction: "回答个税问题", model_key: "deepseek-chat" };

describe("agent input (fields, lengths and parameter ranges)", () => {
  it("counts a name's length the way the product reads it", () => {
    expect(measureReadingWidth("税务助手")).toBe(4);
    expect(measureReadingWidth("AB")).toBe(1);
    expect(measureReadingWidth("Tax Helper Pro")).toBe(7);
    expect(ZAgentInput.safeParse({ ...base, name: "八个中文字符名字" }).success).toBe(true);
    expect(ZAgentInput.safeParse({ ...base, name: "九个中文字符的名字" }).success).toBe(false);
    expect(ZAgentInput.safeParse({ ...base, name: "sixteenletters16" }).success).toBe(true);
    expect(ZAgentInput.safeParse({ ...base, name: "seventeen-letters" }).success).toBe(false);
  });

  it("allows at most three plugins, each once", () => {
    expect(ZAgentInput.safeParse({ ...base, plugins: ["web_reader", "html_interpreter", "python_interpreter"] }).success).toBe(true);
    expect(ZAgentInput.safeParse({ ...base, plugins: ["web_reader", "html_interpreter", "python_interpreter", "current_time"] }).success).toBe(false);
    expect(ZAgentInput.safeParse({ ...base, plugins: ["web_reader", "web_reader"] }).success).toBe(false);
    expect(ZAgentInput.safeParse({ ...base, plugins: ["shell"] }).success).toBe(false);
  });

  it("prices are free or at least 0.1 yuan; trial count not below 0", () => {
    expect(ZAgentInput.safeParse({ ...base, use_price_micro: 100_000 }).success).toBe(true);
    expect(ZAgentInput.safeParse({ ...base, use_price_micro: 99_999 }).success).toBe(false);
    expect(ZAgentInput.safeParse({ ...base, trial_count: -1 }).success).toBe(false);
  });

  it("model parameters stay in their ranges", () => {
    expect(ZAgentParameters.parse({})).toMatchObject({ max_tokens: 1024, temperature: 0.7, n: 1 });
    for (const bad of [
      { temperature: 2.1 },
      { top_p: 1.5 },
      { top_k: 7 },
      { presence_penalty: -3 },
      { n: 6 },
      { max_tokens: 5000 },
      { logit_bias: { "50256": -101 } },
    ]) {
      expect(ZAgentParameters.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("selection variables need options, and their default must be one", () => {
    expect(ZAgentInput.safeParse({ ...base, variables: [{ name: "tone", type: "select", options: [] }] }).success).toBe(false);
    expect(ZAgentInput.safeParse({ ...base, variables: [{ name: "tone", type: "select", options: ["a"], default: "b" }] }).success).toBe(false);
    expect(
      ZAgentInput.safeParse({
        ...base,
        variables: [
          { name: "x", type: "fill" },
          { name: "x", type: "fill" },
        ],
      }).success,
    ).toBe(false);
  });
});
