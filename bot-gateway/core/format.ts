// An agent's markdown in a chat platform's shape: split to the platform's per-message limit (at
// paragraph, line, sentence or word boundaries where one is near, never inside a character), and
// flattened to plain text for platforms that show markdown as typed (personal WeChat).

export type TSplitLimit = { maxBytes: number } | { maxChars: number };

const utf8Length = (s: string) => Buffer.byteLength(s, "utf8");

/** Pieces of `text`, each within the limit, together the whole text (whitespace at the cuts dropped). */
export function splitForChannel(text: string, limit: TSplitLimit): string[] {
  const measure = "maxBytes" in limit ? utf8Length : (s: string) => [...s].length;
  const max = "maxBytes" in limit ? limit.maxBytes : limit.maxChars;
  if (max < 8) throw new Error("splitForChannel: limit too small");
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length && measure(rest) > max) {
    const chars = [...rest];
    // The longest prefix within the limit, by code points.
    let fit = 0;
    let size = 0;
    for (const ch of chars) {
      const n = measure(ch);
      if (size + n > max) break;
      size += n;
      fit++;
    }
    const head = chars.slice(0, fit).join("");
    const cut = bestCut(head);
    out.push(head.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length) out.push(rest);
  return out;
}

/** Where to cut `head`: the last paragraph, line, sentence or space break in its second half, else its end. */
function bestCut(head: string): number {
  const floor = Math.floor(head.length / 2);
  for (const re of [/\n\s*\n/g, /\n/g, /[。！？!?；;]\s*|[.](?=\s)/g, /[，,、]\s*|\s/g]) {
    let last = -1;
    for (const m of head.matchAll(re)) if (m.index! + m[0].length >= floor) last = m.index! + m[0].length;
    if (last > 0) return last;
  }
  return head.length;
}

/** Markdown as plain text: emphasis, headings, code fences and link syntax removed, links kept as "text (url)". */
export function markdownToPlain(md: string): string {
  return md
    .replace(/```[^\n]*\n([\s\S]*?)```/g, "$1")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, "$1 $2")
    .replace(/\[([^\]]+)\]\(([^)\s]+)[^)]*\)/g, (_m, label: string, url: string) => (label === url ? url : `${label} (${url})`))
    .replace(/^\s{0,3}#{1,6}\s+/gm, "")
    .replace(/^\s{0,3}>\s?/gm, "")
    .replace(/^(\s*)[-*+]\s+/gm, "$1• ")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[^*\w])\*(?!\s)([^*\n]+?)\*(?!\w)/g, "$1$2")
    .replace(/~~(.+?)~~/g, "$1")
    .replace(/^\s*([-*_])(\s*\1){2,}\s*$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
