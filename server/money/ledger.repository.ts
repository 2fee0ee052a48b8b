// The ledger's SQL (Prisma's raw queries only: the posting is one statement, so a standalone
// posting is its own transaction and holds a wallet's row lock only while that statement runs).
import { getDb, type TDbOrTx } from "../db/client";
import { queryDirect } from "../db/direct-pool";

export type TPostRow = { id: string | null; balances: { id: string; balance: string | null }[] | null };

/**
 * Inserts the transaction (unless its key exists), moves every kept balance, and writes the
 * entries, in one statement. Wallet rows are locked in id order, and all of them before any
 * balance moves (the update waits for the count of locked rows): joined row by row, the update
 * would move one balance and then wait for the next row's lock while holding a moved row, which
 * anyone checking that row's key (an INSERT ... ON CONFLICT) has to wait for. So two postings
 * over the same wallets cannot deadlock. A kept balance that would go below zero violates
 * ledger_account_kept_not_negative and nothing is written; an account that does not exist
 * violates the entries' foreign key, likewise. A key already used returns id null.
 */
export async function insertPosting(
  p: { id: string; key: string; hash: string; kind: string; accountId: string | null; memo: string; accounts: string[]; amounts: string[] },
  db?: TDbOrTx,
): Promise<TPostRow> {
  // Outside a transaction, straight through node-postgres (direct-pool.ts): every chat turn posts its charge here.
  const rows = await queryDirect<TPostRow>(
    {
      name: "zl_insert_posting",
      text: `WITH legs(account_id, amount) AS (SELECT * FROM unnest($1::text[], $2::bigint[])),
      t AS (
        INSERT INTO ledger_transaction (id, idempotency_key, request_hash, kind, account_id, memo)
        VALUES ($3, $4, $5, $6, $7, $8::jsonb)
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING id),
      lk AS MATERIALIZED (
        SELECT a.id FROM ledger_account a
        WHERE a.id = ANY($1::text[]) AND a.kept AND EXISTS (SELECT 1 FROM t)
        ORDER BY a.id FOR NO KEY UPDATE),
      u AS (
        UPDATE ledger_account a SET balance_micro = a.balance_micro + l.amount
        FROM legs l JOIN lk ON lk.id = l.account_id
        WHERE a.id = l.account_id AND (SELECT count(*) FROM lk) > 0
        RETURNING a.id, a.balance_micro),
      e AS (
        INSERT INTO ledger_entry (transaction_id, ledger_account_id, amount_micro, balance_after_micro)
        SELECT t.id, l.account_id, l.amount, u.balance_micro FROM t CROSS JOIN legs l LEFT JOIN u ON u.id = l.account_id
        RETURNING ledger_account_id, balance_after_micro)
    SELECT (SELECT id FROM t) AS id,
      (SELECT json_agg(json_build_object('id', ledger_account_id, 'balance', balance_after_micro::text)) FROM e) AS balances`,
      values: [p.accounts, p.amounts, p.id, p.key, p.hash, p.kind, p.accountId, p.memo],
    },
    db,
  );
  return rows[0];
}

export async function findTransactionByKey(key: string, db: TDbOrTx = getDb()) {
  const rows = await db.$queryRawUnsafe<{ id: string; request_hash: string }[]>(
    `SELECT id, request_hash FROM ledger_transaction WHERE idempotency_key = $1`,
    key,
  );
  return rows[0] ?? null;
}

/** The entries of the transaction under `key` (none when there is none). */
export function listEntriesByKey(key: string, db: TDbOrTx = getDb()) {
  return db.$queryRawUnsafe<{ ledgerAccountId: string; amountMicro: bigint }[]>(
    `SELECT e.ledger_account_id AS "ledgerAccountId", e.amount_micro AS "amountMicro"
     FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id
     WHERE t.idempotency_key = $1 ORDER BY e.id`,
    key,
  );
}

/**
 * Each user's three wallet accounts, created once (never deleted: money does not vanish with an
 * account); answers the users whose wallets this statement created. Only rows not yet there are
 * inserted: an INSERT ... ON CONFLICT on an existing row waits for any transaction that moved its
 * balance, a lock taken out of order by a caller already holding wallet locks. A wallet that
 * exists is only read here, so this never waits for a posting.
 */
