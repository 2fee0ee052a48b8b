// Phones opening the public site's home are sent to its /mobi twin, with the query (and so touser)
// kept. A visitor who asks for the desktop site (/?desktop=1, the phone menu's link) keeps it: the
// choice is remembered in a cookie for a year, and /mobi?desktop=0 forgets it. Tablets stay on desktop.
import { redirect } from "@remix-run/node";
import { readCookie } from "../../server/http/auth-context";
import { isMobiPath, MOBI_PREFIX } from "../route-table";

export const SITE_VIEW_COOKIE = "site_view";
const YEAR_SECONDS = 365 * 24 * 60 * 60;
const PHONE_UA = /Mobi|iPhone|iPod|Windows Phone|Android.+Mobile/i;

export function isPhoneBrowser(userAgent: string | null) {
  return Boolean(userAgent && PHONE_UA.test(userAgent));
}

const withQuery = (path: string, url: URL) => {
  const search = url.searchParams.toString();
  return `${path}${search ? `?${search}` : ""}`;
};

/** The home loader's answer (both / and /mobi): a redirect, or the headers the page goes out with. */
export function routeHomeForPhones(request: Request): Headers {
  const url = new URL(request.url);
  const asked = url.searchParams.get("desktop");
  if (asked === "1" || asked === "0") {
    // Remembered, and taken off the URL: every link carries the query along, and this must not ride.
    url.searchParams.delete("desktop");
    const cookie =
      asked === "1" ? `${SITE_VIEW_COOKIE}=desktop; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax` : `${SITE_VIEW_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
    throw redirect(withQuery(asked === "1" ? "/" : MOBI_PREFIX, url), { headers: { "Set-Cookie": cookie } });
  }
  if (isMobiPath(url.pathname)) return new Headers();
  // The answer depends on who asks: caches must not hand a phone's redirect to a desktop.
  const headers = new Headers({ Vary: "User-Agent, Cookie" });
  if (readCookie(request.headers.get("cookie"), SITE_VIEW_COOKIE) === "desktop" || !isPhoneBrowser(request.headers.get("user-agent"))) return headers;
  throw redirect(withQuery(MOBI_PREFIX, url), { headers });
}
