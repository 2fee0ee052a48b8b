// The ledger under fire: many workers at once make random purchases (with dividends),
// chat charges, top-ups, withdrawals (submitted, then arrived or returned) and refunds through the
// real post/spend, resend requests (the same key at once and later), throw interactive transactions
// away after posting in them, and run in child processes killed with SIGKILL at random moments.
// Afterwards the database must show: every transaction sums to zero over at least two entries,
// every kept balance equals its entries, no balance below zero, no key applied twice, the whole
// ledger summing to zero, reconcileLedger() clean, and exactly the money the workers believe they
// moved (an independent model built from their requests), transaction by transaction.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { isAppError } from "../../server/errors/app-error";
import { spend } from "../../server/money/ledger.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { effectOf, execute, runWorker, seeded, type TEvent, type TOp, type TRequest } from "../fixtures/ledger-worker";

const WORKER_PROCESS = path.resolve(import.meta.dirname, "../fixtures/ledger-worker-process.ts");
const embedded = process.env.ZELIN_EMBEDDED_DB === "1";
// Sized for a 2-core machine: thousands of requests on Postgres; the embedded database (one
// session shared by every connection) gets fewer, with the same mix.
const SIZE = embedded
  ? {
      users: 8,
      inProcess: 4,
      opsEach: 90,
      concurrency: 2,
      killRounds: 2,
      slots: 2,
      childConcurrency: 2,
      childOps: 80,
    }
  : {
      users: 20,
      inProcess: 8,
      opsEach: 180,
      concurrency: 3,
      killRounds: 4,
      slots: 3,
      childConcurrency: 4,
      childOps: 200,
    };
const PLATFORM = ["payment_clearing", "platform_promotion", "platform_revenue", "tax_withheld", "payout", "escrow"];

const run = `rl${crypto.randomBytes(4).toString("hex")}`;
const cross = `rx${crypto.randomBytes(4).toString("hex")}`;
const seed = Number(process.env.LEDGER_SEED ?? crypto.randomInt(1, 2 ** 31));

type TKnown = {
  op: TOp;
  req: TRequest;
  outcome: "applied" | "replayed" | "refused" | "aborted" | "unknown";
  id?: string;
};

