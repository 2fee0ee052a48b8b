// The one way money moves (docs/decisions/0008-ledger-single-statement-postings.md). `post` writes
// a transaction of entries that sum to zero under an idempotency key: the same key and request give
// the first result again; the same key with another request is refused (idempotency_conflict).
// Wallets (spendable, gift, frozen) keep a balance the database refuses to take below zero, so no
// interleaving of requests overdraws. `spend` takes a payer's gift credit first, then their coins;
// standalone spends of one payer that arrive together are group-committed (ledger-batch.ts), each
// still its own transaction.
import crypto from "node:crypto";
import { AppError } from "../errors/app-error";
import type { TDbOrTx, TTx } from "../db/transaction";
import * as repo from "./ledger.repository";
import { enqueueSpend } from "./ledger-batch";

export type TWalletKind = "spendable" | "gift" | "frozen";
export type TPlatformAccount = "platform_revenue" | "platform_promotion" | "escrow" | "tax_withheld" | "payment_clearing" | "payout";

export type TLedgerKind =
  | "topup"
  | "edition"
  | "bot_package"
  | "registration"
  | "bonus"
  | "purchase"
  | "use_charge"
  | "chat_charge"
  | "chat_refund"
  | "storage_charge"
  | "metered_charge"
  | "withdrawal_submit"
  | "withdrawal_arrive"
  | "withdrawal_return"
  | "refund"
  | "media_hold"
  | "media_charge"
  | "media_release"
  | "adjustment";

export const wallet = (kind: TWalletKind, accountId: string) => `${kind}:${accountId}`;
export const platform = (kind: TPlatformAccount) => kind;

export type TLeg = { account: string; amount: number };

/** The legs that give every account of earlier postings back what it got: how a refund undoes a charge. */
export function reverseLegs(entries: { ledgerAccountId: string; amountMicro: bigint | number }[]): TLeg[] {
  return entries.map((e) => ({ account: e.ledgerAccountId, amount: -Number(e.amountMicro) }));
}
/** The legs of the transaction posted under `key`: empty when nothing was. */
export async function readPostedLegs(key: string, tx?: TTx): Promise<TLeg[]> {
  const entries = await repo.listEntriesByKey(key, tx);
  return entries.map((e) => ({ account: e.ledgerAccountId, amount: Number(e.amountMicro) }));
}

export type TPosting = {
  key: string;
  kind: TLedgerKind;
  /** Whose statement the transaction belongs to first. */
  accountId?: string | null;
  /** Named on statements; not part of "the same request". */
  memo?: Record<string, unknown>;
  legs: TLeg[];
};
export type TPosted = { id: string; replayed: boolean; balances: Record<string, number> };

const SAFE_KEY = /^[\w:.\-@/]{1,200}$/;

function cuid() {
  // randomUUID draws from a pool of entropy; randomBytes makes a system call for every id.
  return `c${Date.now().toString(36)}${crypto.randomUUID().replaceAll("-", "")}`.slice(0, 25);
}

function hashRequest(shape: unknown) {
  return crypto.hash("sha256", JSON.stringify(shape), "hex");
}

/** Legs on the same account merge; zero legs drop; amounts must be safe integers summing to zero. */
function normalise(legs: TLeg[]): TLeg[] {
  const by = new Map<string, number>();
  for (const l of legs) {
    if (!Number.isSafeInteger(l.amount)) throw new Error(`ledger: amount ${l.amount} is not an integer of micro-Z`);
    by.set(l.account, (by.get(l.account) ?? 0) + l.amount);
  }
  const out = [...by].filter(([, a]) => a !== 0).map(([account, amount]) => ({ account, amount }));
  out.sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  if (out.length < 2) throw new Error("ledger: a transaction moves money between at least two accounts");
  if (out.reduce((s, l) => s + l.amount, 0) !== 0) throw new Error("ledger: entries must sum to zero");
  return out;
}

type TPgFailure = { code?: string; constraint?: string };
/** The Postgres error under Prisma's wrapping (driver adapters put it in meta or cause). */
function pgFailure(err: unknown): TPgFailure {
  const text = err instanceof Error ? `${err.message} ${JSON.stringify((err as { meta?: unknown }).meta ?? {})}` : String(err);
  if (text.includes("ledger_account_kept_not_negative")) return { code: "23514", constraint: "ledger_account_kept_not_negative" };
  if (/ledger_entry_ledger_account_id_fkey|foreign key/i.test(text)) return { code: "23503" };
  if (/deadlock detected|40P01/.test(text)) return { code: "40P01" };
  return {};
}

