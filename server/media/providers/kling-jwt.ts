// Kling's API takes no static key: the caller signs a short-lived JWT (HS256, header
// {alg, typ:"JWT"}, payload {iss: access key, exp: now + 30 min, nbf: now - 5 s}) with the secret
// key and sends it as a bearer token. Signing on every call would work but costs an HMAC and makes
// every request carry a different token, so a token is kept per key pair until a few minutes
// before it expires.
import { SignJWT } from "jose";
import { ProviderError } from "./provider";

const TOKEN_LIFETIME_S = 1800;
/** Kling's own examples start validity a few seconds back, for clocks that run slightly ahead of Kling's. */
const NOT_BEFORE_SKEW_S = 5;
/** A cached token is replaced this long before it expires, so a slow request never arrives with a dead token. */
const RENEW_BEFORE_MS = 5 * 60_000;
const CACHE_MAX = 200;

type TCachedToken = { token: string; expiresAtMs: number };
const tokens = new Map<string, TCachedToken>();

/** The channel's key as entered, "accessKey:secretKey"; a key without both halves cannot sign anything. */
export function splitKlingSecret(secret: string) {
  const at = secret.indexOf(":");
  const accessKey = at > 0 ? secret.slice(0, at).trim() : "";
  const secretKey = at > 0 ? secret.slice(at + 1).trim() : "";
  if (!accessKey || !secretKey) throw new ProviderError("auth", "Kling channel key must be entered as accessKey:secretKey");
  return { accessKey, secretKey };
}

export async function signKlingToken(accessKey: string, secretKey: string, nowMs = Date.now()) {
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(accessKey)
    .setExpirationTime(now + TOKEN_LIFETIME_S)
    .setNotBefore(now - NOT_BEFORE_SKEW_S)
    .sign(new TextEncoder().encode(secretKey));
}

/** The bearer token for a channel key: the cached one while it has a few minutes left, else a fresh one. */
export async function getKlingToken(secret: string, nowMs = Date.now()) {
  const cached = tokens.get(secret);
  if (cached && cached.expiresAtMs - RENEW_BEFORE_MS > nowMs) return cached.token;
  const { accessKey, secretKey } = splitKlingSecret(secret);
  const token = await signKlingToken(accessKey, secretKey, nowMs);
  if (tokens.size >= CACHE_MAX) tokens.delete(tokens.keys().next().value as string);
  tokens.set(secret, { token, expiresAtMs: (Math.floor(nowMs / 1000) + TOKEN_LIFETIME_S) * 1000 });
  return token;
}

/** Kling refused the token (a rotated secret, a clock gone wrong): the next call signs anew. */
export function forgetKlingToken(secret: string) {
  tokens.delete(secret);
}