describe("ledger reliability under concurrency, duplicates and kills", () => {
  it(`keeps every fen (seed ${seed}; LEDGER_SEED repeats a run)`, { timeout: 150_000 }, async () => {
    const db = getDb();
    const known = new Map<string, TKnown>();
    const violations: string[] = [];
    const refusals: Record<string, number> = {};
    const onEvent = (e: TEvent) => {
      if (e.t === "refused") refusals[e.code] = (refusals[e.code] ?? 0) + 1;
      if (e.t === "violation") return void violations.push(`${e.key}: ${e.what}`);
      if (e.t === "intent") {
        // A key is announced once per worker; a later resend of it by the test is not an intent.
        if (!known.has(e.key)) known.set(e.key, { op: e.op, req: e.req, outcome: "unknown" });
        return;
      }
      const k = known.get(e.key);
      if (!k) return void violations.push(`${e.key}: outcome without intent`);
      if (e.t === "applied" || e.t === "replayed") {
        if (k.id && k.id !== e.id) violations.push(`${e.key}: answered ${k.id} then ${e.id}`);
        if (e.t === "applied" && k.outcome === "applied") violations.push(`${e.key}: applied twice`);
        k.id = e.id;
        k.outcome = e.t === "applied" || k.outcome === "applied" ? "applied" : "replayed";
      } else if (k.outcome === "unknown") k.outcome = e.t;
    };

    // Accounts with coins and gift credit, funded through the same function (and into the model).
    const users: string[] = [];
    for (let i = 0; i < SIZE.users; i++) {
      const { id } = await db.account.create({
        data: { account: `${run}u${i}`, nickname: `Reliability ${i}` },
        select: { id: true },
      });
      users.push(id);
    }
    const platformBefore = await platformSums();
    for (const u of users) {
      for (const [key, req] of [
        [
          `pay:${run}-seed-${u}`,
          {
            via: "post",
            p: {
              key: `pay:${run}-seed-${u}`,
              kind: "topup",
              accountId: u,
              legs: [
                { account: "payment_clearing", amount: -20_000_000 },
                { account: `spendable:${u}`, amount: 20_000_000 },
              ],
            },
          },
        ],
        [
          `bonus:${run}-${u}`,
          {
            via: "post",
            p: {
              key: `bonus:${run}-${u}`,
              kind: "bonus",
              accountId: u,
              legs: [
                { account: "platform_promotion", amount: -10_000_000 },
                { account: `gift:${u}`, amount: 10_000_000 },
              ],
            },
          },
        ],
      ] as [string, TRequest][]) {
        onEvent({ t: "intent", key, op: "topup", req });
        const r = await execute(req);
        onEvent({ t: "applied", key, id: r.id });
      }
    }

    // Workers in this process and, at the same time, workers in child processes killed mid-flight.
    const rnd = seeded(seed);
    const inProcess = Promise.all(
      Array.from({ length: SIZE.inProcess }, (_, w) =>
        runWorker(
          {
            run,
            name: `w${w}`,
            users,
            seed: seed + w + 1,
            ops: SIZE.opsEach,
            concurrency: SIZE.concurrency,
          },
          onEvent,
        ),
      ),
    );
    let killed = 0;
    let finished = 0;
    const children = Promise.all(
      Array.from({ length: SIZE.slots }, async (_, slot) => {
        for (let round = 0; round < SIZE.killRounds; round++) {
          // The last round of each slot runs to its end: a worker that is not killed finishes cleanly.
          const killAfter = round < SIZE.killRounds - 1 ? 150 + Math.floor(rnd() * 1500) : null;
          const name = `p${slot}r${round}`;
          const ops = killAfter === null ? SIZE.childOps : 1_000_000; // a worker to be killed never runs out of work
          const outcome = await runChild(
            {
              run,
              name,
              users,
              seed: seed + 1000 + slot * 50 + round,
              ops,
              concurrency: SIZE.childConcurrency,
            },
            killAfter,
            onEvent,
          );
          if (outcome === "killed") killed++;
          else finished++;
        }
      }),
    );
    const started = Date.now();
    await Promise.all([
      inProcess.then(() => console.log(`in-process workers done in ${Date.now() - started} ms`)),
      children.then(() => console.log(`child workers done in ${Date.now() - started} ms`)),
    ]);
    expect({ killed, finished }).toEqual({
      killed: SIZE.slots * (SIZE.killRounds - 1),
      finished: SIZE.slots,
    });

    // A killed worker's statement may still be finishing in its server process: wait until none is.
    if (!embedded) await waitForQuiet();

    // Requests a kill cut short: the database took them whole or not at all.
    const rows = await db.$queryRawUnsafe<{ key: string; id: string }[]>(
      `SELECT idempotency_key AS key, id FROM ledger_transaction WHERE idempotency_key LIKE '%' || $1 || '%'`,
      run,
    );
    const inDb = new Map(rows.map((r) => [r.key, r.id]));
    let unknown = 0;
    for (const [key, k] of known) {
      if (k.outcome !== "unknown") continue;
      unknown++;
      if (inDb.has(key)) Object.assign(k, { outcome: "applied", id: inDb.get(key) });
      else k.outcome = "refused";
    }

    // Later resends: applied requests give their first transaction again; a changed request is
    // refused; requests a kill cut short are sent again as a client would, and apply at most once.
    const applied = [...known].filter(([, k]) => k.outcome === "applied" || k.outcome === "replayed");
    for (const [key, k] of applied.filter((_, i) => i % 7 === 0)) {
      const again = await execute(k.req);
      expect({ key, id: again.id, replayed: again.replayed }).toEqual({
        key,
        id: k.id,
        replayed: true,
      });
    }
    for (const [key, k] of applied.filter(([, k]) => k.req.via === "spend").slice(0, 40)) {
      const changed: TRequest =
        k.req.via === "spend"
          ? {
              via: "spend",
              s: {
                ...k.req.s,
                amount: k.req.s.amount + 1,
                credits: [...k.req.s.credits, { account: "platform_revenue", amount: 1 }],
              },
            }
          : k.req;
      const err = await execute(changed).then(
        () => null,
        (e) => e,
      );
      expect({ key, code: isAppError(err) ? err.code : String(err) }).toEqual({ key, code: "idempotency_conflict" });
    }
    for (const [, k] of [...known].filter(([kk, k]) => ["purchase", "chat", "topup"].includes(k.op) && k.outcome === "refused" && !inDb.has(kk)).slice(0, 60)) {
      const r = await execute(k.req).catch((e) => e);
      if (isAppError(r) && r.code === "balance_insufficient") continue;
      expect(r).toMatchObject({ replayed: false });
      Object.assign(k, { outcome: "applied", id: r.id });
    }

    expect(violations).toEqual([]);
    // Thrown-away transactions left nothing behind.
    const leftovers = await db.$queryRawUnsafe<{ key: string }[]>(
      `SELECT idempotency_key AS key FROM ledger_transaction WHERE idempotency_key = ANY($1::text[])`,
      [...known].filter(([, k]) => k.outcome === "aborted").map(([key]) => key),
    );
    expect(leftovers).toEqual([]);

    // The database against the model, transaction by transaction.
    const appliedKeys = [...known].filter(([, k]) => k.outcome === "applied" || k.outcome === "replayed");
    const ops = appliedKeys.length;
    const byOp: Record<string, number> = {};
    for (const [, k] of appliedKeys) byOp[k.op] = (byOp[k.op] ?? 0) + 1;
    console.log(
      `ledger reliability (${embedded ? "embedded PGlite" : "PostgreSQL"}, seed ${seed}): ${known.size} requests, ${ops} applied (${Object.entries(byOp)
        .map(([op, n]) => `${op} ${n}`)
        .join(", ")}), ${[...known.values()].filter((k) => k.outcome === "refused").length} refused, ${
        [...known.values()].filter((k) => k.outcome === "aborted").length
      } thrown away, ${unknown} cut short by ${killed} kills; refusals ${JSON.stringify(refusals)}`,
    );
    expect(known.size).toBeGreaterThan(embedded ? 400 : 2000);

    const entries = await db.$queryRawUnsafe<
      {
        key: string;
        id: string;
        account: string;
        kind: string;
        owner: string | null;
        amount: string;
      }[]
    >(
      `SELECT t.idempotency_key AS key, t.id, e.ledger_account_id AS account, a.kind::text AS kind, a.owner_account_id AS owner, e.amount_micro::text AS amount
       FROM ledger_transaction t JOIN ledger_entry e ON e.transaction_id = t.id JOIN ledger_account a ON a.id = e.ledger_account_id
       WHERE t.idempotency_key LIKE '%' || $1 || '%'`,
      run,
    );
    const dbEffect = new Map<string, Record<string, number>>();
    for (const e of entries) {
      const eff = dbEffect.get(e.key) ?? {};
      const add = (k: string) => (eff[k] = (eff[k] ?? 0) + Number(e.amount));
      if (e.owner) {
        add(`user:${e.owner}`);
        if (e.kind === "frozen") add(`frozen:${e.owner}`);
      } else add(e.account);
      dbEffect.set(e.key, eff);
    }
    for (const eff of dbEffect.values()) for (const k of Object.keys(eff)) if (eff[k] === 0) delete eff[k];
    // Every key the workers saw applied is in the database once, with the transaction they were
    // told, moving what they asked; and nothing else of this run is there.
    expect(new Set(dbEffect.keys())).toEqual(new Set(appliedKeys.map(([key]) => key)));
    const ids = new Map(entries.map((e) => [e.key, e.id]));
    for (const [key, k] of appliedKeys) {
      expect({ key, id: ids.get(key) }).toEqual({ key, id: k.id });
      expect({ key, effect: dbEffect.get(key) }).toEqual({
        key,
        effect: effectOf(k.req),
      });
    }

    // Money conserved: each user's wallets and each platform account moved exactly the model's sum.
    const model: Record<string, number> = {};
    for (const [, k] of appliedKeys) for (const [acc, n] of Object.entries(effectOf(k.req))) model[acc] = (model[acc] ?? 0) + n;
    const wallets = await db.$queryRawUnsafe<{ owner: string; kind: string; balance: string }[]>(
      `SELECT owner_account_id AS owner, kind::text AS kind, balance_micro::text AS balance FROM ledger_account WHERE owner_account_id = ANY($1::text[])`,
      users,
    );
    for (const u of users) {
      const mine = wallets.filter((w) => w.owner === u);
      const total = mine.reduce((s, w) => s + Number(w.balance), 0);
      const frozen = Number(mine.find((w) => w.kind === "frozen")?.balance ?? 0);
      expect({ u, total, frozen }).toEqual({
        u,
        total: model[`user:${u}`] ?? 0,
        frozen: model[`frozen:${u}`] ?? 0,
      });
    }
    const platformAfter = await platformSums();
    for (const p of PLATFORM)
      expect({
        p,
        moved: (platformAfter[p] ?? 0) - (platformBefore[p] ?? 0),
      }).toEqual({ p, moved: model[p] ?? 0 });

    // The ledger's own invariants, over the whole database, in SQL.
    const [checks] = await db.$queryRawUnsafe<Record<string, string>[]>(
      `
      SELECT
        (SELECT COUNT(*) FROM (SELECT t.id FROM ledger_transaction t LEFT JOIN ledger_entry e ON e.transaction_id = t.id GROUP BY t.id HAVING COALESCE(SUM(e.amount_micro), 0) <> 0 OR COUNT(e.id) < 2) x)::text AS unbalanced,
        (SELECT COUNT(*) FROM ledger_account a WHERE a.kept AND a.balance_micro <> COALESCE((SELECT SUM(amount_micro) FROM ledger_entry e WHERE e.ledger_account_id = a.id), 0))::text AS mismatched,
        (SELECT COUNT(*) FROM ledger_account a WHERE a.kept AND a.balance_micro < 0)::text AS negative,
        (SELECT COUNT(*) FROM ledger_entry e JOIN ledger_account a ON a.id = e.ledger_account_id WHERE a.kept AND e.balance_after_micro < 0)::text AS negative_after,
        (SELECT COALESCE(SUM(amount_micro), 0) FROM ledger_entry)::text AS total,
        (SELECT COUNT(*) - COUNT(DISTINCT idempotency_key) FROM ledger_transaction)::text AS duplicate_keys,
        (SELECT COUNT(*) FROM ledger_transaction WHERE idempotency_key LIKE '%' || $1 || '%')::text AS run_transactions,
        (SELECT COUNT(*) FROM pg_indexes WHERE tablename = 'ledger_transaction' AND indexdef LIKE 'CREATE UNIQUE INDEX%(idempotency_key)')::text AS unique_index`,
      run,
    );
    expect(checks).toEqual({
      unbalanced: "0",
      mismatched: "0",
      negative: "0",
      negative_after: "0",
      total: "0",
      duplicate_keys: "0",
      run_transactions: String(ops),
      unique_index: "1",
    });

    const rec = await reconcileLedger();
    expect({
      mismatches: rec.mismatches,
      negative: rec.negative,
      unbalanced: rec.unbalanced,
      totalMicro: rec.totalMicro,
    }).toEqual({
      mismatches: [],
      negative: [],
      unbalanced: [],
      totalMicro: 0,
    });
  });
});

