// The ledger: zero-sum transactions, idempotency keys, wallets that never go
// negative under concurrency, gift credit spent first, and reconciliation of balances to entries.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { AppError } from "../../server/errors/app-error";
import { stats as batchStats } from "../../server/money/ledger-batch";
import { getWallet, platform, post, spend, wallet, type TSpend } from "../../server/money/ledger.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";

const run = crypto.randomBytes(3).toString("hex");
let n = 0;
async function makeAccount() {
  const row = await getDb().account.create({ data: { account: `lg${run}${++n}`, nickname: "Ledger" }, select: { id: true } });
  return row.id;
}
const key = (s: string) => `test:${run}:${s}`;
async function fund(accountId: string, coins: number, gift = 0) {
  if (coins)
    await post({
      key: key(`fund-c-${accountId}-${++n}`),
      kind: "topup",
      accountId,
      legs: [
        { account: platform("payment_clearing"), amount: -coins },
        { account: wallet("spendable", accountId), amount: coins },
      ],
    });
  if (gift)
    await post({
      key: key(`fund-g-${accountId}-${++n}`),
      kind: "bonus",
      accountId,
      legs: [
        { account: platform("platform_promotion"), amount: -gift },
        { account: wallet("gift", accountId), amount: gift },
      ],
    });
}
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => (e instanceof AppError ? e.code : String(e)),
  );

describe("ledger postings", () => {
  it("writes a zero-sum transaction and keeps the wallet's balance", async () => {
    const a = await makeAccount();
    const r = await post({
      key: key("t1"),
      kind: "topup",
      accountId: a,
      legs: [
        { account: "payment_clearing", amount: -5_000_000 },
        { account: wallet("spendable", a), amount: 5_000_000 },
      ],
    });
    expect(r.replayed).toBe(false);
    expect(r.balances[wallet("spendable", a)]).toBe(5_000_000);
    expect(await getWallet(a)).toEqual({ spendable: 5_000_000, gift: 0, frozen: 0, available: 5_000_000 });
    const entries = await getDb().ledgerEntry.findMany({ where: { transactionId: r.id } });
    expect(entries.reduce((s, e) => s + e.amountMicro, 0n)).toBe(0n);
  });

  it("gives the first result again for the same key and request, and refuses the same key with another request", async () => {
    const a = await makeAccount();
    const legs = [
      { account: "payment_clearing", amount: -1_000_000 },
      { account: wallet("spendable", a), amount: 1_000_000 },
    ];
    const first = await post({ key: key("same"), kind: "topup", accountId: a, legs });
    const again = await post({ key: key("same"), kind: "topup", accountId: a, legs: [...legs].reverse() });
    expect(again).toMatchObject({ id: first.id, replayed: true });
    expect((await getWallet(a)).spendable).toBe(1_000_000);
    expect(
      await codeOf(
        post({
          key: key("same"),
          kind: "topup",
          accountId: a,
          legs: [
            { account: "payment_clearing", amount: -2_000_000 },
            { account: wallet("spendable", a), amount: 2_000_000 },
          ],
        }),
      ),
    ).toBe("idempotency_conflict");
    expect((await getWallet(a)).spendable).toBe(1_000_000);
  });

  it("refuses a posting that would take a wallet below zero and writes nothing", async () => {
    const a = await makeAccount();
    await fund(a, 1_000_000);
    const before = await getDb().ledgerTransaction.count();
    expect(
      await codeOf(
        post({
          key: key("over"),
          kind: "purchase",
          accountId: a,
          legs: [
            { account: wallet("spendable", a), amount: -1_000_001 },
            { account: "platform_revenue", amount: 1_000_001 },
          ],
        }),
      ),
    ).toBe("balance_insufficient");
    expect(await getDb().ledgerTransaction.count()).toBe(before);
    expect(await getDb().ledgerTransaction.findUnique({ where: { idempotencyKey: key("over") } })).toBeNull();
    expect((await getWallet(a)).spendable).toBe(1_000_000);
  });

  it("rejects legs that do not sum to zero before touching the database", async () => {
    const a = await makeAccount();
    await expect(
      post({
        key: key("uneven"),
        kind: "adjustment",
        legs: [
          { account: wallet("spendable", a), amount: 5 },
          { account: "payment_clearing", amount: -4 },
        ],
      }),
    ).rejects.toThrow(/sum to zero/);
    await expect(
      post({
        key: key("float"),
        kind: "adjustment",
        legs: [
          { account: wallet("spendable", a), amount: 0.5 },
          { account: "payment_clearing", amount: -0.5 },
        ],
      }),
    ).rejects.toThrow(/integer/);
  });

  it("a refused posting inside a transaction undoes what the caller wrote before it", async () => {
    const a = await makeAccount();
    const err = await getDb()
      .$transaction(async (tx) => {
        await tx.account.update({ where: { id: a }, data: { nickname: "changed" } });
        await spend({ key: key("tx-spend"), kind: "purchase", payer: a, amount: 1, credits: [{ account: "platform_revenue", amount: 1 }] }, tx);
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((await getDb().account.findUniqueOrThrow({ where: { id: a } })).nickname).toBe("Ledger");
  });
});

describe("spending", () => {
  it("spends gift credit first, then coins, and refuses beyond both", async () => {
    const a = await makeAccount();
    await fund(a, 3_000_000, 2_000_000);
    await spend({ key: key("s1"), kind: "purchase", payer: a, amount: 2_500_000, credits: [{ account: "platform_revenue", amount: 2_500_000 }] });
    expect(await getWallet(a)).toMatchObject({ gift: 0, spendable: 2_500_000 });
    expect(
      await codeOf(spend({ key: key("s2"), kind: "purchase", payer: a, amount: 2_500_001, credits: [{ account: "platform_revenue", amount: 2_500_001 }] })),
    ).toBe("balance_insufficient");
    // A replay after the balances changed still matches the first request.
    const again = await spend({ key: key("s1"), kind: "purchase", payer: a, amount: 2_500_000, credits: [{ account: "platform_revenue", amount: 2_500_000 }] });
    expect(again.replayed).toBe(true);
    expect(await getWallet(a)).toMatchObject({ gift: 0, spendable: 2_500_000 });
  });

  it("never overdraws one wallet under 40 concurrent spends", async () => {
    const a = await makeAccount();
    await fund(a, 10_000, 5_000);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        spend({ key: key(`race-${a}-${i}`), kind: "chat_charge", payer: a, amount: 1_000, credits: [{ account: "platform_revenue", amount: 1_000 }] }).then(
          () => "ok",
          (e) => (e instanceof AppError ? e.code : String(e)),
        ),
      ),
    );
    expect(results.filter((r) => r === "ok")).toHaveLength(15);
    expect(results.filter((r) => r !== "ok").every((r) => r === "balance_insufficient")).toBe(true);
    expect(await getWallet(a)).toMatchObject({ gift: 0, spendable: 0 });
  });

  it("applies the same key once when sent concurrently", async () => {
    const a = await makeAccount();
    await fund(a, 50_000);
    const same = { key: key(`dup-${a}`), kind: "purchase" as const, payer: a, amount: 10_000, credits: [{ account: "platform_revenue", amount: 10_000 }] };
    const results = await Promise.all(Array.from({ length: 10 }, () => spend(same)));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect((await getWallet(a)).spendable).toBe(40_000);
  });
});

