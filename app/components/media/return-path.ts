// The picker's answer (/warehouse?return=...): where to go back to, and the choice added to it.
import type { TMediaItem } from "./media-client";

/** A path on this site ("/agentDetail?id=1"), never another origin ("//evil.example", "https://..."). */
export function safeReturnPath(value: string | null): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  try {
    const url = new URL(value, "http://this.site");
    return url.origin === "http://this.site" ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}

export function withChoice(returnPath: string, item: Pick<TMediaItem, "id" | "url">) {
  const url = new URL(returnPath, "http://this.site");
  url.searchParams.set("media_id", item.id);
  url.searchParams.set("media_url", item.url);
  return `${url.pathname}${url.search}`;
}