const walletOwner = (id: string) => {
  const m = /^(spendable|gift|frozen):(.+)$/.exec(id);
  return m ? m[2] : null;
};

/** Wallets known to exist in this process: the first posting to an account creates them. */
const knownWallets = new Set<string>();

async function ensureWallets(accountIds: string[], db?: TDbOrTx) {
  const unknown = [...new Set(accountIds)].filter((id) => !knownWallets.has(id));
  if (!unknown.length) return;
  const created = await repo.ensureWalletAccounts(unknown, db);
  // Wallets found were committed; ones created inside a transaction vanish if it rolls back.
  for (const id of unknown) if (!db || !created.includes(id)) knownWallets.add(id);
}

async function replayOrRefuse(key: string, hash: string, existing: { id: string; request_hash: string } | null): Promise<TPosted> {
  if (!existing) throw new Error(`ledger: key ${key} neither inserted nor found`);
  if (existing.request_hash !== hash) throw new AppError("idempotency_conflict");
  return { id: existing.id, replayed: true, balances: {} };
}

async function postOnce(p: TPosting, legs: TLeg[], hash: string, tx?: TTx): Promise<TPosted> {
  const row = await repo.insertPosting(
    {
      id: cuid(),
      key: p.key,
      hash,
      kind: p.kind,
      accountId: p.accountId ?? null,
      memo: JSON.stringify(p.memo ?? {}),
      accounts: legs.map((l) => l.account),
      amounts: legs.map((l) => String(l.amount)),
    },
    tx,
  );
  if (!row.id) return replayOrRefuse(p.key, hash, await repo.findTransactionByKey(p.key, tx));
  const balances: Record<string, number> = {};
  for (const b of row.balances ?? []) if (b.balance !== null) balances[b.id] = Number(b.balance);
  return { id: row.id, replayed: false, balances };
}

/**
 * Posts one transaction. Without `tx` it is a transaction of its own (retried on a deadlock or a
 * wallet created meanwhile); with `tx` it joins the caller's, and a refusal aborts the caller's
 * transaction with it, as it should: nothing the caller wrote survives a refused posting.
 * A kept balance that would go below zero: balance_insufficient.
 */
export async function post(p: TPosting, tx?: TTx, requestShape?: unknown): Promise<TPosted> {
  if (!SAFE_KEY.test(p.key)) throw new Error(`ledger: bad idempotency key ${p.key}`);
  const legs = normalise(p.legs);
  const hash = hashRequest(requestShape ?? { kind: p.kind, accountId: p.accountId ?? null, legs });
  const owners = [...new Set(legs.map((l) => walletOwner(l.account)).filter((x): x is string => Boolean(x)))];
  if (tx) {
    await ensureWallets(owners, tx);
    try {
      return await postOnce(p, legs, hash, tx);
    } catch (err) {
      throw mapFailure(err);
    }
  }
  await ensureWallets(owners);
  for (let attempt = 0; ; attempt++) {
    try {
      return await postOnce(p, legs, hash);
    } catch (err) {
      const f = pgFailure(err);
      if (attempt < 3 && f.code === "40P01") continue;
      if (attempt < 1 && f.code === "23503") {
        for (const o of owners) knownWallets.delete(o);
        await ensureWallets(owners);
        continue;
      }
      throw mapFailure(err);
    }
  }
}

function mapFailure(err: unknown) {
  const f = pgFailure(err);
  if (f.constraint === "ledger_account_kept_not_negative") return new AppError("balance_insufficient", { cause: err });
  return err;
}

export type TWallet = { spendable: number; gift: number; frozen: number; available: number };

const toWallet = (r: repo.TWalletRow): TWallet => {
  const spendable = Number(r.spendable ?? 0);
  const gift = Number(r.gift ?? 0);
  return { spendable, gift, frozen: Number(r.frozen ?? 0), available: spendable + gift };
};

export async function getWallet(accountId: string, db?: TDbOrTx): Promise<TWallet> {
  return toWallet(await repo.readWallet(accountId, null, false, db));
}

