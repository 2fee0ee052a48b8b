import { describe, expect, it } from "vitest";
import { isWithinReadingWidth, measureReadingWidth } from "./text-width";
import { ZModelDisplayName, ZModelParameters, ZChannelWeight } from "../models/models.schema";
import { getKindsForFilter } from "../models/model-kinds";

describe("measureReadingWidth (names: at most 8 characters in one reading)", () => {
  it("counts a CJK character as 1 and a Latin character as a half", () => {
    expect(measureReadingWidth("深度求索")).toBe(4);
    expect(measureReadingWidth("GPT")).toBe(1.5);
    expect(measureReadingWidth("通义qwen")).toBe(4);
    expect(measureReadingWidth("ｆｕｌｌ")).toBe(4);
  });

  it("admits 8 CJK or 16 Latin characters, and no more", () => {
    expect(isWithinReadingWidth("八个汉字八个汉字", 8)).toBe(true);
    expect(isWithinReadingWidth("九个汉字九个汉字九", 8)).toBe(false);
    expect(isWithinReadingWidth("deepseek-chat-v3", 8)).toBe(true);
    expect(isWithinReadingWidth("deepseek-chat-v3x", 8)).toBe(false);
    expect(isWithinReadingWidth("深度求索chat-v3", 8)).toBe(true);
  });

  it("is what the display-name schema enforces", () => {
    expect(ZModelDisplayName.safeParse("深度求索 V3").success).toBe(true);
    expect(ZModelDisplayName.safeParse("九个汉字九个汉字九").error?.issues[0].message).toBe("validation.model_display_name");
  });
});

describe("model parameter and channel limits", () => {
  it("accepts values at the edges and refuses beyond them", () => {
    expect(
      ZModelParameters.safeParse({
        max_tokens: 4096,
        temperature: 2,
        top_p: 0,
        top_k: 6,
        presence_penalty: -2,
        frequency_penalty: 2,
        n: 5,
        stop: ["a", "b", "c", "d"],
        logit_bias: { "50256": -100 },
      }).success,
    ).toBe(true);
    for (const bad of [
      { max_tokens: 0 },
      { max_tokens: 4097 },
      { temperature: 2.1 },
      { top_p: 1.01 },
      { top_k: 7 },
      { top_k: 0 },
      { presence_penalty: -2.1 },
      { n: 6 },
      { stop: ["a", "b", "c", "d", "e"] },
      { logit_bias: { "1": 101 } },
    ])
      expect(ZModelParameters.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it("takes a channel weight as an integer 1-100", () => {
    expect(ZChannelWeight.safeParse(1).success && ZChannelWeight.safeParse(100).success).toBe(true);
    for (const bad of [0, 101, 1.5]) expect(ZChannelWeight.safeParse(bad).error?.issues[0].message).toBe("validation.channel_weight");
  });

  it("maps the model-type filter numbers to kinds", () => {
    expect(getKindsForFilter(2)).toEqual(["text"]);
    expect(getKindsForFilter(99)).toContain("rerank");
    expect(getKindsForFilter(7)).toEqual([]);
  });
});
