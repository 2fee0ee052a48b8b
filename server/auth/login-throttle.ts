// Login throttling: per account and per address, with a lockout that ends by itself.
import { AppError } from "../errors/app-error";
import * as repo from "../accounts/accounts.repository";

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_IP = 20;

async function lockedUntil(by: { account?: string; ip?: string }, max: number, now: Date) {
  const failures = await repo.findRecentFailures(by, new Date(now.getTime() - THROTTLE_WINDOW_MS));
  if (failures.length < max) return null;
  // Locked for a window from the failure that reached the limit; it ends by itself.
  const until = failures[max - 1].createdAt.getTime() + THROTTLE_WINDOW_MS;
  return until > now.getTime() ? until : null;
}

export async function assertLoginAllowed(account: string, ip: string, now = new Date()) {
  const until = Math.max((await lockedUntil({ account }, MAX_FAILURES_PER_ACCOUNT, now)) ?? 0, (await lockedUntil({ ip }, MAX_FAILURES_PER_IP, now)) ?? 0);
  if (until > now.getTime()) {
    throw new AppError("login_locked", { params: { minutes: Math.ceil((until - now.getTime()) / 60_000) }, data: { retry_at: new Date(until).toISOString() } });
  }
}

export async function recordLoginAttempt(account: string, ip: string, success: boolean) {
  await repo.insertLoginAttempt({ account, ip, success });
}
