// Withdrawals: coins frozen with the row at submission, labour tax
// and the received amount fixed then, an administrator's arrived (to tax withheld and payout) or
// abnormal (coins back), refusals that change nothing, the enterprise switch, idempotent retries,
// and the preview endpoint's envelope.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { openSecret } from "../../server/lib/secret-box";
import { getWallet, platform, post, wallet } from "../../server/money/ledger.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { Browser, startApiServer } from "../helpers/api-client";

const run = crypto.randomBytes(3).toString("hex");
const VALID_ID = "11010519491231002X";
const Z = 1_000_000;
let n = 0;
let base = "";

beforeAll(async () => {
  const api = await startApiServer();
  base = api.base;
  return api.close;
});

async function makeUser(opts: { roles?: string[]; enterpriseId?: string | null } = {}) {
  const row = await getDb().account.create({
    data: { account: `wd${run}${++n}`, nickname: `Withdrawer ${n}`, roles: (opts.roles ?? []) as never, enterpriseId: opts.enterpriseId ?? null },
    select: { id: true },
  });
  const browser = new Browser(base, `10.77.${n % 250}.${(n * 7) % 250}`);
  browser.cookies.set("zl_session", (await startSession(row.id)).token);
  return { id: row.id, browser };
}

async function fund(accountId: string, coins: number, gift = 0) {
  if (coins)
    await post({
      key: `test:${run}:fund:${accountId}:${++n}`,
      kind: "topup",
      accountId,
      legs: [
        { account: platform("payment_clearing"), amount: -coins },
        { account: wallet("spendable", accountId), amount: coins },
      ],
    });
  if (gift)
    await post({
      key: `test:${run}:gift:${accountId}:${++n}`,
      kind: "bonus",
      accountId,
      legs: [
        { account: platform("platform_promotion"), amount: -gift },
        { account: wallet("gift", accountId), amount: gift },
      ],
    });
}

const form = (amount: number | string, extra: Record<string, unknown> = {}) => ({
  real_name: "张三",
  id_number: VALID_ID.toLowerCase(),
  phone: "13800138000",
  amount,
  request_id: crypto.randomUUID(),
  ...extra,
});

async function withdraw(browser: Browser, amount: number | string, extra: Record<string, unknown> = {}) {
  return (await browser.call("/api/v1/withdrawal", { body: form(amount, extra) })).body;
}

async function platformSum(id: string) {
  const rows = await getDb().$queryRawUnsafe<{ s: string }[]>(
    `SELECT COALESCE(SUM(amount_micro), 0)::text AS s FROM ledger_entry WHERE ledger_account_id = $1`,
    id,
  );
  return Number(rows[0].s);
}

