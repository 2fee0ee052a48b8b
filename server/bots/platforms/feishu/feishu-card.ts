// The agent's markdown as Feishu cards (card JSON 2.0, whose markdown element renders headings,
// lists, code and tables). A card's JSON may be at most 30 KB, so a long answer goes out as
// several cards of at most FEISHU_CARD_TEXT_MAX_BYTES each. Cards are shared
// (update_multi), which is what lets a streaming reply patch its card.
import { markdownToPlain, splitForChannel } from "../../../../bot-gateway/core/format";
import { LANGUAGES, type TLanguage } from "../../../../common/languages";
import { getT } from "../../../i18n/translate";

export const FEISHU_CARD_TEXT_MAX_BYTES = 28_000;
const SUMMARY_MAX_CHARS = 60;

/** Feishu's locales for ours: a card shows the reader's client language. */
const FEISHU_LOCALES: Record<TLanguage, string[]> = { zh_hans: ["zh_cn"], zh_hant: ["zh_hk", "zh_tw"], en: ["en_us"], pt: ["pt_br"] };

export type TFeishuCard = Record<string, unknown>;

/** Pieces of `text` that each fit a card: measured as they travel, JSON-escaped (quotes, newlines and backslashes grow). */
export function splitCardText(text: string): string[] {
  const parts = splitForChannel(text, { maxBytes: FEISHU_CARD_TEXT_MAX_BYTES }).flatMap(fitEscaped);
  return parts.length ? parts : [""];
}

function fitEscaped(part: string): string[] {
  const escaped = Buffer.byteLength(JSON.stringify(part)) - 2;
  if (escaped <= FEISHU_CARD_TEXT_MAX_BYTES) return [part];
  const smaller = Math.floor((Buffer.byteLength(part) * FEISHU_CARD_TEXT_MAX_BYTES * 0.95) / escaped);
  return splitForChannel(part, { maxBytes: smaller }).flatMap(fitEscaped);
}

/** A finished answer: one markdown element. */
export function markdownCard(text: string): TFeishuCard {
  const body = cardMarkdown(text);
  return card(summaryOf(body), [{ tag: "markdown", content: body || " " }]);
}

/** An answer still being written: the text so far and, under it, that the agent is thinking. */
export function thinkingCard(textSoFar: string): TFeishuCard {
  const body = cardMarkdown(textSoFar);
  const thinking = translated("reply.thinking");
  const note = {
    tag: "markdown",
    text_size: "notation",
    content: grey(thinking.content),
    i18n_content: Object.fromEntries(Object.entries(thinking.i18n).map(([k, v]) => [k, grey(v)])),
  };
  return card(body ? summaryOf(body) : { content: thinking.content, i18n_content: thinking.i18n }, body ? [{ tag: "markdown", content: body }, note] : [note]);
}

export const cardContent = (c: TFeishuCard) => JSON.stringify(c);

function card(summary: { content: string; i18n_content?: Record<string, string> }, elements: Record<string, unknown>[]): TFeishuCard {
  return { schema: "2.0", config: { update_multi: true, width_mode: "fill", summary }, body: { elements } };
}

/**
 * Markdown the card element renders as meant: a card image wants an uploaded image key, so a
 * picture by URL (which would make Feishu refuse the whole card) becomes a link to it.
 */
function cardMarkdown(text: string): string {
  return text.replace(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, (_m, alt: string, url: string) => `[${alt || url}](${url})`).trim();
}

function summaryOf(markdown: string) {
  const plain = markdownToPlain(markdown).replace(/\s+/g, " ").trim();
  const chars = [...plain];
  return { content: chars.length > SUMMARY_MAX_CHARS ? `${chars.slice(0, SUMMARY_MAX_CHARS - 1).join("")}…` : plain };
}

const grey = (s: string) => `<font color='grey'>${s}</font>`;

/** A bots: key in every language, keyed by Feishu locale; `content` is the default language's. */
function translated(key: string): { content: string; i18n: Record<string, string> } {
  const i18n: Record<string, string> = {};
  for (const lng of LANGUAGES) for (const locale of FEISHU_LOCALES[lng]) i18n[locale] = getT(lng, "bots")(key);
  return { content: getT(undefined, "bots")(key), i18n };
}