/** Every entry of a kept account, in id order, carries the running balance after it, never below zero. */
async function expectRunningBalances(ledgerAccountId: string) {
  const rows = await getDb().ledgerEntry.findMany({
    where: { ledgerAccountId },
    orderBy: { id: "asc" },
    select: { amountMicro: true, balanceAfterMicro: true },
  });
  let balance = 0n;
  const seen = rows.map((r) => {
    balance += r.amountMicro;
    return { after: r.balanceAfterMicro, running: balance, negative: balance < 0n };
  });
  expect(seen.filter((r) => r.after !== r.running || r.negative)).toEqual([]);
  const account = await getDb().ledgerAccount.findUniqueOrThrow({ where: { id: ledgerAccountId } });
  expect(account.balanceMicro).toBe(balance);
}

/** The legs one transaction moved, by account. */
async function legsOf(idempotencyKey: string) {
  const t = await getDb().ledgerTransaction.findUniqueOrThrow({ where: { idempotencyKey }, include: { entries: true } });
  return Object.fromEntries(t.entries.map((e) => [e.ledgerAccountId, Number(e.amountMicro)]));
}

const outcome = (p: Promise<{ id: string; replayed: boolean }>) =>
  p.then(
    (r) => (r.replayed ? `replayed:${r.id}` : `ok:${r.id}`),
    (e) => (e instanceof AppError ? e.code : String(e)),
  );

