// The web page reader plugin: fetches a page the model names through the SSRF guard (docs/security.md)
// and hands back its readable text, cut to what a prompt can hold.
import { guardedFetch } from "../../net/guarded-fetch";

export const WEB_READER_MAX_CHARS = 8000;
const MAX_BYTES = 2 * 1024 * 1024;

export async function readWebPage(args: { url?: unknown }, signal?: AbortSignal) {
  const url = typeof args.url === "string" ? args.url.trim() : "";
  if (!/^https?:\/\//i.test(url)) throw new Error("a http(s) url is required");
  const {
    response,
    body,
    url: finalUrl,
  } = await guardedFetch(
    url,
    { headers: { "user-agent": "ZelinBot/1.0 (+web_reader)", accept: "text/html,text/plain;q=0.9,*/*;q=0.5" }, signal: withTimeout(signal, 15_000) },
    { maxBytes: MAX_BYTES, timeoutMs: 15_000 },
  );
  if (!response.ok) throw new Error(`the page answered HTTP ${response.status}`);
  const type = response.headers.get("content-type") ?? "";
  const raw = body.toString("utf8");
  const isHtml = /html|xml/i.test(type) || /^\s*</.test(raw);
  const { title, text } = isHtml ? extractReadableText(raw) : { title: "", text: raw.trim() };
  const truncated = text.length > WEB_READER_MAX_CHARS;
  return { url: finalUrl, title, text: truncated ? `${text.slice(0, WEB_READER_MAX_CHARS)}…` : text, truncated };
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  deg: "°",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  middot: "·",
  times: "×",
  yen: "¥",
  euro: "€",
};

function decodeEntities(s: string) {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1].toLowerCase() === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** The text a reader would see: scripts, styles and page chrome dropped, blocks on their own lines. */
export function extractReadableText(html: string) {
  const title = decodeEntities(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "")
    .replace(/\s+/g, " ")
    .trim();
  const main = /<(main|article)\b[^>]*>([\s\S]*?)<\/\1>/i.exec(html)?.[2] ?? /<body\b[^>]*>([\s\S]*?)<\/body>/i.exec(html)?.[1] ?? html;
  const text = main
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(script|style|noscript|svg|nav|header|footer|aside|form|iframe|template)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|h[1-6]|tr|section|article|blockquote|pre)>/gi, "\n")
    .replace(/<[^>]+>/g, " ");
  const lines = decodeEntities(text)
    .split("\n")
    .map((l) => l.replace(/[ \t\r\f\v]+/g, " ").trim())
    .filter(Boolean);
  return { title, text: lines.join("\n") };
}

/** The caller's cancel and our own time limit, whichever comes first. */
function withTimeout(signal: AbortSignal | undefined, ms: number) {
  return signal ? AbortSignal.any([signal, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms);
}
