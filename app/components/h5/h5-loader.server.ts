// What the H5 pages load first: the app as the viewer may see it, or a redirect to /mobi/error
// with the reason (missing, removed, off shelf, no permission...). The visitor cookie is set here
// so the first chat request already carries it.
import { redirect } from "@remix-run/node";
import { lookupH5App, type TH5App } from "../../../server/apps/h5-view.service";
import { ensureVisitorId } from "../../../server/apps/visitor";
import { getSessionAccount } from "../../lib/auth.server";
import { isMobiPath } from "../../route-table";
import { workshopAppPath } from "../workshops/workshop-links";

export type TH5PageData = { app: TH5App; viewerId: string | null };

/** The phone error page for `reason`, keeping touser (every navigation carries it). */
export function toH5ErrorPath(reason: string, url: URL, extra: Record<string, string> = {}) {
  const q = new URLSearchParams({ reason, ...extra });
  const touser = url.searchParams.get("touser");
  if (touser) q.set("touser", touser);
  return `/mobi/error?${q}`;
}

/** `workshopPage`: the caller is the workshop run page itself, which the other pages send workshop apps to. */
/** The workshop run page of a workshop app, on the phone paths when the link was, keeping touser. */
function toWorkshopAppPath(appId: string, url: URL) {
  const touser = url.searchParams.get("touser");
  const path = workshopAppPath(appId, isMobiPath(url.pathname));
  return touser ? `${path}&touser=${encodeURIComponent(touser)}` : path;
}

export async function loadH5Page(request: Request, opts: { workshopPage?: boolean } = {}): Promise<{ data: TH5PageData; headers: Headers }> {
  const url = new URL(request.url);
  const account = await getSessionAccount(request);
  const found = await lookupH5App(url.searchParams.get("app"), account ? { id: account.id, enterpriseId: account.enterpriseId ?? null } : null);
  if (!found.ok) {
    if (found.reason === "login_required") throw redirect(`/mobi/login?redirect=${encodeURIComponent(url.pathname + url.search)}`);
    throw redirect(toH5ErrorPath(found.reason, url, found.removedReason ? { detail: found.removedReason.slice(0, 200) } : {}));
  }
  // A workshop app runs on its own page, wherever its link led (the share link, the chat, the intro).
  if (found.app.type === "workshop" && !opts.workshopPage) throw redirect(toWorkshopAppPath(found.app.id, url));
  const headers = new Headers();
  if (!account) setVisitorCookie(request, headers);
  return { data: { app: found.app, viewerId: account?.id ?? null }, headers };
}

/** Phones (and tablets' mobile browsers) go straight to the chat; desktops see the share card. */
export function isPhoneUserAgent(ua: string | null) {
  return !!ua && /Mobi|Android|iPhone|iPod|iPad|HarmonyOS|MicroMessenger|Windows Phone/i.test(ua);
}

/** RUN's ensureVisitorId speaks express; a loader answers Fetch headers, so adapt both sides. */
function setVisitorCookie(request: Request, headers: Headers) {
  const url = new URL(request.url);
  const req = {
    headers: { cookie: request.headers.get("cookie") ?? undefined },
    secure: url.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https",
  };
  const res = {
    headersSent: false,
    cookie(name: string, value: string, opts: { httpOnly?: boolean; sameSite?: string; secure?: boolean; path?: string; maxAge?: number }) {
      const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${opts.path ?? "/"}`];
      if (opts.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(opts.maxAge / 1000)}`, `Expires=${new Date(Date.now() + opts.maxAge).toUTCString()}`);
      if (opts.httpOnly) parts.push("HttpOnly");
      if (opts.secure) parts.push("Secure");
      if (opts.sameSite) parts.push(`SameSite=${opts.sameSite[0].toUpperCase()}${opts.sameSite.slice(1)}`);
      headers.append("Set-Cookie", parts.join("; "));
      return this;
    },
  };
  ensureVisitorId(req as never, res as never);
}
