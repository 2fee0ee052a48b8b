// How many tokens a text is, without a tokenizer: prompts are fitted to a context window and
// usage is estimated when an upstream reports none.

/** A cheap, conservative count: a CJK character is about one token, other text about four characters. */
export function estimateTokens(text: string) {
  let cjk = 0;
  for (const ch of text) if (/[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch)) cjk++;
  return cjk + Math.ceil((text.length - cjk) / 4);
}