describe("submitting", () => {
  it("freezes the coins with the row, with tax and the received amount fixed, and the ID number sealed", async () => {
    const u = await makeUser();
    await fund(u.id, 30_000 * Z);
    const res = await withdraw(u.browser, "25000.01");
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ state: "submitted", amount: 25000.01, tax: 4000, received: 21000.01, real_name: "张三", phone: "138****8000" });
    expect(res.data.id_number_hint).toBe("1101**********002X");
    expect(await getWallet(u.id)).toMatchObject({ spendable: 4_999_990_000, frozen: 25_000_010_000 });
    const row = await getDb().withdrawal.findUniqueOrThrow({ where: { id: res.data.id } });
    expect(row.idNumberSealed).not.toContain("1101051949");
    expect(openSecret(row.idNumberSealed)).toBe(VALID_ID);
    expect(row).toMatchObject({ amountMicro: 25_000_010_000n, taxMicro: 4_000_000_000n, receivedMicro: 21_000_010_000n });
    const tx = await getDb().ledgerTransaction.findUniqueOrThrow({ where: { idempotencyKey: `wd:${row.id}:submit` } });
    expect(tx).toMatchObject({ kind: "withdrawal_submit", accountId: u.id });
    // The withdrawer sees it in their list; another account does not.
    const mine = await u.browser.call("/api/v1/withdrawal/mine");
    expect(mine.body.data.items.map((i: { id: string }) => i.id)).toEqual([row.id]);
    expect((await u.browser.call(`/api/v1/withdrawal/${row.id}`)).body.data).toMatchObject({ id: row.id, state: "submitted" });
    // Another account neither lists nor reads it.
    const other = await makeUser();
    expect((await other.browser.call("/api/v1/withdrawal/mine")).body.data.items).toEqual([]);
    const theirs = await other.browser.call(`/api/v1/withdrawal/${row.id}`);
    expect(theirs.http).toBe(404);
    expect(theirs.body.status).toBe(404001);
  });

  it("submits once for one request id, however often it is sent, and refuses the same id with another amount", async () => {
    const u = await makeUser();
    await fund(u.id, 100 * Z);
    const body = form("40");
    const [a, b] = await Promise.all([u.browser.call("/api/v1/withdrawal", { body }), u.browser.call("/api/v1/withdrawal", { body })]);
    expect(a.body.status).toBe(200);
    expect(b.body.status).toBe(200);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect((await u.browser.call("/api/v1/withdrawal", { body })).body.data.id).toBe(a.body.data.id);
    expect(await getWallet(u.id)).toMatchObject({ spendable: 60 * Z, frozen: 40 * Z });
    expect(await getDb().withdrawal.count({ where: { accountId: u.id } })).toBe(1);
    const conflict = await u.browser.call("/api/v1/withdrawal", { body: { ...body, amount: "41" } });
    expect(conflict.body.status).not.toBe(200);
    expect(await getWallet(u.id)).toMatchObject({ spendable: 60 * Z, frozen: 40 * Z });
  });

  it("of two concurrent withdrawals of the whole balance, one passes", async () => {
    const u = await makeUser();
    await fund(u.id, 50 * Z);
    const results = await Promise.all([withdraw(u.browser, 50), withdraw(u.browser, 50), withdraw(u.browser, 50)]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 420001)).toHaveLength(2);
    expect(await getWallet(u.id)).toMatchObject({ spendable: 0, frozen: 50 * Z });
    expect(await getDb().withdrawal.count({ where: { accountId: u.id } })).toBe(1);
  });

  it("refuses under 10 yuan, more than the coins, gift credit, and bad input, changing nothing", async () => {
    const u = await makeUser();
    await fund(u.id, 20 * Z, 100 * Z);
    const below = await u.browser.call("/api/v1/withdrawal", { body: form("9.99"), lang: "en" });
    expect(below.body.status).toBe(420806);
    expect(below.body.description).toBe("Withdrawals under 10 yuan are not accepted");
    // 20 coins and 100 gift credit: 21 is more than the coins, whatever the gift credit.
    expect((await withdraw(u.browser, 21)).status).toBe(420001);
    expect((await withdraw(u.browser, 100)).status).toBe(420001);
    for (const bad of [
      { amount: "10.001" },
      { amount: "-20" },
      { amount: "abc" },
      { id_number: "110105194912310021" },
      { phone: "12345" },
      { real_name: "" },
      { request_id: "" },
    ]) {
      const res = await u.browser.call("/api/v1/withdrawal", { body: { ...form(15), ...bad }, lang: "en" });
      expect(res.body.status, JSON.stringify(bad)).toBe(400001);
    }
    expect(await getWallet(u.id)).toEqual({ spendable: 20 * Z, gift: 100 * Z, frozen: 0, available: 120 * Z });
    expect(await getDb().withdrawal.count({ where: { accountId: u.id } })).toBe(0);
    // Exactly the coins is fine: the gift credit stays.
    expect((await withdraw(u.browser, 20)).status).toBe(200);
    expect(await getWallet(u.id)).toMatchObject({ spendable: 0, gift: 100 * Z, frozen: 20 * Z });
  });

  it("refuses staff of an enterprise that forbids it, not its super administrator, and the switch is the super administrator's", async () => {
    const ent = await getDb().enterprise.create({ data: { name: `Ent ${run}`, domain: `ent-${run}` }, select: { id: true } });
    const boss = await makeUser({ roles: ["enterprise_super_admin"], enterpriseId: ent.id });
    const staff = await makeUser({ roles: ["enterprise_staff"], enterpriseId: ent.id });
    await fund(boss.id, 100 * Z);
    await fund(staff.id, 100 * Z);
    expect((await staff.browser.call("/api/v1/enterprise/staff_may_withdraw", { method: "PUT", body: { allowed: false } })).body.status).toBe(403001);
    expect((await staff.browser.call("/api/v1/enterprise/staff_may_withdraw")).body.data).toBeNull();
    const set = await boss.browser.call("/api/v1/enterprise/staff_may_withdraw", { method: "PUT", body: { allowed: false } });
    expect(set.body.data).toMatchObject({ staff_may_withdraw: false });
    const refused = await staff.browser.call("/api/v1/withdrawal", { body: form(20), lang: "en" });
    expect(refused.body.status).toBe(420807);
    expect(refused.body.description).toBe("Your enterprise does not allow its staff to withdraw");
    expect(await getWallet(staff.id)).toMatchObject({ spendable: 100 * Z, frozen: 0 });
    expect((await withdraw(boss.browser, 20)).status).toBe(200);
    await boss.browser.call("/api/v1/enterprise/staff_may_withdraw", { method: "PUT", body: { allowed: true } });
    expect((await withdraw(staff.browser, 20)).status).toBe(200);
  });

  it("needs a session", async () => {
    const anon = new Browser(base, "10.78.0.1");
    expect((await anon.call("/api/v1/withdrawal", { body: form(20) })).body.status).toBe(110003);
    expect((await anon.call("/api/v1/withdrawal/preview?amount=20")).body.status).toBe(110003);
  });
});

