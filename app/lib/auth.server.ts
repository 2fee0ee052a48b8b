import { redirect } from "@remix-run/node";
import { resolveSession, SESSION_COOKIE } from "../../server/auth/session.service";
import { readCookie } from "../../server/http/auth-context";
import { hasRole } from "../../server/accounts/access";
import { toSafeRedirect } from "../../server/lib/safe-redirect";
import { toMobiPath, isMobiPath } from "../route-table";

export async function getSessionAccount(request: Request) {
  const auth = await resolveSession(readCookie(request.headers.get("cookie"), SESSION_COOKIE));
  return auth?.account ?? null;
}

/** Pages that need a signed-in account send others to /login, and back afterwards. */
export async function requireSessionAccount(request: Request) {
  const account = await getSessionAccount(request);
  if (!account) {
    const url = new URL(request.url);
    const login = isMobiPath(url.pathname) ? toMobiPath("/login") : "/login";
    throw redirect(`${login}?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return account;
}

/** A page the account may not open answers the no-access page. */
export async function requirePageRole(request: Request, ...roles: string[]) {
  const account = await requireSessionAccount(request);
  if (!hasRole(account, ...roles)) throw redirect(isMobiPath(new URL(request.url).pathname) ? "/mobi/no_page_perm" : "/no_page_perm");
  return account;
}

/** Only same-site paths: a login link must not become an open redirect. */
export function safeRedirect(target: string | null | undefined, fallback = "/workspace") {
  return toSafeRedirect(target, fallback);
}

/** Where signing in or up lands when no `redirect` names a page: the workspace, on a phone its /mobi twin. */
export function landingPath(request: Request) {
  return isMobiPath(new URL(request.url).pathname) ? toMobiPath("/workspace") : "/workspace";
}
