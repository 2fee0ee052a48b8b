// The ledger under contention: 32 callers debit ONE wallet at once through spend(), each
// debit a small amount under its own key, for a number of rounds; then the same over 32 wallets (one
// each), where only the database's throughput limits. Latency is one spend() as a caller sees it
// (wallet read + the single-statement posting, including the wait for the wallet's row lock and for
// a pooled connection). Target: p95 at most 20 ms on Postgres for the one-wallet case.
import crypto from "node:crypto";
import os from "node:os";
import { percentile } from "./lib";

const CONCURRENCY = 32;
const AMOUNT = 3_000; // one interaction channel fee
const ROUNDS = Number(process.env.BENCH_LEDGER_ROUNDS ?? 100);

type TFigures = { p50: number; p95: number; p99: number; perSecond: number; errors: number; count: number };

export async function runLedgerBench(databaseUrl: string) {
  Object.assign(process.env, { DATABASE_URL: databaseUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  const { getDb } = await import("../server/db/client");
  const { post, spend, wallet, getWallet } = await import("../server/money/ledger.service");
  const { reconcileLedger } = await import("../server/money/reconciliation.service");
  const db = getDb();
  const run = crypto.randomBytes(3).toString("hex");
  const where = process.env.ZELIN_EMBEDDED_DB === "1" ? "embedded PGlite" : "PostgreSQL";
  console.log(
    `\nledger: ${CONCURRENCY} concurrent spends of ${AMOUNT} micro-Z, ${ROUNDS} rounds (${where}; ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)} at start)`,
  );

  const makeFundedWallet = async (i: number, coins: number) => {
    const { id } = await db.account.create({ data: { account: `lb${run}${i}`, nickname: "Ledger bench" }, select: { id: true } });
    await post({
      key: `bench:${run}:fund:${id}`,
      kind: "topup",
      accountId: id,
      legs: [
        { account: "payment_clearing", amount: -coins },
        { account: wallet("spendable", id), amount: coins },
      ],
    });
    return id;
  };
  const debit = (payer: string, key: string) =>
    spend({ key, kind: "chat_charge", payer, amount: AMOUNT, credits: [{ account: "platform_revenue", amount: AMOUNT }], memo: { what: "bench" } });

  /** `rounds` rounds of CONCURRENCY spends started together, each caller on payerOf(caller). */
  async function rounds(label: string, payerOf: (caller: number) => string, count: number): Promise<TFigures> {
    const latencies: number[] = [];
    let errors = 0;
    const started = performance.now();
    for (let r = 0; r < count; r++) {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, c) => {
          const t0 = performance.now();
          try {
            await debit(payerOf(c), `bench:${run}:${label}:${r}:${c}`);
            latencies.push(performance.now() - t0);
          } catch {
            errors++;
          }
        }),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      perSecond: latencies.length / seconds,
      errors,
      count: latencies.length,
    };
  }

  const print = (name: string, f: TFigures) => {
    const n = (x: number) => x.toFixed(2).padStart(7);
    console.log(
      `${name.padEnd(40)} p50 ${n(f.p50)} ms  p95 ${n(f.p95)} ms  p99 ${n(f.p99)} ms  ${f.perSecond.toFixed(0).padStart(5)} tx/s  (${f.count} spends, errors ${f.errors})`,
    );
  };

  try {
    const budget = (ROUNDS + 5) * CONCURRENCY * AMOUNT;
    const one = await makeFundedWallet(0, budget);
    const many = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => makeFundedWallet(i + 1, (ROUNDS + 5) * AMOUNT)));
    await rounds("warm", () => one, 3); // connections, prepared plans, the wallet cache

    const single = await rounds("one", () => one, ROUNDS);
    print("32 concurrent debits, one wallet", single);
    const spread = await rounds("many", (c) => many[c], ROUNDS);
    print("32 concurrent debits, 32 wallets", spread);

    // The figures mean nothing if money went astray: the wallet lost exactly what was debited.
    const left = await getWallet(one);
    const expected = budget - (3 * CONCURRENCY + single.count) * AMOUNT;
    const rec = await reconcileLedger();
    const sound =
      left.spendable === expected && rec.mismatches.length === 0 && rec.negative.length === 0 && rec.unbalanced.length === 0 && rec.totalMicro === 0;
    console.log(
      `ledger after the run: one wallet ${left.spendable === expected ? "exact" : `OFF (${left.spendable} vs ${expected})`}, reconciliation ${sound ? "clean" : "NOT clean"}`,
    );
    console.log(`target: p95 <= 20 ms for one wallet on Postgres: ${single.p95 <= 20 ? "met" : "missed"}`);
  } finally {
    await db.$disconnect();
  }
}
