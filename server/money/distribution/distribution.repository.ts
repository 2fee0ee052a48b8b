// The reads behind distribution (/distribution, /my_bonus, /my_redpacket): an account's shareable
// apps, its invitees, the dividends its share links earned and the gift credit it received. Money
// is read from the account's own wallet ENTRIES only (as the statements are, not from balances), so
// no query here can return another account's money.
import { getDb, type TDbOrTx } from "../../db/client";

/** My apps (any state but deleted) and on-shelf public apps of others I have chatted with. */
export async function listShareableApps(accountId: string, db: TDbOrTx = getDb()) {
  const own = await db.app.findMany({
    where: { ownerAccountId: accountId, deletedAt: null, type: { not: "api" } },
    select: { id: true, name: true, iconUrl: true, state: true, shareRatio: true },
    orderBy: { createdAt: "desc" },
    take: 200,
  });
  const used = await db.appUse.findMany({ where: { accountId }, select: { appId: true }, distinct: ["appId"], take: 500 });
  const others = used.length
    ? await db.app.findMany({
        where: {
          id: { in: used.map((u) => u.appId) },
          ownerAccountId: { not: accountId },
          deletedAt: null,
          state: "on_shelf",
          isPublic: true,
          type: { not: "api" },
        },
        select: { id: true, name: true, iconUrl: true, state: true, shareRatio: true },
        orderBy: { name: "asc" },
        take: 200,
      })
    : [];
  return { own, others };
}

export async function listInvitees(accountId: string, db: TDbOrTx = getDb()) {
  return db.account.findMany({
    where: { referredById: accountId },
    select: { id: true, nickname: true, account: true, createdAt: true },
    orderBy: { createdAt: "desc" },
    take: 500,
  });
}

export type TDividendRow = {
  entry_id: string;
  created_at: Date;
  amount: string;
  price: string;
  share_percent: number | null;
  app_id: string | null;
  app_name: string | null;
  buyer_nickname: string | null;
  refunded: boolean;
};

/**
 * Entries on my spendable wallet in purchase transactions that name me as the sharer, newest
 * first. The price is what the buyer paid: the sum of the transaction's credits.
 */
export async function listDividends(
  accountId: string,
  range: { from: Date | null; to: Date | null; limit: number },
  db: TDbOrTx = getDb(),
): Promise<TDividendRow[]> {
  return db.$queryRawUnsafe<TDividendRow[]>(
    `SELECT e.id::text AS entry_id, e.created_at, e.amount_micro::text AS amount,
       (SELECT SUM(x.amount_micro) FROM ledger_entry x WHERE x.transaction_id = t.id AND x.amount_micro > 0)::text AS price,
       CASE WHEN t.memo->>'sharePercent' ~ '^[0-9]+$' THEN (t.memo->>'sharePercent')::int END AS share_percent,
       COALESCE(t.memo->>'appId', t.memo->>'agentId') AS app_id,
       COALESCE(t.memo->>'appName', t.memo->>'agentName') AS app_name,
       b.nickname AS buyer_nickname,
       (p.refunded_at IS NOT NULL) AS refunded
     FROM ledger_entry e
     JOIN ledger_transaction t ON t.id = e.transaction_id
     LEFT JOIN account b ON b.id = t.memo->>'buyerAccountId'
     LEFT JOIN purchase p ON p.ledger_transaction_id = t.id
     WHERE e.ledger_account_id = 'spendable:' || $1 AND e.amount_micro > 0
       AND t.kind = 'purchase' AND t.memo->>'sharerAccountId' = $1
       AND ($2::timestamptz IS NULL OR e.created_at >= $2::timestamptz)
       AND ($3::timestamptz IS NULL OR e.created_at < $3::timestamptz)
     ORDER BY e.created_at DESC, e.id DESC
     LIMIT $4`,
    accountId,
    range.from,
    range.to,
    range.limit,
  );
}

export type TDividendTotals = { today: string; month: string; total: string; count: string };

export async function sumDividends(accountId: string, since: { today: Date; month: Date }, db: TDbOrTx = getDb()): Promise<TDividendTotals> {
  const rows = await db.$queryRawUnsafe<TDividendTotals[]>(
    `SELECT COALESCE(SUM(e.amount_micro) FILTER (WHERE e.created_at >= $2::timestamptz), 0)::text AS today,
       COALESCE(SUM(e.amount_micro) FILTER (WHERE e.created_at >= $3::timestamptz), 0)::text AS month,
       COALESCE(SUM(e.amount_micro), 0)::text AS total, COUNT(*)::text AS count
     FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id
     WHERE e.ledger_account_id = 'spendable:' || $1 AND e.amount_micro > 0
       AND t.kind = 'purchase' AND t.memo->>'sharerAccountId' = $1`,
    accountId,
    since.today,
    since.month,
  );
  return rows[0];
}

export async function sumDividendsByApp(accountId: string, db: TDbOrTx = getDb()) {
  return db.$queryRawUnsafe<{ app_id: string | null; app_name: string | null; amount: string; count: string }[]>(
    `SELECT COALESCE(t.memo->>'appId', t.memo->>'agentId') AS app_id, MAX(COALESCE(t.memo->>'appName', t.memo->>'agentName')) AS app_name,
       SUM(e.amount_micro)::text AS amount, COUNT(*)::text AS count
     FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id
     WHERE e.ledger_account_id = 'spendable:' || $1 AND e.amount_micro > 0
       AND t.kind = 'purchase' AND t.memo->>'sharerAccountId' = $1
     GROUP BY 1 ORDER BY SUM(e.amount_micro) DESC LIMIT 100`,
    accountId,
  );
}

/** Gift credit put on my gift wallet by bonus postings (the experience bonus and other bonuses). */
export async function listGiftReceived(accountId: string, db: TDbOrTx = getDb()) {
  return db.$queryRawUnsafe<{ entry_id: string; created_at: Date; amount: string; key: string; what: string | null }[]>(
    `SELECT e.id::text AS entry_id, e.created_at, e.amount_micro::text AS amount, t.idempotency_key AS key, t.memo->>'what' AS what
     FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id
     WHERE e.ledger_account_id = 'gift:' || $1 AND e.amount_micro > 0 AND t.kind = 'bonus'
     ORDER BY e.created_at DESC, e.id DESC LIMIT 500`,
    accountId,
  );
}
