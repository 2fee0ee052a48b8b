// Splitting a document's text into passages (smart text sets): pieces of about TARGET characters
// that end at a paragraph or sentence where one is near, so a passage reads as a whole thought.
// Consecutive passages overlap a little, so an answer cut at a boundary is still found whole.
export const PASSAGE_TARGET_CHARS = 500;
const MAX_CHARS = 800;
const OVERLAP_CHARS = 60;

const SENTENCE_END = /[。！？!?；;]|\.(?=\s)|\n/g;

export function chunkText(text: string, target = PASSAGE_TARGET_CHARS): string[] {
  const clean = text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+/g, " ")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (!clean) return [];
  const paragraphs = clean
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const pieces: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim()) pieces.push(current.trim());
    current = "";
  };
  for (const paragraph of paragraphs) {
    if (current && current.length + paragraph.length + 1 > target) flush();
    if (paragraph.length <= MAX_CHARS) {
      current = current ? `${current}\n${paragraph}` : paragraph;
      continue;
    }
    // A long paragraph: cut at sentence ends, or hard at MAX_CHARS when there are none.
    for (const sentence of splitSentences(paragraph)) {
      if (current && current.length + sentence.length > target) flush();
      current += sentence;
    }
  }
  flush();
  if (pieces.length < 2) return pieces;
  return pieces.map((piece, i) => (i === 0 ? piece : `${tail(pieces[i - 1])}${piece}`));
}

function splitSentences(paragraph: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of paragraph.matchAll(SENTENCE_END)) {
    const end = m.index! + m[0].length;
    out.push(...hardCut(paragraph.slice(start, end)));
    start = end;
  }
  if (start < paragraph.length) out.push(...hardCut(paragraph.slice(start)));
  return out.filter((s) => s.trim());
}

function hardCut(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += MAX_CHARS) out.push(s.slice(i, i + MAX_CHARS));
  return out;
}

/** The end of the previous passage, from a sentence start where possible. */
function tail(previous: string) {
  const end = previous.slice(-OVERLAP_CHARS);
  const cut = end.search(/(?<=[。！？!?.；;\n]\s*)\S/);
  const piece = cut > 0 ? end.slice(cut) : end;
  return piece.trim() ? `${piece.trim()}\n` : "";
}
