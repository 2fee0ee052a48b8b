// A user's statement lines, read from their wallet ENTRIES (not from who started a transaction): one
// line per transaction that touched their wallets, its amount the net change of their coins and
// gift credit (frozen coins are the withdrawal's own business). The line's type is decided here,
// in SQL, so filters and pages agree: a purchase is a dividend to its sharer, sale income to its
// developer and a purchase to its buyer, as the memo names them.
import { getDb, type TDbOrTx } from "../../db/client";

export type TLineRow = {
  seq: string;
  id: string;
  kind: string;
  type: string;
  memo: Record<string, unknown>;
  created_at: Date;
  amount: string;
  gift: string;
  withdrawal_state: string | null;
};

export type TLineQuery = {
  accountId: string;
  types: readonly string[];
  from: Date | null;
  to: Date | null;
  appId: string | null;
  /** Lines older than this seq (the previous page's last). */
  before: string | null;
  limit: number;
};

const LINES = `
  WITH mine AS (
    SELECT e.transaction_id, MIN(e.id) AS seq,
      COALESCE(SUM(e.amount_micro) FILTER (WHERE e.ledger_account_id <> 'frozen:' || $1), 0) AS amount,
      COALESCE(SUM(e.amount_micro) FILTER (WHERE e.ledger_account_id = 'gift:' || $1), 0) AS gift
    FROM ledger_entry e
    WHERE e.ledger_account_id IN ('spendable:' || $1, 'gift:' || $1, 'frozen:' || $1)
    GROUP BY e.transaction_id
  ), lines AS (
    SELECT m.seq, t.id, t.kind, t.memo, t.created_at, m.amount, m.gift,
      CASE
        WHEN m.amount = 0 THEN 'none'
        WHEN t.kind = 'purchase' AND m.amount > 0 AND t.memo->>'sharerAccountId' = $1 THEN 'dividend'
        WHEN t.kind = 'purchase' AND m.amount > 0 THEN 'sale_income'
        WHEN t.kind = 'purchase' THEN 'purchase'
        WHEN t.kind = 'use_charge' AND m.amount > 0 THEN 'sale_income'
        WHEN t.kind = 'use_charge' THEN 'use_charge'
        WHEN t.kind = 'metered_charge' AND m.amount > 0 THEN 'sale_income'
        WHEN t.kind = 'metered_charge' THEN 'metered'
        WHEN t.kind = 'media_hold' THEN 'metered'
        WHEN t.kind IN ('media_charge', 'media_release') AND m.amount > 0 THEN 'refund'
        WHEN t.kind IN ('refund', 'chat_refund') AND m.amount > 0 THEN 'refund'
        WHEN t.kind IN ('refund', 'chat_refund') THEN 'refund_paid'
        WHEN t.kind = 'chat_charge' THEN 'chat_charge'
        WHEN t.kind = 'storage_charge' THEN 'storage'
        WHEN t.kind IN ('edition', 'registration') THEN 'edition'
        WHEN t.kind = 'bot_package' THEN 'bot_package'
        WHEN t.kind = 'withdrawal_submit' THEN 'withdrawal'
        WHEN t.kind = 'withdrawal_return' THEN 'withdrawal_return'
        WHEN t.kind = 'topup' THEN 'topup'
        WHEN t.kind = 'bonus' THEN 'bonus'
        ELSE 'adjustment'
      END AS type
    FROM mine m JOIN ledger_transaction t ON t.id = m.transaction_id
  )`;

const FILTERS = `l.type = ANY($2::text[])
    AND ($3::timestamptz IS NULL OR l.created_at >= $3::timestamptz)
    AND ($4::timestamptz IS NULL OR l.created_at < $4::timestamptz)
    AND ($5::text IS NULL OR l.memo->>'appId' = $5::text)`;

export async function listLines(q: TLineQuery, db: TDbOrTx = getDb()): Promise<TLineRow[]> {
  return db.$queryRawUnsafe<TLineRow[]>(
    `${LINES}
    SELECT l.seq::text AS seq, l.id, l.kind, l.type, l.memo, l.created_at, l.amount::text AS amount, l.gift::text AS gift, w.state::text AS withdrawal_state
    FROM lines l LEFT JOIN withdrawal w ON w.id = l.memo->>'withdrawalId' AND l.kind = 'withdrawal_submit'
    WHERE ${FILTERS} AND ($6::bigint IS NULL OR l.seq < $6::bigint)
    ORDER BY l.seq DESC LIMIT $7`,
    q.accountId,
    q.types,
    q.from,
    q.to,
    q.appId,
    q.before,
    q.limit,
  );
}

/** Sums of the lines of these types since each of `since` (and in all). */
export async function sumLines(accountId: string, types: readonly string[], since: Date[], db: TDbOrTx = getDb()): Promise<{ all: number; since: number[] }> {
  const cols = since.map((_, i) => `COALESCE(SUM(l.amount) FILTER (WHERE l.created_at >= $${i + 3}::timestamptz), 0)::text AS s${i}`).join(", ");
  const rows = await db.$queryRawUnsafe<Record<string, string>[]>(
    `${LINES}
    SELECT COALESCE(SUM(l.amount), 0)::text AS all_time${cols ? `, ${cols}` : ""} FROM lines l WHERE l.type = ANY($2::text[])`,
    accountId,
    types,
    ...since,
  );
  return { all: Number(rows[0].all_time), since: since.map((_, i) => Number(rows[0][`s${i}`])) };
}

/** The apps named on this user's lines of these types, for the app filter. */
export async function listLineApps(accountId: string, types: readonly string[], db: TDbOrTx = getDb()) {
  return db.$queryRawUnsafe<{ app_id: string; app_name: string | null }[]>(
    `${LINES}
    SELECT l.memo->>'appId' AS app_id, MAX(l.memo->>'appName') AS app_name FROM lines l
    WHERE l.type = ANY($2::text[]) AND l.memo->>'appId' IS NOT NULL
    GROUP BY l.memo->>'appId' ORDER BY MAX(l.seq) DESC LIMIT 200`,
    accountId,
    types,
  );
}