describe("group commit of one payer's concurrent spends", () => {
  it("passes exactly the spends that fit, in order, in shared statements; the refused write nothing; running balances are exact", async () => {
    const [a, dev] = [await makeAccount(), await makeAccount()];
    await fund(a, 10_000, 3_000);
    await fund(dev, 1); // the developer's wallets exist, so the spends queue in the order they are called
    const amounts = [4_000, 1_000, 5_000, 2_000, 3_000, 1_000, 6_000, 500, 700, 2_500, 300, 1_000, 900, 100, 4_000, 200];
    // The same rules one at a time, in call order: this is what the batches must come to.
    let left = 13_000;
    const expected = amounts.map((x) => (x <= left ? ((left -= x), "ok") : "balance_insufficient"));
    const before = { ...batchStats };
    const spends: TSpend[] = amounts.map((amount, i) => ({
      key: key(`gc-${a}-${i}`),
      kind: "purchase",
      payer: a,
      amount,
      credits: [
        { account: "platform_revenue", amount: amount / 10 },
        { account: wallet("spendable", dev), amount: amount - amount / 10 },
      ],
    }));
    const results = await Promise.all(spends.map((s) => outcome(spend(s))));
    expect(results.map((r) => r.replace(/:.*/, ""))).toEqual(expected);
    // They went through the batch path, several to a statement.
    expect(batchStats.posted - before.posted).toBe(expected.filter((x) => x === "ok").length);
    expect(batchStats.batches - before.batches).toBeLessThan(expected.filter((x) => x === "ok").length);
    expect(batchStats.fallbacks).toBe(before.fallbacks);
    const refusedKeys = spends.filter((_, i) => expected[i] !== "ok").map((s) => s.key);
    expect(await getDb().ledgerTransaction.count({ where: { idempotencyKey: { in: refusedKeys } } })).toBe(0);
    expect(await getWallet(a)).toMatchObject({ gift: 0, spendable: left });
    expect((await getWallet(dev)).spendable).toBe(1 + amounts.filter((_, i) => expected[i] === "ok").reduce((s, x) => s + x - x / 10, 0));
    for (const id of [wallet("gift", a), wallet("spendable", a), wallet("spendable", dev)]) await expectRunningBalances(id);
    // Each is a transaction of its own, summing to zero, that a replay finds again.
    const again = await outcome(spend(spends[0]));
    expect(again).toBe(results[0].replace("ok:", "replayed:"));
    const sums = await getDb().$queryRawUnsafe<{ n: string }[]>(
      `SELECT SUM(e.amount_micro)::text AS n FROM ledger_transaction t JOIN ledger_entry e ON e.transaction_id = t.id WHERE t.idempotency_key = ANY($1::text[]) GROUP BY t.id`,
      spends.map((s) => s.key),
    );
    expect(sums.map((r) => r.n)).toEqual(expected.filter((x) => x === "ok").map(() => "0"));
  });

  it("answers copies of one key in a batch with the first's transaction, and a changed request under it with idempotency_conflict", async () => {
    const a = await makeAccount();
    await fund(a, 100_000);
    const same: TSpend = { key: key(`gc-dup-${a}`), kind: "chat_charge", payer: a, amount: 3_000, credits: [{ account: "platform_revenue", amount: 3_000 }] };
    const changed: TSpend = { ...same, amount: 4_000, credits: [{ account: "platform_revenue", amount: 4_000 }] };
    const other = (i: number): TSpend => ({ ...same, key: key(`gc-dup-${a}-${i}`) });
    const results = await Promise.all([same, other(1), same, changed, other(2), same, changed].map((s) => outcome(spend(s))));
    const first = results[0];
    expect(first).toMatch(/^ok:/);
    const id = first.slice(3);
    expect(results).toEqual([
      first,
      expect.stringMatching(/^ok:/),
      `replayed:${id}`,
      "idempotency_conflict",
      expect.stringMatching(/^ok:/),
      `replayed:${id}`,
      "idempotency_conflict",
    ]);
    expect((await getWallet(a)).spendable).toBe(100_000 - 3 * 3_000);
    expect(await legsOf(same.key)).toEqual({ [wallet("spendable", a)]: -3_000, platform_revenue: 3_000 });
    await expectRunningBalances(wallet("spendable", a));
  });

  it("a batch takes gift credit first, then coins, request by request; coins-only spends never take gift", async () => {
    const a = await makeAccount();
    await fund(a, 10_000, 2_500);
    const s = (i: number, coinsOnly = false): TSpend => ({
      key: key(`gc-gift-${a}-${i}`),
      kind: "purchase",
      payer: a,
      amount: 1_000,
      coinsOnly,
      credits: [{ account: "platform_revenue", amount: 1_000 }],
      memo: { purchaseId: `p${i}` },
    });
    const spends = [s(0), s(1, true), s(2), s(3), s(4)];
    const results = await Promise.all(spends.map((x) => outcome(spend(x))));
    expect(results.every((r) => r.startsWith("ok:"))).toBe(true);
    const [g, c] = [wallet("gift", a), wallet("spendable", a)];
    expect(await Promise.all(spends.map((x) => legsOf(x.key)))).toEqual([
      { [g]: -1_000, platform_revenue: 1_000 },
      { [c]: -1_000, platform_revenue: 1_000 },
      { [g]: -1_000, platform_revenue: 1_000 },
      { [g]: -500, [c]: -500, platform_revenue: 1_000 },
      { [c]: -1_000, platform_revenue: 1_000 },
    ]);
    expect(await getWallet(a)).toMatchObject({ gift: 0, spendable: 7_500 });
    for (const id of [g, c]) await expectRunningBalances(id);
    // Kind, statement owner and memo are each request's own, as a single posting writes them.
    const rows = await getDb().ledgerTransaction.findMany({
      where: { idempotencyKey: { in: spends.map((x) => x.key) } },
      select: { idempotencyKey: true, kind: true, accountId: true, memo: true },
    });
    expect(rows.sort((x, y) => x.idempotencyKey.localeCompare(y.idempotencyKey))).toEqual(
      spends.map((x, i) => ({ idempotencyKey: x.key, kind: "purchase", accountId: a, memo: { purchaseId: `p${i}` } })),
    );
  });

  it("when the database refuses a batch (the wallet was debited elsewhere after the batch read it), each request is posted alone", async () => {
    const a = await makeAccount();
    await fund(a, 10_000);
    const before = { ...batchStats };
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    // Another connection debits 6,000 and holds the wallet's row lock until released: the batch
    // reads 10,000 (the debit is not committed), plans all eight, then waits for the lock and meets
    // 4,000, which its CHECK refuses. (On the embedded database the reads wait for the commit instead.)
    const elsewhere = getDb().$transaction(
      async (tx) => {
        await post(
          {
            key: key(`gc-elsewhere-${a}`),
            kind: "adjustment",
            accountId: a,
            legs: [
              { account: wallet("spendable", a), amount: -6_000 },
              { account: "platform_revenue", amount: 6_000 },
            ],
          },
          tx,
        );
        locked();
        await new Promise<void>((r) => (release = r));
      },
      { timeout: 20_000 },
    );
    await isLocked;
    const spends = Array.from({ length: 8 }, (_, i) =>
      spend({ key: key(`gc-fb-${a}-${i}`), kind: "chat_charge", payer: a, amount: 1_000, credits: [{ account: "platform_revenue", amount: 1_000 }] }),
    );
    const results = Promise.all(spends.map(outcome));
    if (embedded) await new Promise((r) => setTimeout(r, 100));
    else await waitForLockWait();
    release();
    await elsewhere;
    expect((await results).map((r) => r.replace(/:.*/, ""))).toEqual([...Array(4).fill("ok"), ...Array(4).fill("balance_insufficient")]);
    if (!embedded) expect(batchStats.fallbacks - before.fallbacks).toBe(1);
    expect(await getWallet(a)).toMatchObject({ spendable: 0 });
    await expectRunningBalances(wallet("spendable", a));
  });
});

