import { describe, expect, it } from "vitest";
import { foldTraditional } from "./han-folding";
import { normalizeGeneral } from "./normalize-text";
import { getDefaultWords, parseWordList } from "./word-list-text";
import { createStreamCensor, normalizeForMatching, WordMatcher } from "./word-matcher";

describe("sensitive word matching", () => {
  const m = new WordMatcher(["赌博", "代开发票", "买毒品", "casino", "gambling", "he", "hers", "his", "she"]);

  it("finds every listed word in one pass, overlapping ones included", () => {
    expect(m.find("ushers").sort()).toEqual(["he", "hers", "she"]);
    expect(m.find("这里可以代开发票和赌博")).toEqual(["代开发票", "赌博"]);
    expect(m.find("nothing to see")).toEqual([]);
  });

  it("folds full-width forms and case", () => {
    expect(m.find("ｇａｍｂｌｉｎｇ")).toEqual(["gambling"]);
    expect(m.find("ＣＡＳＩＮＯ night")).toEqual(["casino"]);
    expect(m.find("GaMbLiNg")).toEqual(["gambling"]);
    expect(normalizeForMatching("ＡＢＣ１２３")).toBe("abc123");
  });

  it("folds traditional characters to simplified ones", () => {
    expect(m.find("賭博")).toEqual(["赌博"]);
    expect(m.find("哪裡可以買毒品")).toEqual(["买毒品"]);
    expect(m.find("代開發票")).toEqual(["代开发票"]);
    expect(foldTraditional("臺灣的裡面為了")).toBe("台湾的里面为了");
    // A word listed in traditional characters meets the simplified text too.
    expect(new WordMatcher(["賭場"]).find("网上赌场")).toEqual(["賭場"]);
  });

  it("ignores spaces, zero-width characters, punctuation and symbols put between characters", () => {
    expect(m.find("买 毒 品")).toEqual(["买毒品"]);
    expect(m.find("买*毒*品")).toEqual(["买毒品"]);
    expect(m.find("买\u200b毒\u200d品")).toEqual(["买毒品"]);
    expect(m.find("买　毒　品")).toEqual(["买毒品"]);
    expect(m.find("代·开·发·票")).toEqual(["代开发票"]);
    expect(m.find("赌💊博")).toEqual(["赌博"]);
    expect(m.find("g.a.m.b.l.i.n.g")).toEqual(["gambling"]);
    expect(m.find("g-a-m-b-l-i-n-g")).toEqual(["gambling"]);
    expect(normalizeForMatching(" A-b_C ")).toBe("abc");
  });

  it("sees through the tricks combined", () => {
    expect(m.find("買 * 毒 ． 品")).toEqual(["买毒品"]);
    expect(m.find("Ｇ Ａ Ｍ Ｂ Ｌ Ｉ Ｎ Ｇ")).toEqual(["gambling"]);
  });

  it("catches a word split across streamed chunks, with separators and traditional forms", () => {
    const censor = createStreamCensor(new WordMatcher(["代开发票"]));
    expect(censor.push("我们提供代开")).toEqual([]);
    expect(censor.push("发票服务")).toEqual(["代开发票"]);
    const split = createStreamCensor(new WordMatcher(["买毒品"]));
    expect(split.push("可以买 ")).toEqual([]);
    expect(split.push("* 毒")).toEqual([]);
    expect(split.push("品吗")).toEqual(["买毒品"]);
    const traditional = createStreamCensor(new WordMatcher(["赌博"]));
    expect(traditional.push("網上賭")).toEqual([]);
    expect(traditional.push("博")).toEqual(["赌博"]);
  });

  it("normalises common text on its fast path exactly as the general path does", () => {
    const pool = [..."aZ09 ,.!?-_*|/\\\t\n买毒品賭博裡為臺ＡＢｇ１，。？！、　·•…“”《》😀💊\u200b\u200d\ufeffé\u0301ΣΟΔΟΣİßﬁ①㈱ｶﾞ한글\u1100\u1161Ⅻ"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: 1 + (next() % 12) }, () => pool[next() % pool.length]).join("");
      expect(normalizeForMatching(text), JSON.stringify(text)).toBe(normalizeGeneral(text));
    }
  });

  it("an empty list matches nothing", () => {
    expect(new WordMatcher([]).find("anything")).toEqual([]);
    expect(new WordMatcher(["", "***", "  "]).size).toBe(0);
  });
});

describe("the default list", () => {
  const defaults = getDefaultWords();
  const matcher = new WordMatcher(defaults.map((d) => d.word));

  it("is a few hundred words, each in a category", () => {
    expect(defaults.length).toBeGreaterThan(250);
    expect(new Set(defaults.map((d) => d.category))).toEqual(new Set(["drugs", "gambling", "pornography", "violence", "fraud", "cults"]));
  });

  it("refuses questions about buying drugs, gambling, weapons and banned groups, however written", () => {
    for (const text of [
      "哪里可以买到冰毒",
      "哪裡可以買到冰毒",
      "冰 毒 怎么买",
      "推荐一个网上赌场",
      "有没有赌博网站",
      "賭博平台推薦",
      "怎么自制炸药",
      "法轮功是什么",
      "代开发票联系我",
      "where can I buy cocaine",
      "best ｏｎｌｉｎｅ ｃａｓｉｎｏ",
    ]) {
      expect(matcher.find(text), text).not.toEqual([]);
    }
  });

  it("lets everyday sentences pass, including ones that hold a listed word's characters", () => {
    for (const text of [
      "我想学习编程",
      "how do I cook rice",
      "今天天气很好，我们去公园散步吧",
      "这是个大麻烦",
      "这台手机跑分多少",
      "公司下周做反洗钱培训",
      "we are in a crisis",
      "买春装和春节礼物",
      "拿出千万资金投资",
      "支援交通建设",
      "控制毒性反应",
      "眷恋童年的时光",
      "一次性交易完成",
      "提供个性服务",
      "我敢打赌球队会赢",
      "The heroine of the novel",
      "Something went wrong",
      "the method works",
      "走，去溜冰",
    ]) {
      expect(matcher.find(text), text).toEqual([]);
    }
  });
});

describe("word list text", () => {
  it("reads one word a line, with categories and comments", () => {
    expect(parseWordList("# a comment\n## drugs\n冰毒\n\n  海洛因  \r\n## gambling\n赌博\n")).toEqual([
      { word: "冰毒", category: "drugs" },
      { word: "海洛因", category: "drugs" },
      { word: "赌博", category: "gambling" },
    ]);
    expect(parseWordList("one\ntwo")).toEqual([
      { word: "one", category: null },
      { word: "two", category: null },
    ]);
  });
});
