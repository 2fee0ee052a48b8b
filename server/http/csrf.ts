// CSRF protection for writes made with the session cookie: the double-submit pattern. A readable
// cookie holds a random token; our pages echo it in a header (X-CSRF-Token) or a form field
// (_csrf). Another site can make the browser send cookies, but cannot read them to echo.
import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { AppError } from "../errors/app-error";
import { randomToken } from "../lib/secret-box";
import { sendError } from "./envelope-response";
import { readCookie } from "./auth-context";

export const CSRF_COOKIE = "zl_csrf";
export const CSRF_HEADER = "x-csrf-token";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** Gives every browser a token on its first page or API call. */
export function issueCsrfCookie(req: Request, res: Response, next: NextFunction) {
  if (!readCookie(req.headers.cookie, CSRF_COOKIE)) {
    res.cookie(CSRF_COOKIE, randomToken(24), { httpOnly: false, sameSite: "lax", secure: req.secure, path: "/", maxAge: 365 * 24 * 3600_000 });
  }
  next();
}

function equal(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** The request echoes its CSRF cookie's token (`given`: the header's, or the form field's). */
export function echoesCsrfCookie(cookieHeader: string | undefined, given: string | undefined) {
  const cookie = readCookie(cookieHeader, CSRF_COOKIE);
  return Boolean(cookie && given && equal(cookie, given));
}

/** After body parsing. Bearer-token calls carry no ambient credential and are not checked. */
export function verifyCsrf(req: Request, res: Response, next: NextFunction) {
  if (SAFE.has(req.method) || req.headers.authorization?.startsWith("Bearer ")) return next();
  const given = (req.headers[CSRF_HEADER] as string | undefined) ?? (typeof req.body?._csrf === "string" ? req.body._csrf : undefined);
  if (echoesCsrfCookie(req.headers.cookie, given)) return next();
  sendError(req, res, new AppError("csrf_failed"));
}
