// Group commit of standalone spends, per payer, within this process
// (docs/decisions/0008-ledger-single-statement-postings.md). A posting holds
// the payer's wallet row lock until it commits, so N concurrent debits of one wallet used to queue
// behind N commits (one fsync each). Here, while a batch of a payer's spends is in flight, newcomers
// wait; when it returns, everything queued goes in the next batch: one read of the wallet and the
// batch's keys, the decisions made in order in TypeScript (replays, conflicts, gift credit first,
// what does not fit is refused and writes nothing), then ONE statement and ONE commit for all of it.
// Each request keeps its own transaction, key, request hash and entries. The in-process view is only
// a plan: the database's CHECK still refuses an overdraft, and when it (or a deadlock, a foreign key,
// anything) refuses the batch statement, every request of the batch is posted alone by the old path.
import { AppError } from "../errors/app-error";
import * as repo from "./ledger-batch.repository";
import type { TLeg, TPosted } from "./ledger.service";

export type TBatchSpend = {
  /** The transaction's id, made beforehand (the batch statement inserts it as given). */
  id: string;
  key: string;
  hash: string;
  kind: string;
  payer: string;
  amount: number;
  coinsOnly: boolean;
  /** Normalised credit legs (none on the payer's own wallets: those go alone). */
  credits: TLeg[];
  memo: string;
  /** Today's one-at-a-time path, for a batch the database refused. */
  alone: () => Promise<TPosted>;
};

type TWaiting = TBatchSpend & { resolve: (r: TPosted) => void; reject: (e: unknown) => void };
type TQueue = { waiting: TWaiting[]; busy: boolean };

/** At most this many requests per statement; the rest wait for the next. */
const MAX_BATCH = 64;
const queues = new Map<string, TQueue>();
/** Counters for tests and diagnostics: batch statements committed, requests in them, batches refused. */
export const stats = { batches: 0, posted: 0, fallbacks: 0 };

export function enqueueSpend(s: TBatchSpend): Promise<TPosted> {
  return new Promise<TPosted>((resolve, reject) => {
    let q = queues.get(s.payer);
    if (!q) queues.set(s.payer, (q = { waiting: [], busy: false }));
    q.waiting.push({ ...s, resolve, reject });
    if (!q.busy) {
      q.busy = true;
      // Start on the next turn of the event loop, so callers that started together share the batch.
      setImmediate(() => void drain(s.payer, q!));
    }
  });
}

async function drain(payer: string, q: TQueue) {
  while (q.waiting.length) {
    const batch = q.waiting.splice(0, MAX_BATCH);
    try {
      await runBatch(payer, batch);
    } catch (err) {
      // runBatch answers every request itself; this is only a last guard so no caller hangs.
      for (const w of batch) w.reject(err);
    }
  }
  q.busy = false;
  if (queues.get(payer) === q) queues.delete(payer);
}

type TPlan = { w: TWaiting; debits: TLeg[] };

async function runBatch(payer: string, batch: TWaiting[]) {
  let read: repo.TBatchRead;
  try {
    read = await repo.readPayer(payer, [...new Set(batch.map((w) => w.key))]);
  } catch {
    stats.fallbacks++;
    return alone(batch);
  }
  const existing = new Map((read.existing ?? []).map((e) => [e.key, e]));
  let gift = Number(read.gift ?? 0);
  let coins = Number(read.spendable ?? 0);
  const planned: TPlan[] = [];
  const plannedByKey = new Map<string, TPlan>();
  /** Later requests under a planned request's key: its replay, or a conflict, once it is in. */
  const afterKey: { w: TWaiting; of: TPlan }[] = [];
  const short: TWaiting[] = [];
  /** Answered from the read alone (replays and conflicts with what is already in the database). */
  const answered = new Set<TWaiting>();

  // In order, as if one at a time: the same rules as spend() alone, against the running balances.
  for (const w of batch) {
    const done = existing.get(w.key);
    if (done) {
      answered.add(w);
      if (done.hash !== w.hash) w.reject(new AppError("idempotency_conflict"));
      else w.resolve({ id: done.id, replayed: true, balances: {} });
      continue;
    }
    const earlier = plannedByKey.get(w.key);
    if (earlier) {
      // The same key earlier in this batch: answered as a copy sent just after it would be.
      afterKey.push({ w, of: earlier });
      continue;
    }
    const fromGift = w.coinsOnly ? 0 : Math.min(gift, w.amount);
    const fromCoins = w.amount - fromGift;
    if (fromCoins > coins) {
      short.push(w);
      continue;
    }
    gift -= fromGift;
    coins -= fromCoins;
    const debits = [
      { account: `gift:${payer}`, amount: -fromGift },
      { account: `spendable:${payer}`, amount: -fromCoins },
    ].filter((l) => l.amount !== 0);
    const plan = { w, debits };
    planned.push(plan);
    plannedByKey.set(w.key, plan);
  }
  const refuseShort = (ws: TWaiting[]) => {
    for (const w of ws) w.reject(new AppError("balance_insufficient", { data: { needed: w.amount, available: gift + coins } }));
  };
  if (!planned.length) return refuseShort(short);

  let row: repo.TBatchRow;
  try {
    row = await repo.insertBatch(
      planned.map(({ w }) => ({ id: w.id, key: w.key, hash: w.hash, kind: w.kind, accountId: payer, memo: w.memo })),
      planned.flatMap(({ w, debits }) => [...debits, ...w.credits].sort((a, b) => (a.account < b.account ? -1 : 1)).map((l) => ({ txId: w.id, ...l }))),
    );
  } catch {
    stats.fallbacks++;
    // The database refused the batch as a whole (the CHECK: another process spent meanwhile; a
    // deadlock; a wallet missing; a key taken meanwhile): nothing of it was written. Each request
    // goes alone by the old path, which reads afresh, so correctness never rests on this plan.
    return alone(batch.filter((w) => !answered.has(w)));
  }

  const balances = new Map<string, Record<string, number>>();
  for (const e of row.entries ?? []) if (e.after !== null) (balances.get(e.tx) ?? balances.set(e.tx, {}).get(e.tx)!)[e.account] = Number(e.after);
  stats.batches++;
  stats.posted += planned.length;
  for (const { w } of planned) w.resolve({ id: w.id, replayed: false, balances: balances.get(w.id) ?? {} });
  for (const { w, of } of afterKey) {
    if (of.w.hash === w.hash) w.resolve({ id: of.w.id, replayed: true, balances: {} });
    else w.reject(new AppError("idempotency_conflict"));
  }
  refuseShort(short);
}

/** Each request by the one-at-a-time path, in order (they are one payer's: no point in parallel). */
async function alone(ws: TWaiting[]) {
  for (const w of ws) await w.alone().then(w.resolve, w.reject);
}
