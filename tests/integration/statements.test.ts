// Statements (/income, /consumption): lines read from each user's own wallet
// entries, a purchase classified as dividend, sale income or purchase by the memo, filters by type,
// dates and app, cursor pages without gaps or repeats, totals, and the xlsx export of the lines.
import crypto from "node:crypto";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { platform, post, spend, wallet } from "../../server/money/ledger.service";
import { getStatementTotals, listStatement } from "../../server/money/statements/statements.service";
import { submitWithdrawal } from "../../server/money/withdrawals/withdrawals.service";
import { ZSubmitWithdrawalInput } from "../../server/money/withdrawals/withdrawals.schema";
import { ZListStatementInput } from "../../server/money/statements/statements.schema";
import { Browser, startApiServer } from "../helpers/api-client";

const run = crypto.randomBytes(3).toString("hex");
const Z = 1_000_000;
let n = 0;
let base = "";
const key = (s: string) => `test:${run}:${s}:${++n}`;

beforeAll(async () => {
  const api = await startApiServer();
  base = api.base;
  return api.close;
});

async function makeUser() {
  const row = await getDb().account.create({ data: { account: `st${run}${++n}`, nickname: `Statement ${n}` }, select: { id: true } });
  const browser = new Browser(base, `10.79.${n % 250}.${(n * 3) % 250}`);
  browser.cookies.set("zl_session", (await startSession(row.id)).token);
  return { id: row.id, browser, actor: { id: row.id, roles: [] as string[], enterpriseId: null } };
}

async function fund(accountId: string, coins: number, gift = 0) {
  if (coins)
    await post({
      key: key("fund"),
      kind: "topup",
      accountId,
      legs: [
        { account: platform("payment_clearing"), amount: -coins },
        { account: wallet("spendable", accountId), amount: coins },
      ],
    });
  if (gift)
    await post({
      key: key("gift"),
      kind: "bonus",
      accountId,
      legs: [
        { account: platform("platform_promotion"), amount: -gift },
        { account: wallet("gift", accountId), amount: gift },
      ],
    });
}

const appA = `appA${run}`;
const appB = `appB${run}`;
let dev: Awaited<ReturnType<typeof makeUser>>;
let sharer: Awaited<ReturnType<typeof makeUser>>;
let buyer: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  dev = await makeUser();
  sharer = await makeUser();
  buyer = await makeUser();
  await fund(buyer.id, 100 * Z, 5 * Z);
  // Bought through the sharer's link: 10% platform, 30% the sharer, the rest the developer; the gift credit goes first.
  await spend({
    key: key("p1"),
    kind: "purchase",
    payer: buyer.id,
    amount: 20 * Z,
    credits: [
      { account: platform("platform_revenue"), amount: 2 * Z },
      { account: wallet("spendable", sharer.id), amount: 6 * Z },
      { account: wallet("spendable", dev.id), amount: 12 * Z },
    ],
    memo: {
      appId: appA,
      appName: "Alpha",
      planId: "plan1",
      days: 30,
      buyerAccountId: buyer.id,
      developerAccountId: dev.id,
      sharerAccountId: sharer.id,
      sharePercent: 30,
    },
  });
  const p2memo = { appId: appB, appName: "Beta", planId: "plan2", buyerAccountId: buyer.id, developerAccountId: dev.id };
  await spend({
    key: key("p2"),
    kind: "purchase",
    payer: buyer.id,
    amount: 10 * Z,
    credits: [
      { account: platform("platform_revenue"), amount: 1 * Z },
      { account: wallet("spendable", dev.id), amount: 9 * Z },
    ],
    memo: p2memo,
  });
  await spend({
    key: key("chat"),
    kind: "chat_charge",
    payer: buyer.id,
    amount: 3_000,
    credits: [{ account: platform("platform_revenue"), amount: 3_000 }],
    memo: { appId: appA, appName: "Alpha", messageId: "m1" },
  });
  // The second purchase refunded: the developer and the platform give back, the buyer gets it all.
  await post({
    key: key("refund"),
    kind: "refund",
    accountId: buyer.id,
    memo: { ...p2memo, purchaseId: "pu2" },
    legs: [
      { account: wallet("spendable", dev.id), amount: -9 * Z },
      { account: platform("platform_revenue"), amount: -1 * Z },
      { account: wallet("spendable", buyer.id), amount: 10 * Z },
    ],
  });
  await spend({
    key: key("storage"),
    kind: "storage_charge",
    payer: dev.id,
    amount: 10_000,
    credits: [{ account: platform("platform_revenue"), amount: 10_000 }],
    memo: { day: "20260101", chars: 1_000_100 },
    coinsOnly: true,
  });
  await submitWithdrawal(
    buyer.actor,
    ZSubmitWithdrawalInput.parse({ real_name: "张三", id_number: "11010519491231002X", phone: "13800138000", amount: "20", request_id: `req-${run}` }),
  );
});

