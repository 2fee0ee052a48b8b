// Distribution: a sharer's links, invitees, dividends and gift credit, read from their own
// wallet entries only. Another account's dividends and invitees never show; buyers and invitees are
// masked; the basic edition gets the upgrade hint instead of links and still sees what it earned.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { AppError } from "../../server/errors/app-error";
import { post, spend, wallet } from "../../server/money/ledger.service";
import { splitSale } from "../../server/money/money.constants";
import { getDistributionOverview, getMyRedPacket, listMyDividends } from "../../server/money/distribution/distribution.service";
import { createTestApp, makeAppOwner } from "../helpers/apps";

const run = crypto.randomBytes(3).toString("hex");
let n = 0;
const db = () => getDb();

async function account(nickname: string, edition: "basic" | "professional" = "professional", referredById: string | null = null) {
  const row = await db().account.create({
    data: { account: `ds${run}${++n}`, nickname, edition, editionExpiresAt: edition === "basic" ? null : new Date(Date.now() + 30 * 86_400_000), referredById },
    select: { id: true, edition: true, editionExpiresAt: true },
  });
  return row;
}

async function topUp(accountId: string, micro: number) {
  await post({
    key: `pay:${run}-${accountId}-${++n}`,
    kind: "topup",
    accountId,
    legs: [
      { account: "payment_clearing", amount: -micro },
      { account: wallet("spendable", accountId), amount: micro },
    ],
  });
}

/** A purchase through a share link, posted as the purchases service does (same kind, legs and memo). */
async function buyThrough(buyer: string, developer: string, sharer: string | null, app: { id: string; name: string }, price: number, sharePercent: number) {
  const split = splitSale(price, sharer ? sharePercent : null);
  const credits = [
    { account: "platform_revenue", amount: split.platform },
    { account: wallet("spendable", developer), amount: split.developer },
    ...(sharer ? [{ account: wallet("spendable", sharer), amount: split.sharer }] : []),
  ];
  const memo = {
    appId: app.id,
    appName: app.name,
    buyerAccountId: buyer,
    developerAccountId: developer,
    ...(sharer ? { sharerAccountId: sharer, sharePercent } : {}),
  };
  return spend({ key: `purchase:${buyer}:${run}-${++n}`, kind: "purchase", payer: buyer, amount: price, credits, memo });
}

async function setUp() {
  const dev = await makeAppOwner({ edition: "professional" });
  const { appId } = await createTestApp({ owner: dev, input: { name: `Poems ${run}` } });
  const app = { id: appId, name: `Poems ${run}` };
  const sharer = await account("Sharer");
  const other = await account("Other sharer");
  const buyer = await account("Buyerson");
  await topUp(buyer.id, 100_000_000);
  return { dev, app, sharer, other, buyer };
}