export async function ensureWalletAccounts(accountIds: string[], db: TDbOrTx = getDb()): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ owner: string }[]>(
    `INSERT INTO ledger_account (id, kind, owner_account_id, kept)
     SELECT w.kind || ':' || o.id, w.kind::"LedgerAccountKind", o.id, true
     FROM unnest($1::text[]) AS o(id) CROSS JOIN (VALUES ('spendable'), ('gift'), ('frozen')) AS w(kind)
     WHERE NOT EXISTS (SELECT 1 FROM ledger_account a WHERE a.id = w.kind || ':' || o.id)
     ON CONFLICT (id) DO NOTHING
     RETURNING owner_account_id AS owner`,
    accountIds,
  );
  return [...new Set(rows.map((r) => r.owner))];
}

export type TWalletRow = { spendable: string | null; gift: string | null; frozen: string | null; key_hash: string | null };

/**
 * The payer's balances and, in the same round trip, the hash of a transaction already under `key`.
 * With `lock`, inside a transaction, the wallet rows stay locked until it ends; `alsoLock` names the
 * other accounts the posting will touch, locked with the payer's in one id order, so two spends in
 * transactions paying each other (A buys B's app while B buys A's) cannot deadlock.
 */
export async function readWallet(accountId: string, key: string | null, lock: boolean, db: TDbOrTx = getDb(), alsoLock: string[] = []): Promise<TWalletRow> {
  if (lock)
    await db.$queryRawUnsafe(
      `SELECT id FROM ledger_account WHERE (id IN ('gift:' || $1, 'spendable:' || $1) OR id = ANY($2::text[])) AND kept ORDER BY id FOR NO KEY UPDATE`,
      accountId,
      alsoLock,
    );
  const rows = await db.$queryRawUnsafe<TWalletRow[]>(
    `SELECT
      (SELECT balance_micro::text FROM ledger_account WHERE id = 'spendable:' || $1) AS spendable,
      (SELECT balance_micro::text FROM ledger_account WHERE id = 'gift:' || $1) AS gift,
      (SELECT balance_micro::text FROM ledger_account WHERE id = 'frozen:' || $1) AS frozen,
      (SELECT request_hash FROM ledger_transaction WHERE idempotency_key = $2) AS key_hash`,
    accountId,
    key,
  );
  return rows[0];
}

export type TReconcileRow = { id: string; kind: string; owner_account_id: string | null; kept: boolean; balance: string; entries_sum: string };

/** Every ledger account with its kept balance beside the sum of its entries. */
export async function listAccountSums(db: TDbOrTx = getDb()): Promise<TReconcileRow[]> {
  return db.$queryRawUnsafe<TReconcileRow[]>(
    `SELECT a.id, a.kind::text AS kind, a.owner_account_id, a.kept, a.balance_micro::text AS balance, COALESCE(s.total, 0)::text AS entries_sum
     FROM ledger_account a LEFT JOIN (SELECT ledger_account_id, SUM(amount_micro) AS total FROM ledger_entry GROUP BY ledger_account_id) s ON s.ledger_account_id = a.id
     ORDER BY a.kept, a.id`,
  );
}

/** Transactions whose entries do not sum to zero (there should be none). */
export async function listUnbalancedTransactions(limit = 100, db: TDbOrTx = getDb()) {
  return db.$queryRawUnsafe<{ id: string; idempotency_key: string; kind: string; total: string }[]>(
    `SELECT t.id, t.idempotency_key, t.kind, SUM(e.amount_micro)::text AS total
     FROM ledger_transaction t LEFT JOIN ledger_entry e ON e.transaction_id = t.id
     GROUP BY t.id HAVING COALESCE(SUM(e.amount_micro), 0) <> 0 OR COUNT(e.id) < 2 LIMIT $1`,
    limit,
  );
}

export async function countTransactions(db: TDbOrTx = getDb()) {
  const rows = await db.$queryRawUnsafe<{ n: string }[]>(`SELECT COUNT(*)::text AS n FROM ledger_transaction`);
  return Number(rows[0].n);
}
