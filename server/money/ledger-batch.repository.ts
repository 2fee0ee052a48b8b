// The SQL of group-committed spends (ledger-batch.ts): one read of a payer's wallet with the keys of
// a batch, and one statement that posts a whole batch of transactions. On PostgreSQL both run on a
// node-postgres pool of their own: the batch statement holds the payer's row locks until it commits,
// and Prisma's query engine costs each raw query about as much CPU again as the database does, which
// under contention is time every queued caller waits. On the embedded database (one session shared
// through a queue) they stay on Prisma's connections, as the turn read does.
import pg from "pg";
import { getDb } from "../db/client";
import { logger } from "../lib/logger";
import { singleton } from "../lib/singleton";

function ledgerPool(): pg.Pool | null {
  const url = process.env.DATABASE_URL;
  if (!url || process.env.ZELIN_EMBEDDED_DB === "1") return null;
  return singleton(`ledger-pool:${url}`, () => {
    const pool = new pg.Pool({ connectionString: url, max: 8, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
    // An idle connection the server closed (restart, dropped test database) must not crash the process.
    pool.on("error", (err) => logger.warn({ err }, "ledger pool: idle connection lost"));
    return pool;
  });
}

/** A named statement on the pool (parsed and planned once per connection), else Prisma's raw query. */
async function query<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = ledgerPool();
  if (pool) return (await pool.query({ name, text, values })).rows as T[];
  return getDb().$queryRawUnsafe<T[]>(text, ...values);
}

export type TBatchRead = { spendable: string | null; gift: string | null; existing: { key: string; id: string; hash: string }[] | null };

/** The payer's coins and gift credit, and the transactions already under any of `keys`, in one round trip. */
export async function readPayer(payer: string, keys: string[]): Promise<TBatchRead> {
  const rows = await query<TBatchRead>(
    "zl_ledger_batch_read",
    `SELECT
      (SELECT balance_micro::text FROM ledger_account WHERE id = 'spendable:' || $1) AS spendable,
      (SELECT balance_micro::text FROM ledger_account WHERE id = 'gift:' || $1) AS gift,
      (SELECT json_agg(json_build_object('key', idempotency_key, 'id', id, 'hash', request_hash)) FROM ledger_transaction WHERE idempotency_key = ANY($2::text[])) AS existing`,
    [payer, keys],
  );
  return rows[0];
}

export type TBatchTx = { id: string; key: string; hash: string; kind: string; accountId: string; memo: string };
export type TBatchLeg = { txId: string; account: string; amount: number };
export type TBatchRow = { entries: { tx: string; account: string; after: string | null }[] | null };

/**
 * Posts many transactions in ONE statement (so one commit): inserts them `ON CONFLICT
 * (idempotency_key) DO NOTHING`, keeps only the legs of those inserted, locks the kept accounts they
 * touch in id order, all before any balance moves (as insertPosting does: no deadlock with single
 * postings), moves each kept balance once by the sum of its legs, and writes the entries in the
 * order given, each with the running balance after it: the new balance less the batch's total move
 * plus the running sum up to and including the entry. The kept balance's CHECK refuses the whole
 * statement if the payer's balance no longer covers the batch (another process spent meanwhile);
 * nothing is then written.
 * A key taken meanwhile (by another process, or a caller's transaction) fails the statement too, on
 * purpose: the batch was planned with that request's money spent (gift credit first), so the
 * others' splits would be wrong without it. The caller then posts each request alone.
 */
export async function insertBatch(txs: TBatchTx[], legs: TBatchLeg[]): Promise<TBatchRow> {
  const rows = await query<TBatchRow>(
    "zl_ledger_batch_post",
    `WITH req(id, key, hash, kind, account_id, memo) AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])),
      legs(tx_id, account_id, amount, ord) AS (SELECT * FROM unnest($7::text[], $8::text[], $9::bigint[]) WITH ORDINALITY),
      t AS (
        INSERT INTO ledger_transaction (id, idempotency_key, request_hash, kind, account_id, memo)
        SELECT id, key, hash, kind, account_id, memo::jsonb FROM req
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING id),
      ins AS MATERIALIZED (SELECT l.* FROM legs l JOIN t ON t.id = l.tx_id),
      lk AS MATERIALIZED (
        SELECT a.id FROM ledger_account a
        WHERE a.id IN (SELECT account_id FROM ins) AND a.kept
        ORDER BY a.id FOR NO KEY UPDATE),
      d AS (SELECT account_id, SUM(amount)::bigint AS delta FROM ins GROUP BY account_id),
      u AS (
        UPDATE ledger_account a SET balance_micro = a.balance_micro + d.delta
        FROM d JOIN lk ON lk.id = d.account_id
        WHERE a.id = d.account_id AND (SELECT count(*) FROM lk) > 0
        RETURNING a.id, a.balance_micro, d.delta),
      e AS (
        INSERT INTO ledger_entry (transaction_id, ledger_account_id, amount_micro, balance_after_micro)
        SELECT i.tx_id, i.account_id, i.amount, u.balance_micro - u.delta + SUM(i.amount) OVER (PARTITION BY i.account_id ORDER BY i.ord)
        FROM ins i LEFT JOIN u ON u.id = i.account_id
        ORDER BY i.ord
        RETURNING transaction_id, ledger_account_id, balance_after_micro)
    SELECT CASE WHEN (SELECT count(*) FROM t) = cardinality($1::text[]) THEN 1
        ELSE ('ledger_batch_key_taken:' || (SELECT count(*) FROM t))::int END AS all_inserted,
      (SELECT json_agg(json_build_object('tx', transaction_id, 'account', ledger_account_id, 'after', balance_after_micro::text)) FROM e) AS entries`,
    [
      txs.map((t) => t.id),
      txs.map((t) => t.key),
      txs.map((t) => t.hash),
      txs.map((t) => t.kind),
      txs.map((t) => t.accountId),
      txs.map((t) => t.memo),
      legs.map((l) => l.txId),
      legs.map((l) => l.account),
      legs.map((l) => String(l.amount)),
    ],
  );
  return rows[0];
}
