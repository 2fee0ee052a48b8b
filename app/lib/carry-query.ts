// Every navigation keeps the current query values and carries touser from the previous
// route. The target's own values win; everything else on the current URL rides along.
import { isMobiPath, toMobiPath } from "../route-table";

export const TOUSER = "touser";

export function carryQuery(to: string, currentSearch: string, opts: { mobi?: boolean } = {}): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(to) || to.startsWith("//") || to.startsWith("#")) return to;
  const url = new URL(to, "http://x");
  const current = new URLSearchParams(currentSearch);
  for (const [key, value] of current) {
    if (!url.searchParams.has(key)) url.searchParams.append(key, value);
  }
  let pathname = url.pathname;
  if (opts.mobi && !isMobiPath(pathname)) pathname = toMobiPath(pathname);
  const search = url.searchParams.toString();
  return `${pathname}${search ? `?${search}` : ""}${url.hash}`;
}

/** Adds touser to an API URL, except to the enterprise lookups, which never take it. */
const NO_TOUSER = ["/api/v1/qy/info", "/api/v1/qy/info_by_domain"];

export function withTouser(apiUrl: string, touser: string | null | undefined): string {
  if (!touser) return apiUrl;
  const url = new URL(apiUrl, "http://x");
  if (NO_TOUSER.includes(url.pathname) || url.searchParams.has(TOUSER)) return apiUrl;
  url.searchParams.set(TOUSER, touser);
  const isAbsolute = /^https?:\/\//i.test(apiUrl);
  return isAbsolute ? url.toString() : `${url.pathname}${url.search}${url.hash}`;
}
