// The storage job's reads (Prisma only here): characters each account keeps in its training sets.
import { getDb, type TDbOrTx } from "../../db/client";

export type TStorageHolder = { accountId: string; chars: number; pausedAt: Date | null };

/**
 * Accounts keeping more than `free` training characters (sets not deleted), and accounts whose
 * knowledge service is paused whatever they keep (so that one now within the allowance resumes).
 */
export async function listStorageHolders(free: number, only: string[] | null = null, db: TDbOrTx = getDb()): Promise<TStorageHolder[]> {
  const rows = await db.$queryRaw<{ id: string; chars: bigint | number | null; paused_at: Date | null }[]>`
    SELECT a.id, COALESCE(s.chars, 0) AS chars, a.knowledge_paused_at AS paused_at
    FROM account a
    LEFT JOIN (SELECT owner_account_id, SUM(char_count)::bigint AS chars FROM training_set WHERE deleted_at IS NULL GROUP BY owner_account_id) s ON s.owner_account_id = a.id
    WHERE (s.chars > ${free} OR a.knowledge_paused_at IS NOT NULL) AND (${only}::text[] IS NULL OR a.id = ANY(${only}::text[]))
    ORDER BY a.id`;
  return rows.map((r) => ({ accountId: r.id, chars: Number(r.chars ?? 0), pausedAt: r.paused_at }));
}
