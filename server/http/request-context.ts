import crypto from "node:crypto";
import type { Request } from "express";
import { readLanguageCookie, type TLanguage } from "../../common/languages";
import { getEnv } from "../env";
import { hasRole } from "../accounts/access";
import { getAuth } from "./auth-context";

export function getRequestLanguage(req: Pick<Request, "headers">): TLanguage {
  return readLanguageCookie(req.headers.cookie);
}

/**
 * Platform administration: an account with the platform_admin role (created with
 * `npm run admin -- create-platform-admin`), or automation with the ADMIN_API_TOKEN bearer token.
 */
export async function isPlatformAdmin(req: Pick<Request, "headers">): Promise<boolean> {
  if (hasAdminToken(req)) return true;
  return hasRole((await getAuth(req))?.account, "platform_admin");
}

function hasAdminToken(req: Pick<Request, "headers">): boolean {
  const expected = getEnv().ADMIN_API_TOKEN;
  const header = req.headers.authorization ?? "";
  if (!expected || !header.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7));
  const want = Buffer.from(expected);
  return given.length === want.length && crypto.timingSafeEqual(given, want);
}
