// Who is calling: resolved from the session cookie once per request, only when asked.
import type { Request, Response } from "express";
import { AppError } from "../errors/app-error";
import { readLanguageCookie } from "../../common/languages";
import { resolveSession, SESSION_COOKIE } from "../auth/session.service";
import type { TSessionAccount } from "../accounts/accounts.schema";

type TAuth = { sessionId: string; account: TSessionAccount } | null;
const cache = new WeakMap<object, Promise<TAuth>>();

const cookiePatterns = new Map<string, RegExp>();

export function readCookie(header: string | null | undefined, name: string) {
  let pattern = cookiePatterns.get(name);
  if (!pattern) cookiePatterns.set(name, (pattern = new RegExp(`(?:^|;\\s*)${name}=([^;]+)`)));
  const match = pattern.exec(header ?? "");
  return match ? decodeURIComponent(match[1]) : undefined;
}

export function getAuth(req: Pick<Request, "headers">): Promise<TAuth> {
  let pending = cache.get(req);
  if (!pending) {
    pending = resolveSession(readCookie(req.headers.cookie, SESSION_COOKIE));
    cache.set(req, pending);
  }
  return pending;
}

/** The signed-in account, or 110003 (not_logged_in: the browser opens the login page). */
export async function requireAuth(req: Pick<Request, "headers">) {
  const auth = await getAuth(req);
  if (!auth) throw new AppError("not_logged_in");
  return auth;
}

export function setSessionCookie(req: Request, res: Response, session: { token: string; maxAgeSeconds: number }) {
  res.cookie(SESSION_COOKIE, session.token, { httpOnly: true, sameSite: "lax", secure: req.secure, path: "/", maxAge: session.maxAgeSeconds * 1000 });
}

export function clearSessionCookie(req: Request, res: Response) {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "lax", secure: req.secure, path: "/" });
}

export function requestMeta(req: Request) {
  return { ip: req.ip ?? req.socket.remoteAddress ?? "unknown", userAgent: req.headers["user-agent"], language: readLanguageCookie(req.headers.cookie) };
}
