// The Postgres store of rate-limit windows (Prisma only here): one atomic upsert per hit.
import { Prisma } from "../db/generated/client";
import { getDb, type TDbOrTx } from "../db/client";

/** Counts one hit in the window and answers the window's hits so far (this one included). */
export async function incrementWindow(key: string, windowStart: number, expiresAt: Date, tx: TDbOrTx = getDb()) {
  const rows = await tx.$queryRaw<{ hits: number }[]>(Prisma.sql`
    INSERT INTO rate_window (key, window_start, hits, expires_at)
    VALUES (${key}, ${BigInt(windowStart)}, 1, (${expiresAt.toISOString()}::timestamptz AT TIME ZONE 'UTC'))
    ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_window.hits + 1
    RETURNING hits`);
  return Number(rows[0]?.hits ?? 1);
}

export async function deleteExpiredWindows(before: Date, tx: TDbOrTx = getDb()) {
  await tx.rateWindow.deleteMany({ where: { expiresAt: { lt: before } } });
}
