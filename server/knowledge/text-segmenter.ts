// Words for full-text search. Postgres has no Chinese parser, so the app segments:
// jieba (@node-rs/jieba) splits Chinese into words, the Latin runs between are lower-cased and
// stemmed (Porter, "policies" -> "polici"), and words that carry no meaning in either language are
// dropped. Lexemes go to Postgres as literal tsvector/tsquery values, so the database's own parser
// (which skips CJK under the C locale) is never involved.
import { createRequire } from "node:module";
import { stemmer } from "stemmer";

type TJieba = { cut(text: string, hmm?: boolean): string[]; cutForSearch(text: string, hmm?: boolean): string[] };
let jieba: TJieba | null = null;

/** The dictionary takes ~0.2 s to load: once per process, on first use. */
function getJieba(): TJieba {
  if (!jieba) {
    const require = createRequire(import.meta.url);
    const { Jieba } = require("@node-rs/jieba") as { Jieba: { withDict(dict: Uint8Array): TJieba } };
    const { dict } = require("@node-rs/jieba/dict") as { dict: Uint8Array };
    jieba = Jieba.withDict(dict);
  }
  return jieba;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const WORDLIKE = /[\p{L}\p{N}]/u;

// Function words of both languages: they match everything and so rank nothing.
const STOP = new Set(
  (
    "的 了 是 在 和 与 及 或 就 都 而 也 还 又 把 被 让 给 对 从 向 吗 呢 吧 啊 呀 哦 么 嘛 着 过 之 其 这 那 这个 那个 这些 那些 " +
    "我 你 您 他 她 它 我们 你们 他们 什么 怎么 怎样 怎么样 如何 为什么 哪 哪里 哪些 哪个 多少 几 请问 请 一下 可以 能 能否 会 要 想 " +
    "有 没有 个 一个 些 一些 啥 咋 " +
    "a an the and or but if of to in on at by for with from as is are was were be been being do does did " +
    "i you he she it we they me my your our their this that these those what which who whom how why when where " +
    "can could would should will shall may might must please tell about into than then there here so not no yes " +
    // What is left of contractions split at the apostrophe: what's, can't, don't, we're, I'll...
    "s t d ll m re ve don doesn didn isn aren wasn weren haven hasn couldn wouldn shouldn"
  ).split(/\s+/),
);

/** Normalised words of a text, in order, duplicates kept (positions matter for ranking). */
export function segmentWords(text: string): string[] {
  const normalised = text.normalize("NFKC").toLowerCase();
  if (!normalised.trim()) return [];
  // Search mode also yields the shorter words inside long ones ("退货政策" -> 退货, 政策, 退货政策), so
  // an indexed passage and a differently worded question still share words.
  const tokens = CJK.test(normalised) ? getJieba().cutForSearch(normalised, true) : normalised.split(/[^\p{L}\p{N}]+/u);
  const words: string[] = [];
  for (const raw of tokens) {
    const token = raw.trim();
    if (!token || !WORDLIKE.test(token)) continue;
    if (CJK.test(token)) {
      if (!STOP.has(token)) words.push(token);
      continue;
    }
    // jieba hands Latin runs through whole ("return-policy"): split them on non-word characters.
    for (const part of token.split(/[^\p{L}\p{N}]+/u)) {
      if (!part || STOP.has(part)) continue;
      words.push(/^[a-z]+$/.test(part) ? stemmer(part) : part);
    }
  }
  return words;
}

/** Distinct words of a text: what a query matches on. */
export function queryWords(text: string): string[] {
  return [...new Set(segmentWords(text))].slice(0, 64);
}

// A lexeme as Postgres reads it in a tsvector/tsquery literal: single-quoted, quotes doubled,
// backslashes escaped. Postgres limits a lexeme to 2 KB; words are far shorter, long ones are cut.
function quoteLexeme(word: string) {
  return `'${word.slice(0, 200).replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/**
 * A tsvector literal for weighted parts, e.g. a question (A) and its answer (D). Positions are
 * kept (at most 16383, Postgres's limit) so ts_rank sees how often and how early a word occurs.
 */
export function toTsvectorLiteral(parts: Array<{ text: string; weight: "A" | "B" | "C" | "D" }>): string {
  const positions = new Map<string, string[]>();
  let pos = 0;
  for (const part of parts) {
    for (const word of segmentWords(part.text)) {
      pos = Math.min(pos + 1, 16383);
      const list = positions.get(word) ?? [];
      // Postgres keeps at most 256 positions per lexeme.
      if (list.length < 256) list.push(`${pos}${part.weight === "D" ? "" : part.weight}`);
      positions.set(word, list);
    }
  }
  return [...positions].map(([word, list]) => `${quoteLexeme(word)}:${list.join(",")}`).join(" ");
}

/** A tsquery literal matching any of the words ("OR"): ranking, not the match, sorts them. */
export function toTsqueryLiteral(words: string[]): string {
  return words.map(quoteLexeme).join(" | ");
}