export type TSpend = {
  key: string;
  kind: TLedgerKind;
  payer: string;
  amount: number;
  /** Where the money goes; their amounts sum to `amount`. */
  credits: TLeg[];
  memo?: Record<string, unknown>;
  /** Spend only coins, never gift credit (what is withdrawn, for one). */
  coinsOnly?: boolean;
};

function splitPayment(w: TWallet, amount: number, coinsOnly: boolean): TLeg[] | null {
  const fromGift = coinsOnly ? 0 : Math.min(w.gift, amount);
  const fromCoins = amount - fromGift;
  if (fromCoins > w.spendable) return null;
  return [
    { account: "gift", amount: -fromGift },
    { account: "spendable", amount: -fromCoins },
  ];
}

/**
 * The payer pays `amount` (gift credit first unless coinsOnly) to the credits. The request is the
 * payer, amount and credits, not the split: a replay after the balances changed still matches.
 * Refuses balance_insufficient when the payer has not enough, and then writes nothing.
 */
export async function spend(s: TSpend, tx?: TTx): Promise<TPosted> {
  if (!Number.isSafeInteger(s.amount) || s.amount <= 0) throw new Error(`ledger: spend of ${s.amount}`);
  if (s.credits.reduce((a, l) => a + l.amount, 0) !== s.amount) throw new Error("ledger: credits must sum to the amount spent");
  const shape = {
    kind: s.kind,
    payer: s.payer,
    amount: s.amount,
    coinsOnly: Boolean(s.coinsOnly),
    credits: normalise([...s.credits, { account: "__payer", amount: -s.amount }]),
  };
  const hash = hashRequest(shape);
  const credited = s.credits.map((c) => c.account);
  const creditedOwners = credited.map(walletOwner).filter((x): x is string => Boolean(x));
  if (tx) {
    // In a transaction every wallet of the posting is locked up front, in id order (see readWallet).
    await ensureWallets([s.payer, ...creditedOwners], tx);
    return spendAlone(s, shape, hash, tx);
  }
  // Standalone: group-committed with the payer's other spends in flight (ledger-batch.ts), unless it
  // credits the payer's own wallets or debits another's (a batch plans only the payer's balances,
  // and its entries' running balances assume the payer's go down and the others' up).
  if (!SAFE_KEY.test(s.key)) throw new Error(`ledger: bad idempotency key ${s.key}`);
  await ensureWallets([s.payer, ...creditedOwners]);
  if (creditedOwners.includes(s.payer) || s.credits.some((c) => c.amount < 0)) return spendAlone(s, shape, hash);
  return enqueueSpend({
    id: cuid(),
    key: s.key,
    hash,
    kind: s.kind,
    payer: s.payer,
    amount: s.amount,
    coinsOnly: Boolean(s.coinsOnly),
    credits: normalise([...s.credits, { account: "__payer", amount: -s.amount }]).filter((l) => l.account !== "__payer"),
    memo: JSON.stringify(s.memo ?? {}),
    alone: () => spendAlone(s, shape, hash),
  });
}

/** One spend by itself: read the payer's wallet (and the key), split, post; re-split if the gift went meanwhile. */
async function spendAlone(s: TSpend, shape: unknown, hash: string, tx?: TTx): Promise<TPosted> {
  const credited = s.credits.map((c) => c.account);
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await repo.readWallet(s.payer, s.key, Boolean(tx), tx, credited);
    if (row.key_hash !== null) {
      if (row.key_hash !== hash) throw new AppError("idempotency_conflict");
      const existing = await repo.findTransactionByKey(s.key, tx);
      return { id: existing!.id, replayed: true, balances: {} };
    }
    const split = splitPayment(toWallet(row), s.amount, Boolean(s.coinsOnly));
    if (!split) throw new AppError("balance_insufficient", { data: { needed: s.amount, available: toWallet(row).available } });
    const debits = split.map((l) => ({ account: wallet(l.account as TWalletKind, s.payer), amount: l.amount }));
    try {
      return await post({ key: s.key, kind: s.kind, accountId: s.payer, memo: s.memo, legs: [...debits, ...s.credits] }, tx, shape);
    } catch (err) {
      // Another spend took the gift credit between our read and our write: read again and re-split.
      if (!tx && err instanceof AppError && err.code === "balance_insufficient") continue;
      throw err;
    }
  }
  throw new AppError("balance_insufficient");
}

/** Forget which wallets exist (tests that reset the database). */
export function forgetKnownWallets() {
  knownWallets.clear();
}
