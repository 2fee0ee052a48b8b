import crypto from "node:crypto";
import type { Request } from "express";
import { readLanguageCookie, type TLanguage } from "../../app/i18n/config";
import { getEnv } from "../env";

export function getRequestLanguage(req: Pick<Request, "headers">): TLanguage {
  return readLanguageCookie(req.headers.cookie);
}

/**
 * Platform administration before accounts exist: a bearer token from ADMIN_API_TOKEN.
 * The accounts issue replaces this with the platform administrator role.
 */
export function isPlatformAdmin(req: Pick<Request, "headers">): boolean {
  const expected = getEnv().ADMIN_API_TOKEN;
  const header = req.headers.authorization ?? "";
  if (!expected || !header.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7));
  const want = Buffer.from(expected);
  return given.length === want.length && crypto.timingSafeEqual(given, want);
}
