// Balances against their entries: what the administrator's reconciliation page shows and
// the reliability test asserts. Every kept balance must equal the sum of its entries, every
// transaction must sum to zero, no wallet may be negative, and the whole ledger sums to zero.
import * as repo from "./ledger.repository";

export type TReconciliation = {
  checkedAt: string;
  accounts: number;
  transactions: number;
  /** Sum of every entry: zero when no money was made up or lost. */
  totalMicro: number;
  platform: { id: string; kind: string; balanceMicro: number }[];
  /** User money by kind (what the platform owes its users). */
  userTotals: { spendable: number; gift: number; frozen: number };
  mismatches: { id: string; ownerAccountId: string | null; balanceMicro: number; entriesMicro: number }[];
  negative: { id: string; balanceMicro: number }[];
  unbalanced: { id: string; key: string; kind: string; totalMicro: number }[];
};

export async function reconcileLedger(now = new Date()): Promise<TReconciliation> {
  const [rows, unbalanced, transactions] = await Promise.all([repo.listAccountSums(), repo.listUnbalancedTransactions(), repo.countTransactions()]);
  const userTotals = { spendable: 0, gift: 0, frozen: 0 };
  const out: TReconciliation = {
    checkedAt: now.toISOString(),
    accounts: rows.length,
    transactions,
    totalMicro: 0,
    platform: [],
    userTotals,
    mismatches: [],
    negative: [],
    unbalanced: [],
  };
  for (const r of rows) {
    const entries = Number(r.entries_sum);
    const balance = Number(r.balance);
    out.totalMicro += entries;
    if (!r.kept) {
      out.platform.push({ id: r.id, kind: r.kind, balanceMicro: entries });
      continue;
    }
    if (r.kind in userTotals) userTotals[r.kind as keyof typeof userTotals] += balance;
    if (balance !== entries) out.mismatches.push({ id: r.id, ownerAccountId: r.owner_account_id, balanceMicro: balance, entriesMicro: entries });
    if (balance < 0 || entries < 0) out.negative.push({ id: r.id, balanceMicro: Math.min(balance, entries) });
  }
  out.unbalanced = unbalanced.map((u) => ({ id: u.id, key: u.idempotency_key, kind: u.kind, totalMicro: Number(u.total ?? 0) }));
  return out;
}
