// Sessions: a random token in an httpOnly, SameSite=Lax cookie; the database keeps its hash.
import { randomToken, sha256 } from "../lib/secret-box";
import * as repo from "../accounts/accounts.repository";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { toSessionAccount } from "../accounts/session-account";

export const SESSION_COOKIE = "zl_session";
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export async function startSession(accountId: string, meta: { ip?: string; userAgent?: string } = {}, now = new Date()) {
  const token = randomToken(32);
  await repo.insertSession({
    id: sha256(token),
    accountId,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 300),
  });
  return { token, maxAgeSeconds: SESSION_TTL_MS / 1000 };
}

/** The signed-in account for a cookie token, or null (unknown, revoked, expired, or disabled). */
export async function resolveSession(token: string | undefined | null, now = new Date()): Promise<{ sessionId: string; account: TSessionAccount } | null> {
  if (!token || token.length > 100) return null;
  const session = await repo.findLiveSession(sha256(token), now);
  if (!session || session.account.status !== "active") return null;
  await touchSessionIfDue(session, now);
  return { sessionId: session.id, account: toSessionAccount(session.account) };
}

/** Records that a session is in use, at most every few minutes (one write, not one per request). */
export async function touchSessionIfDue(session: { id: string; lastSeenAt: Date }, now = new Date()) {
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await repo.touchSession(session.id, now);
}

// Callers that start or resolve sessions hand out the same shape.

export async function endSession(sessionId: string, now = new Date()) {
  await repo.revokeSessions({ id: sessionId }, now);
}