describe("dividends (/my_bonus)", () => {
  it("lists my dividends with the masked buyer, price, share and amount, and never another sharer's", async () => {
    const { dev, app, sharer, other, buyer } = await setUp();
    await buyThrough(buyer.id, dev.id, sharer.id, app, 9_900_000, 30);
    await buyThrough(buyer.id, dev.id, other.id, app, 5_000_000, 50);
    await buyThrough(buyer.id, dev.id, null, app, 1_000_000, 30); // no touser: no dividend for anyone

    const mine = await listMyDividends(sharer);
    expect(mine).toEqual([
      expect.objectContaining({
        app_id: app.id,
        app_name: app.name,
        buyer: "B***n",
        price: 9_900_000,
        share_percent: 30,
        dividend: 2_970_000,
        refunded: false,
      }),
    ]);
    expect(JSON.stringify(mine)).not.toContain(buyer.id);
    expect(JSON.stringify(mine)).not.toContain("Buyerson");

    const theirs = await listMyDividends(other);
    expect(theirs.map((d) => [d.price, d.dividend])).toEqual([[5_000_000, 2_500_000]]);
    // The developer's sale income and the buyer's purchase are not dividends.
    expect(await listMyDividends(dev)).toEqual([]);
    expect(await listMyDividends(buyer)).toEqual([]);
  });

  it("filters by China-time days, both ends included, and refuses a malformed date", async () => {
    const { dev, app, sharer, buyer } = await setUp();
    const posted = await buyThrough(buyer.id, dev.id, sharer.id, app, 2_000_000, 20);
    // Move the entry to 2024-03-10 23:30 China time (15:30 UTC).
    await db().$executeRawUnsafe(`UPDATE ledger_entry SET created_at = '2024-03-10 15:30:00' WHERE transaction_id = $1`, posted.id);
    await buyThrough(buyer.id, dev.id, sharer.id, app, 3_000_000, 20);

    expect((await listMyDividends(sharer, { from: "2024-03-10", to: "2024-03-10" })).map((d) => d.price)).toEqual([2_000_000]);
    expect((await listMyDividends(sharer, { from: "2024-03-11", to: "2024-03-11" })).map((d) => d.price)).toEqual([]);
    expect((await listMyDividends(sharer, { to: "2024-03-09" })).map((d) => d.price)).toEqual([]);
    expect((await listMyDividends(sharer)).map((d) => d.price)).toEqual([3_000_000, 2_000_000]);
    const refused = await listMyDividends(sharer, { from: "10/03/2024" }).catch((e) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("validation_failed");
  });
});

describe("the distribution overview (/distribution)", () => {
  it("shows my share links, my masked invitees and my earnings, never another account's", async () => {
    const { dev, app, sharer, other, buyer } = await setUp();
    const mine = await createTestApp({ owner: { id: sharer.id, roles: [], enterpriseId: null }, input: { name: `Mine ${run}` } });
    const privateApp = await createTestApp({ owner: dev, input: { name: `Private ${run}`, is_public: false } });
    const offShelf = await createTestApp({ owner: dev, input: { name: `Off ${run}` }, state: "off_shelf" });
    const unused = await createTestApp({ owner: dev, input: { name: `Unused ${run}` } });
    for (const a of [app.id, privateApp.appId, offShelf.appId])
      await db().appUse.create({ data: { appId: a, accountId: sharer.id, source: "h5", basis: "free", day: 20240310 } });
    await account("Invitee Alice", "basic", sharer.id);
    await account("李四", "basic", sharer.id);
    await account("Not mine", "basic", other.id);
    await buyThrough(buyer.id, dev.id, sharer.id, app, 10_000_000, 40);
    await buyThrough(buyer.id, dev.id, other.id, app, 10_000_000, 40);

    const o = await getDistributionOverview(sharer);
    expect(o.enabled).toBe(true);
    expect(o.touser).toBe(sharer.id);
    expect(o.links.map((l) => [l.app_id, l.own])).toEqual([
      [mine.appId, true],
      [app.id, false],
    ]);
    expect(o.links.map((l) => l.app_id)).not.toContain(unused.appId);
    expect(o.invitees.map((i) => i.name).sort()).toEqual(["I***e", "李*"]);
    expect(o.earnings).toMatchObject({ today: 4_000_000, month: 4_000_000, total: 4_000_000, count: 1 });
    expect(o.earnings.by_app).toEqual([{ app_id: app.id, app_name: app.name, amount: 4_000_000, count: 1 }]);
  });

  it("gives a basic-edition account the upgrade hint instead of links, and still its earnings", async () => {
    const { dev, app, buyer } = await setUp();
    const basic = await account("Basic sharer", "basic");
    // Earned while it was professional (the dividend is decided at purchase time).
    await buyThrough(buyer.id, dev.id, basic.id, app, 1_000_000, 10);
    await db().appUse.create({ data: { appId: app.id, accountId: basic.id, source: "h5", basis: "free", day: 20240310 } });
    const o = await getDistributionOverview(basic);
    expect(o).toMatchObject({ enabled: false, upgrade_to: "professional", links: [] });
    expect(o.earnings.total).toBe(100_000);
  });
});

describe("gift credit (/my_redpacket)", () => {
  it("lists the bonuses put on my gift wallet and what is left after spending", async () => {
    const me = await account("Gifted");
    const someone = await account("Someone else");
    for (const [key, who, amount] of [
      [`bonus:${me.id}`, me.id, 100_000_000],
      [`bonus:${run}-promo-${me.id}`, me.id, 5_000_000],
      [`bonus:${someone.id}`, someone.id, 100_000_000],
    ] as const)
      await post({
        key,
        kind: "bonus",
        accountId: who,
        legs: [
          { account: "platform_promotion", amount: -amount },
          { account: wallet("gift", who), amount },
        ],
      });
    await topUp(me.id, 1_000_000); // coins are not gift credit
    await spend({
      key: `chat:${run}-${me.id}`,
      kind: "chat_charge",
      payer: me.id,
      amount: 30_000_000,
      credits: [{ account: "platform_revenue", amount: 30_000_000 }],
    });

    const r = await getMyRedPacket(me);
    expect(r.received.map((g) => [g.source, g.amount]).sort()).toEqual([
      ["bonus", 5_000_000],
      ["experience_bonus", 100_000_000],
    ]);
    expect(r.total_received).toBe(105_000_000);
    expect(r.left).toBe(75_000_000);
    expect((await getMyRedPacket(someone)).received.map((g) => g.amount)).toEqual([100_000_000]);
  });
});
