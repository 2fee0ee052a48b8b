// Traditional Chinese characters folded to simplified ones, one character at a time, from OpenCC's
// character table (opencc-js). Matching needs no phrase conversion: a listed word and the text are
// folded the same way, so "賭博" and "赌博" meet at one form whatever the sentence around them.
import TS_CHARACTERS from "opencc-js/dict/TSCharacters";

function readPairs(dict: string) {
  const table = new Map<string, string>();
  for (const pair of dict.split("|")) {
    const [from, to] = pair.split(" ");
    if (from && to && from !== to) table.set(from, to);
  }
  // A few targets are themselves listed (X -> Y -> Z): follow to the end, so folding twice changes nothing.
  for (const [from, to] of table) {
    let end = to;
    for (let hops = 0; table.has(end) && hops < 4; hops++) end = table.get(end)!;
    table.set(from, end);
  }
  return table;
}

const pairs = readPairs(TS_CHARACTERS);
/** By UTF-16 unit for the common case (a lookup in a typed array per character); a map for the rest. */
const BMP = new Uint16Array(0x10000);
const WIDE = new Map<string, string>();
for (const [from, to] of pairs) {
  if (from.length === 1 && to.length === 1) BMP[from.charCodeAt(0)] = to.charCodeAt(0);
  else WIDE.set(from, to);
}
const FIRST_HAN = 0x3400;
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** The simplified form of one UTF-16 unit of the Basic Multilingual Plane, or 0 when it has none. */
export function foldedUnit(code: number) {
  return code < FIRST_HAN ? 0 : BMP[code];
}

/** The text with every traditional character replaced by its simplified form; the same string when none is. */
export function foldTraditional(text: string) {
  let out: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < FIRST_HAN) {
      if (out !== null) out += text[i];
      continue;
    }
    const wide = isHighSurrogate(c) ? WIDE.get(text.slice(i, i + 2)) : undefined;
    const folded = wide ?? (BMP[c] ? String.fromCharCode(BMP[c]) : null);
    if (folded !== null) {
      out ??= text.slice(0, i);
      out += folded;
      if (wide !== undefined) i++;
    } else if (out !== null) out += text[i];
  }
  return out ?? text;
}
