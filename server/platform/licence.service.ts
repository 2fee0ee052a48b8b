// Reads the licence named by LICENCE_FILE. The file is re-read when it changes on disk, so an
// operator can drop in a renewed licence without a restart.
import fs from "node:fs";
import type { KeyObject } from "node:crypto";
import { getEnv } from "../env";
import { logger } from "../lib/logger";
import { evaluateLicence, parsePublicKey, verifyLicence } from "./licence";
import { todayYmd, type TLicencePayload, type TLicenceStatus } from "./licence.schema";

let cache: { file: string; mtimeMs: number; payload: TLicencePayload | null; invalid: boolean } | undefined;
let keyCache: { text: string; key: KeyObject } | undefined;

function loadPayload(file: string, keyText: string | undefined) {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    logger.warn({ file }, "licence file not found: treated as invalid");
    return { payload: null, invalid: true };
  }
  if (cache && cache.file === file && cache.mtimeMs === mtimeMs) return cache;
  if (!keyText) {
    logger.error("LICENCE_FILE is set but LICENCE_PUBLIC_KEY is not: the licence cannot be verified");
    return { payload: null, invalid: true };
  }
  if (keyCache?.text !== keyText) keyCache = { text: keyText, key: parsePublicKey(keyText) };
  const result = verifyLicence(fs.readFileSync(file, "utf8"), keyCache.key);
  if (!result.ok) logger.error({ file, reason: result.reason }, "licence refused");
  cache = { file, mtimeMs, payload: result.ok ? result.payload : null, invalid: !result.ok };
  return cache;
}

export function getLicenceStatus(now = new Date()): TLicenceStatus {
  const env = getEnv();
  if (!env.LICENCE_FILE) return evaluateLicence(null, todayYmd(now, env.LICENCE_TIMEZONE), env.CONTACT_PHONE);
  const { payload, invalid } = loadPayload(env.LICENCE_FILE, env.LICENCE_PUBLIC_KEY);
  return evaluateLicence(payload, todayYmd(now, env.LICENCE_TIMEZONE), env.CONTACT_PHONE, invalid);
}
