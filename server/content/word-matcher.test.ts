import { describe, expect, it } from "vitest";
import { createStreamCensor, normalizeForMatching, WordMatcher } from "./word-matcher";

describe("sensitive word matching", () => {
  const m = new WordMatcher(["赌博", "代开发票", "casino", "he", "hers", "his", "she"]);

  it("finds every listed word in one pass, overlapping ones included", () => {
    expect(m.find("ushers").sort()).toEqual(["he", "hers", "she"]);
    expect(m.find("这里可以代开发票和赌博")).toEqual(["代开发票", "赌博"]);
    expect(m.find("nothing to see")).toEqual([]);
  });

  it("sees through full-width letters, case and inserted separators", () => {
    expect(m.find("ＣＡＳＩＮＯ night")).toEqual(["casino"]);
    expect(m.find("赌 博")).toEqual(["赌博"]);
    expect(m.find("赌\u200b博")).toEqual(["赌博"]);
    expect(m.find("代·开·发·票")).toEqual(["代开发票"]);
    expect(normalizeForMatching(" A-b_C ")).toBe("abc");
  });

  it("catches a word split across streamed chunks", () => {
    const censor = createStreamCensor(new WordMatcher(["代开发票"]));
    expect(censor.push("我们提供代开")).toEqual([]);
    expect(censor.push("发票服务")).toEqual(["代开发票"]);
  });

  it("an empty list matches nothing", () => {
    expect(new WordMatcher([]).find("anything")).toEqual([]);
  });
});