const embedded = process.env.ZELIN_EMBEDDED_DB === "1";

/** Until a statement of this database waits for a row lock (the batch behind the open debit). */
async function waitForLockWait() {
  for (let i = 0; i < 100; i++) {
    const [{ n }] = await getDb().$queryRawUnsafe<{ n: number }[]>(
      `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (n > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the batch statement never waited for the wallet's lock");
}

describe("reconciliation", () => {
  it("finds every kept balance equal to its entries and the whole ledger summing to zero", async () => {
    const r = await reconcileLedger();
    expect(r.mismatches).toEqual([]);
    expect(r.unbalanced).toEqual([]);
    expect(r.negative).toEqual([]);
    expect(r.totalMicro).toBe(0);
  });

  it("reports a balance tampered with outside the ledger", async () => {
    const a = await makeAccount();
    await fund(a, 1_000);
    await getDb().$executeRawUnsafe(`UPDATE ledger_account SET balance_micro = balance_micro + 7 WHERE id = $1`, wallet("spendable", a));
    const r = await reconcileLedger();
    expect(r.mismatches).toEqual([expect.objectContaining({ id: wallet("spendable", a), balanceMicro: 1_007, entriesMicro: 1_000 })]);
    await getDb().$executeRawUnsafe(`UPDATE ledger_account SET balance_micro = balance_micro - 7 WHERE id = $1`, wallet("spendable", a));
  });
});
