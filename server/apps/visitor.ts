// An H5 app's anonymous visitor: a random 128-bit id in an httpOnly cookie kept for a
// year, so a visitor who never signs in still has their own history, feedback and free count.
import crypto from "node:crypto";
import type { Request, Response } from "express";
import { readCookie } from "../http/auth-context";

export const VISITOR_COOKIE = "zl_visitor";
const MAX_AGE_MS = 365 * 24 * 3600_000;
const VISITOR_ID = /^[0-9a-f]{32}$/;

/** The visitor id in a Cookie header, or undefined when there is none (or it is not one of ours). */
export function readVisitorId(cookieHeader: string | null | undefined): string | undefined {
  const id = readCookie(cookieHeader, VISITOR_COOKIE);
  return id && VISITOR_ID.test(id) ? id : undefined;
}

/** The request's visitor id, set as a cookie on the response when the browser had none. */
export function ensureVisitorId(req: Pick<Request, "headers" | "secure">, res: Pick<Response, "cookie" | "headersSent">): string {
  const existing = readVisitorId(req.headers.cookie);
  if (existing) return existing;
  const id = crypto.randomBytes(16).toString("hex");
  if (!res.headersSent) res.cookie(VISITOR_COOKIE, id, { httpOnly: true, sameSite: "lax", secure: req.secure, path: "/", maxAge: MAX_AGE_MS });
  return id;
}