const types = (items: { type: string }[]) => items.map((i) => i.type);

describe("classification", () => {
  it("gives the developer sale income, the sharer a dividend, the buyer purchases, each from their own entries", async () => {
    const devIncome = await listStatement(dev.id, "income", {});
    expect(devIncome.items.map((i) => [i.type, i.amount_micro, i.app_name])).toEqual([
      ["sale_income", 9 * Z, "Beta"],
      ["sale_income", 12 * Z, "Alpha"],
    ]);
    const devSpent = await listStatement(dev.id, "consumption", {});
    expect(devSpent.items.map((i) => [i.type, i.amount_micro])).toEqual([
      ["storage", -10_000],
      ["refund_paid", -9 * Z],
    ]);
    expect(devSpent.items[0].chars).toBe(1_000_100);

    const sharerIncome = await listStatement(sharer.id, "income", {});
    expect(sharerIncome.items.map((i) => [i.type, i.amount_micro, i.app_id])).toEqual([["dividend", 6 * Z, appA]]);
    expect((await listStatement(sharer.id, "consumption", {})).items).toEqual([]);

    const buyerSpent = await listStatement(buyer.id, "consumption", {});
    expect(buyerSpent.items.map((i) => [i.type, i.amount_micro, i.gift_micro])).toEqual([
      ["withdrawal", -20 * Z, 0],
      ["chat_charge", -3_000, 0],
      ["purchase", -10 * Z, 0],
      ["purchase", -20 * Z, -5 * Z],
    ]);
    expect(buyerSpent.items[0].withdrawal_state).toBe("submitted");
    expect(types((await listStatement(buyer.id, "income", {})).items)).toEqual(["refund"]);
  });

  it("totals today, this month and all time, with the coins that may be withdrawn", async () => {
    expect(await getStatementTotals(dev.id, "income")).toEqual({ today: 21 * Z, month: 21 * Z, all: 21 * Z, withdrawable: 12 * Z - 10_000 });
    expect(await getStatementTotals(sharer.id, "income")).toEqual({ today: 6 * Z, month: 6 * Z, all: 6 * Z, withdrawable: 6 * Z });
    expect(await getStatementTotals(buyer.id, "consumption")).toMatchObject({ all: 50 * Z + 3_000, withdrawable: null });
    // A day later nothing counts as today.
    const tomorrow = new Date(Date.now() + 86_400_000 * 40);
    expect(await getStatementTotals(dev.id, "income", tomorrow)).toMatchObject({ today: 0, month: 0, all: 21 * Z });
  });
});

