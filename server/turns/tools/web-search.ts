// The networking switch: a web search through a SearXNG-compatible JSON API (SEARCH_API_URL).
// The operator's own search service is trusted by address; nothing else is.
import { getEnv } from "../../env";
import { guardedFetch } from "../../net/guarded-fetch";

const MAX_RESULTS = 5;

export async function searchWeb(args: { query?: unknown }, signal?: AbortSignal) {
  const query = typeof args.query === "string" ? args.query.trim() : "";
  if (!query) throw new Error("a query is required");
  const base = getEnv().SEARCH_API_URL;
  if (!base) throw new Error("web search is not configured on this server");
  const url = new URL(base);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const { response, body } = await guardedFetch(
    url.toString(),
    { headers: { accept: "application/json" }, signal: withTimeout(signal, 10_000) },
    { allow: [`${url.hostname}:${port}`], timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 },
  );
  if (!response.ok) throw new Error(`the search service answered HTTP ${response.status}`);
  let parsed: { results?: Array<{ title?: unknown; url?: unknown; content?: unknown }> };
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw new Error("the search service did not answer JSON");
  }
  const results = (parsed.results ?? []).slice(0, MAX_RESULTS).map((r) => ({
    title: String(r.title ?? "").slice(0, 200),
    url: String(r.url ?? ""),
    snippet: String(r.content ?? "").slice(0, 500),
  }));
  return { query, results };
}

/** The caller's cancel and our own time limit, whichever comes first. */
function withTimeout(signal: AbortSignal | undefined, ms: number) {
  return signal ? AbortSignal.any([signal, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms);
}