describe("the preview", () => {
  it("answers amount, tax and received in yuan in the envelope", async () => {
    const u = await makeUser();
    const res = await u.browser.call("/api/v1/withdrawal/preview?amount=5000");
    expect(res.http).toBe(200);
    expect(res.body).toEqual({ status: 200, description: "success", data: { amount: 5000, tax: 800, received: 4200 } });
    expect((await u.browser.call("/api/v1/withdrawal/preview?amount=62500.01")).body.data).toEqual({ amount: 62500.01, tax: 13000, received: 49500.01 });
    expect((await u.browser.call("/api/v1/withdrawal/preview?amount=800")).body.data).toEqual({ amount: 800, tax: 0, received: 800 });
    const below = await u.browser.call("/api/v1/withdrawal/preview?amount=9", { lang: "en" });
    expect(below.body).toMatchObject({ status: 420806, description: "Withdrawals under 10 yuan are not accepted" });
    expect((await u.browser.call("/api/v1/withdrawal/preview?amount=1.234")).body.status).toBe(400001);
    expect((await u.browser.call("/api/v1/withdrawal/preview")).body.status).toBe(400001);
  });
});

describe("an administrator's decision", () => {
  async function submitted(amount = 5000) {
    const u = await makeUser();
    await fund(u.id, amount * Z);
    const res = await withdraw(u.browser, amount);
    expect(res.status).toBe(200);
    return { user: u, id: res.data.id as string };
  }

  it("arrived moves the frozen coins to tax withheld and payout, once however often it is clicked", async () => {
    const admin = await makeUser({ roles: ["platform_admin"] });
    const { user, id } = await submitted(5000);
    const taxBefore = await platformSum("tax_withheld");
    const payoutBefore = await platformSum("payout");
    const queue = await admin.browser.call("/api/v1/admin/withdrawals?state=submitted");
    const item = queue.body.data.items.find((i: { id: string }) => i.id === id);
    expect(item).toMatchObject({ id_number: VALID_ID, phone: "13800138000", amount: 5000, tax: 800, received: 4200 });
    const clicks = await Promise.all([1, 2, 3].map(() => admin.browser.call(`/api/v1/admin/withdrawals/${id}/arrive`, { body: {} })));
    for (const c of clicks) expect(c.body.data).toMatchObject({ state: "arrived" });
    expect((await admin.browser.call(`/api/v1/admin/withdrawals/${id}/arrive`, { body: {} })).body.data.state).toBe("arrived");
    expect(await getWallet(user.id)).toMatchObject({ spendable: 0, frozen: 0 });
    expect((await platformSum("tax_withheld")) - taxBefore).toBe(800 * Z);
    expect((await platformSum("payout")) - payoutBefore).toBe(4200 * Z);
    expect(await getDb().ledgerTransaction.count({ where: { idempotencyKey: { startsWith: `wd:${id}:` } } })).toBe(2);
    // Arrived is final.
    const refused = await admin.browser.call(`/api/v1/admin/withdrawals/${id}/abnormal`, { body: { note: "late" }, lang: "en" });
    expect(refused.body).toMatchObject({ status: 420808, description: "This withdrawal has already been processed" });
    expect((await user.browser.call("/api/v1/withdrawal/mine")).body.data.items[0]).toMatchObject({ state: "arrived" });
  });

  it("abnormal with a note gives the coins back; nothing moves it again", async () => {
    const admin = await makeUser({ roles: ["platform_admin"] });
    const { user, id } = await submitted(100);
    expect((await admin.browser.call(`/api/v1/admin/withdrawals/${id}/abnormal`, { body: { note: "  " } })).body.status).toBe(400001);
    const res = await admin.browser.call(`/api/v1/admin/withdrawals/${id}/abnormal`, { body: { note: "Bank card name does not match" } });
    expect(res.body.data).toMatchObject({ state: "abnormal", note: "Bank card name does not match" });
    expect(await getWallet(user.id)).toMatchObject({ spendable: 100 * Z, frozen: 0 });
    expect((await admin.browser.call(`/api/v1/admin/withdrawals/${id}/abnormal`, { body: { note: "again" } })).body.data).toMatchObject({
      state: "abnormal",
      note: "Bank card name does not match",
    });
    expect((await admin.browser.call(`/api/v1/admin/withdrawals/${id}/arrive`, { body: {} })).body.status).toBe(420808);
    expect(await getWallet(user.id)).toMatchObject({ spendable: 100 * Z, frozen: 0 });
    expect((await user.browser.call("/api/v1/withdrawal/mine")).body.data.items[0]).toMatchObject({ state: "abnormal", note: "Bank card name does not match" });
  });

  it("is for platform administrators only; an unknown withdrawal is not found", async () => {
    const { user, id } = await submitted(50);
    const other = await makeUser();
    for (const who of [user, other]) {
      expect((await who.browser.call(`/api/v1/admin/withdrawals/${id}/arrive`, { body: {} })).body.status).toBe(403001);
      expect((await who.browser.call(`/api/v1/admin/withdrawals/${id}/abnormal`, { body: { note: "x" } })).body.status).toBe(403001);
      expect((await who.browser.call("/api/v1/admin/withdrawals")).body.status).toBe(403001);
    }
    expect(await getWallet(user.id)).toMatchObject({ frozen: 50 * Z });
    expect((await getDb().withdrawal.findUniqueOrThrow({ where: { id } })).state).toBe("submitted");
    const admin = await makeUser({ roles: ["platform_admin"] });
    expect((await admin.browser.call(`/api/v1/admin/withdrawals/wdnope/arrive`, { body: {} })).body.status).toBe(404001);
  });

  it("lists the queue even when one ID number was sealed under another key", async () => {
    const admin = await makeUser({ roles: ["platform_admin"] });
    const { id } = await submitted(30);
    await getDb().withdrawal.update({ where: { id }, data: { idNumberSealed: "v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA" } });
    const queue = await admin.browser.call("/api/v1/admin/withdrawals?state=submitted");
    expect(queue.body.status).toBe(200);
    expect(queue.body.data.items.find((i: { id: string }) => i.id === id)).toMatchObject({ id_number: null, id_number_hint: "1101**********002X" });
  });

  it("leaves the ledger reconciled", async () => {
    const report = await reconcileLedger();
    expect(report).toMatchObject({ totalMicro: 0, mismatches: [], negative: [], unbalanced: [] });
  });
});