describe("filters and pages", () => {
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
  const dayOff = (d: number) => new Date(Date.now() + 8 * 3_600_000 + d * 86_400_000).toISOString().slice(0, 10);

  it("filters by type, dates (China days, inclusive) and app", async () => {
    expect(types((await listStatement(buyer.id, "consumption", { filters: { type: "purchase" } })).items)).toEqual(["purchase", "purchase"]);
    expect((await listStatement(buyer.id, "consumption", { filters: { app_id: appA } })).items.map((i) => i.type)).toEqual(["chat_charge", "purchase"]);
    expect((await listStatement(buyer.id, "consumption", { filters: { from: today, to: today } })).items).toHaveLength(4);
    expect((await listStatement(buyer.id, "consumption", { filters: { from: dayOff(1) } })).items).toHaveLength(0);
    expect((await listStatement(buyer.id, "consumption", { filters: { to: dayOff(-1) } })).items).toHaveLength(0);
    // A type of the other book selects nothing, not everything.
    expect((await listStatement(buyer.id, "consumption", { filters: { type: "dividend" } })).items).toHaveLength(0);
    // A range that ends before it starts is refused by the route's input schema.
    await expect(ZListStatementInput.parseAsync({ filters: { from: dayOff(1), to: today } })).rejects.toThrow();
  });

  it("pages by cursor without gaps or repeats", async () => {
    const u = await makeUser();
    await fund(u.id, 1 * Z);
    for (let i = 0; i < 35; i++)
      await spend({
        key: key("many"),
        kind: "chat_charge",
        payer: u.id,
        amount: 3_000,
        credits: [{ account: platform("platform_revenue"), amount: 3_000 }],
        memo: { messageId: `m${i}` },
      });
    const first = await listStatement(u.id, "consumption", {});
    expect(first.items).toHaveLength(30);
    expect(first.next_cursor).not.toBeNull();
    const second = await listStatement(u.id, "consumption", { cursor: first.next_cursor ?? undefined });
    expect(second.items).toHaveLength(5);
    expect(second.next_cursor).toBeNull();
    expect(new Set([...first.items, ...second.items].map((i) => i.id)).size).toBe(35);
  });
});

describe("over HTTP", () => {
  it("answers the signed-in account's own lines in the envelope; an unknown book is not found", async () => {
    const res = await dev.browser.call("/api/v1/statements/income?type=sale_income");
    expect(res.body.status).toBe(200);
    expect(res.body.data.items).toHaveLength(2);
    const totals = await sharer.browser.call("/api/v1/statements/income/totals");
    expect(totals.body.data).toEqual({ today: 6 * Z, month: 6 * Z, all: 6 * Z, withdrawable: 6 * Z });
    // Another account sees none of these, whatever it asks.
    const stranger = await makeUser();
    expect((await stranger.browser.call(`/api/v1/statements/income?app_id=${appA}`)).body.data.items).toEqual([]);
    expect((await stranger.browser.call("/api/v1/statements/consumption")).body.data.items).toEqual([]);
    expect((await stranger.browser.call("/api/v1/statements/everything")).body.status).toBe(404001);
    expect((await new Browser(base, "10.79.255.1").call("/api/v1/statements/income")).body.status).toBe(110003);
  });

  it("exports the filtered lines as xlsx in the reader's language", async () => {
    const raw = await buyer.browser.fetchRaw("/api/v1/statements/consumption/export");
    expect(raw.http).toBe(200);
    expect(raw.headers.get("content-type")).toContain("spreadsheetml");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(raw.bytes as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(["时间", "类型", "明细", "应用", "金额（Z币）"]);
    const rows = [];
    for (let r = 2; r <= sheet.rowCount; r++) rows.push((sheet.getRow(r).values as unknown[]).slice(1));
    expect(rows.map((r) => [r[1], r[4]])).toEqual([
      ["提现", -20],
      ["交互通道费", -0.003],
      ["购买", -10],
      ["购买", -20],
    ]);
    expect(String(rows[2][2])).toContain("Beta");
    expect(rows[2][3]).toBe("Beta");

    const filtered = await buyer.browser.fetchRaw(`/api/v1/statements/consumption/export?app_id=${appA}`);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(filtered.bytes as unknown as ArrayBuffer);
    expect(wb2.worksheets[0].rowCount).toBe(3);
    // Someone else's export is their own (empty), and a bad filter is refused before any file starts.
    const stranger = await makeUser();
    const theirs = await stranger.browser.fetchRaw("/api/v1/statements/consumption/export");
    const wb3 = new ExcelJS.Workbook();
    await wb3.xlsx.load(theirs.bytes as unknown as ArrayBuffer);
    expect(wb3.worksheets[0].rowCount).toBe(1);
    const bad = await buyer.browser.call("/api/v1/statements/consumption/export?from=yesterday");
    expect(bad.body.status).toBe(400001);
  });
});