describe("spends inside transactions", () => {
  it("two buyers paying each other at once in transactions do not deadlock", async () => {
    const db = getDb();
    const [a, b] = await Promise.all(
      ["a", "b"].map(async (x) => (await db.account.create({ data: { account: `${cross}${x}`, nickname: "Crossed" }, select: { id: true } })).id),
    );
    for (const u of [a, b])
      await execute({
        via: "post",
        p: {
          key: `pay:${cross}-${u}`,
          kind: "topup",
          accountId: u,
          legs: [
            { account: "payment_clearing", amount: -10_000_000 },
            { account: `spendable:${u}`, amount: 10_000_000 },
          ],
        },
      });
    const buy = (payer: string, seller: string, i: number) =>
      db.$transaction(async (tx) => {
        const key = `purchase:${payer}:${cross}-${i}`;
        await spend(
          {
            key,
            kind: "purchase",
            payer,
            amount: 100_000,
            credits: [
              { account: "platform_revenue", amount: 10_000 },
              { account: `spendable:${seller}`, amount: 90_000 },
            ],
          },
          tx,
        );
        await new Promise((r) => setTimeout(r, 20)); // the purchase row and the rest of the caller's work
      });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => [buy(a, b, i), buy(b, a, i)]).flat());
    expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const balances = await db.$queryRawUnsafe<{ id: string; b: string }[]>(
      `SELECT id, balance_micro::text AS b FROM ledger_account WHERE id = ANY($1::text[]) ORDER BY id`,
      [`spendable:${a}`, `spendable:${b}`],
    );
    expect(balances.map((r) => r.b)).toEqual(["9920000", "9920000"]);
  });
});

