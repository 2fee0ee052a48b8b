// "At most 8 characters" for names, as Chinese products count them: a CJK character is one, and
// two Latin letters or digits together count as one.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

export function displayLength(text: string): number {
  let half = 0;
  for (const ch of text) half += WIDE.test(ch) ? 2 : 1;
  return Math.ceil(half / 2);
}