async function platformSums() {
  const rows = await getDb().$queryRawUnsafe<{ id: string; total: string }[]>(
    `SELECT ledger_account_id AS id, SUM(amount_micro)::text AS total FROM ledger_entry WHERE ledger_account_id = ANY($1::text[]) GROUP BY ledger_account_id`,
    PLATFORM,
  );
  return Object.fromEntries(rows.map((r) => [r.id, Number(r.total)]));
}

/** Until no other session of this database is running a statement or holding a transaction open. */
async function waitForQuiet() {
  for (let i = 0; i < 100; i++) {
    const [{ n }] = await getDb().$queryRawUnsafe<{ n: number }[]>(
      `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')`,
    );
    if (n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("sessions of killed workers still busy after 10 s");
}

/** Runs a worker process; with killAfter, SIGKILLs it that many ms after it is ready. */
function runChild(options: Parameters<typeof runWorker>[0], killAfter: number | null, onEvent: (e: TEvent) => void): Promise<"killed" | "finished"> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER_PROCESS, JSON.stringify(options)], {
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let buffered = "";
    let stderr = "";
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.stdout.on("data", (d: string) => {
      buffered += d;
      const lines = buffered.split("\n");
      buffered = lines.pop()!; // a line the kill may have cut short waits for its end, which may never come
      for (const line of lines) {
        const e = JSON.parse(line) as TEvent | { t: "ready" } | { t: "finished" };
        if (e.t === "ready") {
          if (killAfter !== null) timer = setTimeout(() => child.kill("SIGKILL"), killAfter);
        } else if (e.t !== "finished") onEvent(e);
      }
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (signal === "SIGKILL") resolve("killed");
      else if (code === 0) resolve("finished");
      else reject(new Error(`worker ${options.name} exited ${code}: ${stderr}`));
    });
  });
}
