// Figures for sale on the real services, database and file store: offering and withdrawing (with
// their refusals, which change nothing), the shop's page (other accounts' offered, usable originals
// with their still and loop, never the filming video), buying (the price split 90/10 from gift credit
// then coins, one copy and one charge for a repeated or concurrent purchase, refusals that write
// nothing, a balanced ledger), and copy-on-write: the buyer's keying writes under the buyer's own
// keys with the worker's real tools, deleting either side keeps the files the other still uses, and
// a bought figure is not trained.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { DEFAULT_KEY } from "../../server/digital/digital.schema";
import { handleFigurePrepare } from "../../server/digital/figure-work.service";
import { EMPTY_CHECK, type TFigureCheck } from "../../server/digital/figures.schema";
import { mapError } from "../../server/errors/map-error";
import { getQueue } from "../../server/jobs/queue";
import { getFileWork, setFileWork } from "../../server/media/file-work";
import { getWallet } from "../../server/money/ledger.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { appRouter } from "../../server/trpc/app-router";
import { getFileStore } from "../../server/uploads/file-store";
import { createFileWork } from "../../workers/media";
import { renderFilmingVideo } from "../../workers/media/test-sources";
import { fundAccount } from "../helpers/money";
import { useApiWithTempFiles } from "../helpers/temp-files-api";

const run = crypto.randomBytes(3).toString("hex");
const server = useApiWithTempFiles("zl-figure-sale-");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zl-figure-sale-work-"));
const Z = 1_000_000;
let n = 0;
/** A filming video before a green screen and the loop and keyed still the worker made of it. */
const bytes = {} as Record<"filming" | "loop" | "poster" | "greeting", Buffer>;

beforeAll(async () => {
  setFileWork(createFileWork());
  await getQueue("digital-files").obliterate({ force: true });
  const filming = path.join(tmp, "filming.mp4");
  await renderFilmingVideo(filming, { width: 720, height: 1280, seconds: 3 });
  bytes.filming = fs.readFileSync(filming);
  bytes.greeting = Buffer.concat([bytes.filming, Buffer.from("greeting")]);
  const key = `media/sale-test/figures/${crypto.randomBytes(6).toString("hex")}.mp4`;
  await getFileStore().put(key, bytes.filming, "video/mp4");
  const made = await getFileWork().prepareFigure(key, DEFAULT_KEY);
  bytes.loop = await readStored(made.loop);
  bytes.poster = await readStored(made.poster);
}, 120_000);
afterAll(() => {
  setFileWork(null);
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function readStored(key: string): Promise<Buffer> {
  const file = await getFileStore().get(key);
  if (!file) throw new Error(`no file at ${key}`);
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
const exists = async (key: string) => (await getFileStore().get(key)) !== null;
const sha = (b: Buffer) => crypto.createHash("sha256").update(b).digest("hex");

async function makeUser(o: { gift?: number; coins?: number } = {}) {
  const nickname = `Creator ${run} ${++n}`;
  const row = await getDb().account.create({
    data: { account: `fs${run}${n}`, nickname, roles: ["individual_developer"] as never },
    select: { id: true },
  });
  if (o.gift) await fundAccount(row.id, o.gift, "gift");
  if (o.coins) await fundAccount(row.id, o.coins, "spendable");
  const caller = appRouter.createCaller({
    lng: "en",
    isPlatformAdmin: false,
    account: { id: row.id, roles: [], enterpriseId: null, account: "x", nickname: "x", avatarUrl: null, phone: null, edition: "basic" } as never,
  });
  return { id: row.id, nickname, caller };
}
type TUser = Awaited<ReturnType<typeof makeUser>>;

const CHECK: TFigureCheck = {
  ...EMPTY_CHECK,
  stage: "done",
  preparedAt: new Date("2025-01-01T00:00:00Z").toISOString(),
};

/** A prepared figure of the owner's, its files in the store where the worker puts them. */
async function makeFigure(owner: TUser, o: { state?: "ready" | "checking" | "train_failed"; trained?: boolean; greeting?: boolean } = {}) {
  const base = `media/${owner.id}/figures/${crypto.randomBytes(8).toString("hex")}`;
  const keys = { source: `${base}.mp4`, loop: `${base}.loop.mp4`, poster: `${base}.keyed.png`, greeting: o.greeting ? `${base}g.mp4` : null };
  await getFileStore().put(keys.source, bytes.filming, "video/mp4");
  await getFileStore().put(keys.loop, bytes.loop, "video/mp4");
  await getFileStore().put(keys.poster, bytes.poster, "image/png");
  if (keys.greeting) await getFileStore().put(keys.greeting, bytes.greeting, "video/mp4");
  const checking = o.state === "checking";
  const row = await getDb().digitalFigure.create({
    data: {
      ownerAccountId: owner.id,
      name: `Figure ${run} ${++n}`,
      state: o.state ?? "ready",
      kind: o.trained ? "trained" : "green_screen",
      provider: o.trained ? "heygen" : null,
      providerAvatarId: o.trained ? `avatar-${n}` : null,
      orientation: "vertical",
      sourceFileKey: keys.source,
      greetingFileKey: keys.greeting,
      loopFileKey: checking ? null : keys.loop,
      posterFileKey: checking ? null : keys.poster,
      keyColor: "#10f020",
      keySimilarity: 35,
      keyBlend: 12,
      check: (checking ? EMPTY_CHECK : CHECK) as never,
    },
    select: { id: true },
  });
  return { id: row.id, keys };
}

/** The catalogue code and message of a refused call. */
async function refusal(p: Promise<unknown>) {
  const err = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { cause?: unknown } | null;
  expect(err, "the call was expected to be refused").not.toBeNull();
  const mapped = mapError(err!.cause ?? err, "en");
  expect(mapped.httpStatus).toBeLessThan(500);
  return mapped;
}

const figureRow = (id: string) => getDb().digitalFigure.findUniqueOrThrow({ where: { id } });
const saleKeys = async (copyId: string) =>
  (await getDb().ledgerTransaction.findMany({ where: { idempotencyKey: { startsWith: `figure-sale:${copyId}` } }, select: { id: true } })).length;
const copiesOf = (originalId: string) => getDb().digitalFigure.findMany({ where: { purchasedFromId: originalId } });
const platformRevenue = async () =>
  Number((await getDb().ledgerAccount.findUnique({ where: { id: "platform_revenue" }, select: { balanceMicro: true } }))?.balanceMicro ?? 0);
const platformRevenueEntries = async () => {
  const agg = await getDb().ledgerEntry.aggregate({ where: { ledgerAccountId: "platform_revenue" }, _sum: { amountMicro: true } });
  return Number(agg._sum.amountMicro ?? 0);
};

/** Runs the figure's queued preparations as the worker would. */
async function runPrepare(figureId: string) {
  const queue = getQueue("digital-files");
  const jobs = (await queue.getJobs(["waiting", "delayed", "prioritized"])).filter((j) => j.name === "digital.figure-prepare" && j.data.figureId === figureId);
  expect(jobs.length).toBeGreaterThan(0);
  for (const job of jobs) {
    expect(await handleFigurePrepare(job.data)).toBe("done");
    await job.remove();
  }
}

describe("offering a figure", () => {
  it("sets a price on a usable figure of one's own and withdraws it", async () => {
    const seller = await makeUser();
    const figure = await makeFigure(seller);
    const offered = await seller.caller.digitalFigures.setSale({ id: figure.id, priceMicro: 12_500_000 });
    expect(offered.salePriceMicro).toBe(12_500_000);
    expect(offered.purchased).toBe(false);
    expect(Number((await figureRow(figure.id)).salePriceMicro)).toBe(12_500_000);
    const failedTraining = await makeFigure(seller, { state: "train_failed" });
    expect((await seller.caller.digitalFigures.setSale({ id: failedTraining.id, priceMicro: 10_000 * Z })).salePriceMicro).toBe(10_000 * Z);
    const withdrawn = await seller.caller.digitalFigures.setSale({ id: figure.id, priceMicro: null });
    expect(withdrawn.salePriceMicro).toBeNull();
    expect((await figureRow(figure.id)).salePriceMicro).toBeNull();
  });

  it("refuses a price out of range, another's figure, one still checked and a bought one, changing nothing", async () => {
    const seller = await makeUser();
    const other = await makeUser();
    const figure = await makeFigure(seller);
    for (const priceMicro of [0, 990_000, 10_000 * Z + 10_000, 1_234_500, -5 * Z, 1.5, "5", undefined]) {
      const r = await refusal(seller.caller.digitalFigures.setSale({ id: figure.id, priceMicro: priceMicro as number }));
      expect(r.code, String(priceMicro)).toBe("validation_failed");
      expect(r.envelope.description).not.toMatch(/figures:|validation\./);
    }
    expect((await refusal(other.caller.digitalFigures.setSale({ id: figure.id, priceMicro: 5 * Z }))).code).toBe("not_found");
    expect((await refusal(other.caller.digitalFigures.setSale({ id: "nope", priceMicro: null }))).code).toBe("not_found");
    const checking = await makeFigure(seller, { state: "checking" });
    expect((await refusal(seller.caller.digitalFigures.setSale({ id: checking.id, priceMicro: 5 * Z }))).code).toBe("figure_state_refused");
    expect((await figureRow(figure.id)).salePriceMicro).toBeNull();
    expect((await figureRow(checking.id)).salePriceMicro).toBeNull();

    await seller.caller.digitalFigures.setSale({ id: figure.id, priceMicro: 5 * Z });
    const buyer = await makeUser({ coins: 20 * Z });
    const { figure: copy } = await buyer.caller.digitalFigures.buy({ id: figure.id, priceMicro: 5 * Z });
    const r = await refusal(buyer.caller.digitalFigures.setSale({ id: copy.id, priceMicro: 5 * Z }));
    expect(r.code).toBe("figure_purchased_refused");
    expect(r.envelope.description).toMatch(/bought figure/);
    expect((await figureRow(copy.id)).salePriceMicro).toBeNull();
  });
});

describe("the figure shop", () => {
  it("lists other accounts' offered, usable figures with what the buyer gets, never the filming video", async () => {
    const seller = await makeUser();
    const viewer = await makeUser({ gift: 3 * Z, coins: 6 * Z });
    const offered = await makeFigure(seller, { trained: true });
    const withdrawn = await makeFigure(seller);
    const removed = await makeFigure(seller);
    const mine = await makeFigure(viewer);
    for (const f of [offered, withdrawn, removed]) await seller.caller.digitalFigures.setSale({ id: f.id, priceMicro: 8 * Z });
    await viewer.caller.digitalFigures.setSale({ id: mine.id, priceMicro: 8 * Z });
    await seller.caller.digitalFigures.setSale({ id: withdrawn.id, priceMicro: null });
    await seller.caller.digitalFigures.remove({ id: removed.id });

    const page = await viewer.caller.digitalFigures.shop({ page: 1 });
    const ids = page.items.map((i) => i.id);
    expect(ids).toContain(offered.id);
    expect(ids).not.toContain(withdrawn.id);
    expect(ids).not.toContain(removed.id);
    expect(ids).not.toContain(mine.id);
    expect(page.balanceMicro).toBe(9 * Z);
    const item = page.items.find((i) => i.id === offered.id)!;
    expect(item).toMatchObject({ kind: "trained", orientation: "vertical", priceMicro: 8 * Z, sellerNickname: seller.nickname, boughtFigureId: null });
    expect(item.posterUrl).toMatch(new RegExp(`^/files/${offered.keys.poster}\\?v=`));
    expect(item.loopUrl).toMatch(new RegExp(`^/files/${offered.keys.loop}\\?v=`));
    const text = JSON.stringify(page);
    expect(text).not.toContain(offered.keys.source);
    expect(text).not.toContain("sourceFileKey");
    // The seller's own page does not show the seller's figures.
    expect((await seller.caller.digitalFigures.shop({ page: 1 })).items.map((i) => i.id)).not.toContain(offered.id);

    const bought = await viewer.caller.digitalFigures.buy({ id: offered.id, priceMicro: 8 * Z });
    const again = (await viewer.caller.digitalFigures.shop({})).items.find((i) => i.id === offered.id)!;
    expect(again.boughtFigureId).toBe(bought.figure.id);
    // A bought copy is never in the shop.
    expect((await seller.caller.digitalFigures.shop({})).items.map((i) => i.id)).not.toContain(bought.figure.id);
  });

  it("pages", async () => {
    const seller = await makeUser();
    const viewer = await makeUser();
    for (let i = 0; i < 13; i++) await seller.caller.digitalFigures.setSale({ id: (await makeFigure(seller)).id, priceMicro: (i + 1) * Z });
    const first = await viewer.caller.digitalFigures.shop({ page: 1 });
    expect(first.items).toHaveLength(12);
    expect(first.total).toBeGreaterThanOrEqual(13);
    const last = await viewer.caller.digitalFigures.shop({ page: Math.ceil(first.total / first.pageSize) });
    expect(last.items.length).toBeGreaterThan(0);
    expect(new Set([...first.items, ...last.items].map((i) => i.id)).size).toBe(first.items.length + last.items.length);
    expect((await viewer.caller.digitalFigures.shop({ page: 1000 })).items).toEqual([]);
    expect((await refusal(viewer.caller.digitalFigures.shop({ page: 0 }))).code).toBe("validation_failed");
  });
});

describe("buying a figure", () => {
  it("pays from gift credit first, then coins; the seller gets 90%, the platform 10%; the buyer gets a ready copy", async () => {
    const seller = await makeUser();
    const buyer = await makeUser({ gift: 5 * Z, coins: 50 * Z });
    const original = await makeFigure(seller, { trained: true, greeting: true });
    await seller.caller.digitalFigures.setSale({ id: original.id, priceMicro: 12_500_000 });
    const revenueBefore = await platformRevenueEntries();

    const bought = await buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 12_500_000 });
    expect(bought).toMatchObject({ chargedMicro: 12_500_000, replayed: false });
    expect(await getWallet(buyer.id)).toMatchObject({ gift: 0, spendable: 42_500_000 });
    expect((await getWallet(seller.id)).spendable).toBe(11_250_000);
    expect((await platformRevenueEntries()) - revenueBefore).toBe(1_250_000);

    const view = bought.figure;
    expect(view).toMatchObject({ state: "ready", kind: "trained", purchased: true, salePriceMicro: null, sourceUrl: null, orientation: "vertical" });
    expect(view.training.canOrder).toBe(false);
    expect(view.key).toEqual({ color: "#10f020", similarity: 35, blend: 12 });
    expect(view.loopUrl).toContain(original.keys.loop);
    expect(JSON.stringify(await buyer.caller.digitalFigures.get({ id: view.id }))).not.toContain(original.keys.source);
    const src = await figureRow(original.id);
    const copy = await figureRow(view.id);
    expect(copy).toMatchObject({
      ownerAccountId: buyer.id,
      purchasedFromId: original.id,
      name: src.name,
      kind: "trained",
      state: "ready",
      sourceFileKey: src.sourceFileKey,
      greetingFileKey: src.greetingFileKey,
      loopFileKey: src.loopFileKey,
      posterFileKey: src.posterFileKey,
      provider: "heygen",
      providerAvatarId: src.providerAvatarId,
      trainingJobId: null,
      salePriceMicro: null,
      deletedAt: null,
    });
    // The buyer's own lists and videos know it as theirs.
    expect((await buyer.caller.digitalFigures.list()).items.map((f) => f.id)).toContain(view.id);
    const statement = await getDb().ledgerTransaction.findFirstOrThrow({ where: { idempotencyKey: `figure-sale:${view.id}` } });
    expect(statement).toMatchObject({ kind: "purchase", accountId: buyer.id });
  });

  it("answers the same copy and charges once when bought again, also when bought many times at once", async () => {
    const seller = await makeUser();
    const original = await makeFigure(seller);
    await seller.caller.digitalFigures.setSale({ id: original.id, priceMicro: 3 * Z });
    const buyer = await makeUser({ coins: 10 * Z });
    const results = await Promise.all(Array.from({ length: 6 }, () => buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 3 * Z })));
    const ids = new Set(results.map((r) => r.figure.id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect((await getWallet(buyer.id)).spendable).toBe(7 * Z);
    expect((await getWallet(seller.id)).spendable).toBe(2_700_000);
    expect(await copiesOf(original.id)).toHaveLength(1);
    const again = await buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 3 * Z });
    expect(again).toMatchObject({ replayed: true, chargedMicro: 0, figure: { id: [...ids][0] } });
    // Even after the seller raised the price: it is bought already.
    await seller.caller.digitalFigures.setSale({ id: original.id, priceMicro: 4 * Z });
    expect((await buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 3 * Z })).replayed).toBe(true);
    expect((await getWallet(buyer.id)).spendable).toBe(7 * Z);
    expect(await saleKeys([...ids][0])).toBe(1);
  });

  it("refuses one's own figure, one not for sale, a changed price and a short balance, writing nothing", async () => {
    const seller = await makeUser();
    const original = await makeFigure(seller);
    const unlisted = await makeFigure(seller);
    await seller.caller.digitalFigures.setSale({ id: original.id, priceMicro: 20 * Z });
    const buyer = await makeUser({ gift: 5 * Z, coins: 10 * Z });
    const before = { buyer: await getWallet(buyer.id), seller: await getWallet(seller.id), revenue: await platformRevenueEntries() };

    expect((await refusal(seller.caller.digitalFigures.buy({ id: original.id, priceMicro: 20 * Z }))).code).toBe("figure_own");
    expect((await refusal(buyer.caller.digitalFigures.buy({ id: unlisted.id, priceMicro: 20 * Z }))).code).toBe("figure_not_for_sale");
    expect((await refusal(buyer.caller.digitalFigures.buy({ id: "no-such-figure", priceMicro: 20 * Z }))).code).toBe("figure_not_for_sale");
    const changed = await refusal(buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 15 * Z }));
    expect(changed.code).toBe("figure_price_changed");
    expect(changed.envelope.description).toContain("20.00 Z");
    const short = await refusal(buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 20 * Z }));
    expect(short.code).toBe("balance_insufficient");
    expect((await refusal(buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: -1 }))).code).toBe("validation_failed");

    await seller.caller.digitalFigures.setSale({ id: original.id, priceMicro: null });
    await fundAccount(buyer.id, 50 * Z, "spendable");
    expect((await refusal(buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 20 * Z }))).code).toBe("figure_not_for_sale");

    expect(await copiesOf(original.id)).toHaveLength(0);
    expect(await copiesOf(unlisted.id)).toHaveLength(0);
    expect(await getWallet(buyer.id)).toMatchObject({ gift: before.buyer.gift, spendable: before.buyer.spendable + 50 * Z });
    expect(await getWallet(seller.id)).toEqual(before.seller);
    expect(await platformRevenueEntries()).toBe(before.revenue);
  });

  it("refuses a bought copy, a figure still checked and a removed one", async () => {
    const seller = await makeUser();
    const first = await makeUser({ coins: 20 * Z });
    const second = await makeUser({ coins: 20 * Z });
    const original = await makeFigure(seller);
    await seller.caller.digitalFigures.setSale({ id: original.id, priceMicro: 2 * Z });
    const { figure: copy } = await first.caller.digitalFigures.buy({ id: original.id, priceMicro: 2 * Z });
    expect((await refusal(second.caller.digitalFigures.buy({ id: copy.id, priceMicro: 2 * Z }))).code).toBe("figure_not_for_sale");
    // A price written past the service (a figure that never was prepared) is still not for sale.
    const checking = await makeFigure(seller, { state: "checking" });
    await getDb().digitalFigure.update({ where: { id: checking.id }, data: { salePriceMicro: 2n * BigInt(Z) } });
    expect((await refusal(second.caller.digitalFigures.buy({ id: checking.id, priceMicro: 2 * Z }))).code).toBe("figure_not_for_sale");
    await seller.caller.digitalFigures.remove({ id: original.id });
    expect((await refusal(second.caller.digitalFigures.buy({ id: original.id, priceMicro: 2 * Z }))).code).toBe("figure_not_for_sale");
    expect((await getWallet(second.id)).spendable).toBe(20 * Z);
  });

  it("buys a removed copy again as the same row, paid again", async () => {
    const seller = await makeUser();
    const buyer = await makeUser({ coins: 20 * Z });
    const original = await makeFigure(seller);
    await seller.caller.digitalFigures.setSale({ id: original.id, priceMicro: 5 * Z });
    const first = await buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 5 * Z });
    await buyer.caller.digitalFigures.remove({ id: first.figure.id });
    expect((await buyer.caller.digitalFigures.shop({})).items.find((i) => i.id === original.id)?.boughtFigureId).toBeNull();
    const second = await buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 5 * Z });
    expect(second).toMatchObject({ replayed: false, chargedMicro: 5 * Z, figure: { id: first.figure.id, state: "ready" } });
    expect((await getWallet(buyer.id)).spendable).toBe(10 * Z);
    expect(await saleKeys(first.figure.id)).toBe(2);
    // The seller's files stayed while the copy was removed: the original still uses them.
    for (const key of [original.keys.source, original.keys.loop, original.keys.poster]) expect(await exists(key)).toBe(true);
  });

  it("keeps the ledger balanced", async () => {
    const r = await reconcileLedger();
    expect(r.mismatches).toEqual([]);
    expect(r.negative).toEqual([]);
    expect(r.unbalanced).toEqual([]);
    expect(r.totalMicro).toBe(0);
    expect(await platformRevenue()).toBeGreaterThanOrEqual(0);
  });
});

describe("a bought figure's files (copy on write)", () => {
  async function sold() {
    const seller = await makeUser();
    const buyer = await makeUser({ coins: 50 * Z });
    const original = await makeFigure(seller, { greeting: true });
    await seller.caller.digitalFigures.setSale({ id: original.id, priceMicro: 5 * Z });
    const { figure } = await buyer.caller.digitalFigures.buy({ id: original.id, priceMicro: 5 * Z });
    const hashes = { loop: sha(await readStored(original.keys.loop)), poster: sha(await readStored(original.keys.poster)) };
    return { seller, buyer, original, copyId: figure.id, hashes };
  }

  it("keying the copy writes the buyer's own loop and still, and leaves the seller's files and row as they were", async () => {
    const { buyer, original, copyId, hashes } = await sold();
    const sellerRow = await figureRow(original.id);
    // A key that leaves the green and takes the figure's blue: a still unlike the seller's.
    await buyer.caller.digitalFigures.saveKey({ id: copyId, color: "#203070", similarity: 20, blend: 5 });
    await runPrepare(copyId);
    const copy = await figureRow(copyId);
    expect(copy.loopFileKey).toMatch(new RegExp(`^media/${buyer.id}/figures/[A-Za-z0-9_-]+\\.loop\\.mp4$`));
    expect(copy.posterFileKey).toMatch(new RegExp(`^media/${buyer.id}/figures/[A-Za-z0-9_-]+\\.keyed\\.png$`));
    expect(copy.sourceFileKey).toBe(original.keys.source);
    expect(await exists(copy.loopFileKey!)).toBe(true);
    expect(sha(await readStored(copy.posterFileKey!))).not.toBe(hashes.poster);
    expect(sha(await readStored(original.keys.loop))).toBe(hashes.loop);
    expect(sha(await readStored(original.keys.poster))).toBe(hashes.poster);
    expect(await figureRow(original.id)).toEqual(sellerRow);
    const view = await buyer.caller.digitalFigures.get({ id: copyId });
    expect(view.posterUrl).toContain(copy.posterFileKey);
    expect(view.sourceUrl).toBeNull();

    // Keying it again writes over its own files in place: they are the buyer's alone.
    await buyer.caller.digitalFigures.saveKey({ id: copyId, color: "#00ff00", similarity: 20, blend: 5 });
    await runPrepare(copyId);
    expect((await figureRow(copyId)).posterFileKey).toBe(copy.posterFileKey);
  }, 120_000);

  it("removing the copy deletes only the buyer's own files", async () => {
    const { buyer, original, copyId } = await sold();
    await buyer.caller.digitalFigures.saveKey({ id: copyId, color: "#00ff00", similarity: 40, blend: 5 });
    await runPrepare(copyId);
    const own = await figureRow(copyId);
    await buyer.caller.digitalFigures.remove({ id: copyId });
    expect(await exists(own.loopFileKey!)).toBe(false);
    expect(await exists(own.posterFileKey!)).toBe(false);
    for (const key of Object.values(original.keys)) expect(await exists(key!), key!).toBe(true);
  }, 120_000);

  it("removing the original keeps the files the copy uses until the copy goes too", async () => {
    const { seller, buyer, original, copyId } = await sold();
    await seller.caller.digitalFigures.remove({ id: original.id });
    for (const key of Object.values(original.keys)) expect(await exists(key!), key!).toBe(true);
    const view = await buyer.caller.digitalFigures.get({ id: copyId });
    expect(view.state).toBe("ready");
    const served = await fetch(`${server.base}${view.loopUrl}`);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
    // The last figure that uses them is gone: so are they.
    await buyer.caller.digitalFigures.remove({ id: copyId });
    for (const key of Object.values(original.keys)) expect(await exists(key!), key!).toBe(false);
  });

  it("keying the original after the sale writes the seller's new files under fresh keys: the copy keeps its own look", async () => {
    const { seller, original, copyId, hashes } = await sold();
    await seller.caller.digitalFigures.saveKey({ id: original.id, color: "#00ff00", similarity: 60, blend: 20 });
    await runPrepare(original.id);
    const after = await figureRow(original.id);
    expect(after.posterFileKey).not.toBe(original.keys.poster);
    expect(after.posterFileKey).toMatch(new RegExp(`^media/${seller.id}/figures/`));
    expect(sha(await readStored(original.keys.poster))).toBe(hashes.poster);
    expect((await figureRow(copyId)).posterFileKey).toBe(original.keys.poster);
    expect(await exists(original.keys.loop)).toBe(true);
  }, 120_000);

  it("a figure nobody else uses is keyed in place and removed with all its files", async () => {
    const seller = await makeUser();
    const figure = await makeFigure(seller, { greeting: true });
    await seller.caller.digitalFigures.saveKey({ id: figure.id, color: "#00ff00", similarity: 45, blend: 10 });
    await runPrepare(figure.id);
    expect((await figureRow(figure.id)).posterFileKey).toBe(figure.keys.poster);
    await seller.caller.digitalFigures.remove({ id: figure.id });
    for (const key of Object.values(figure.keys)) expect(await exists(key!), key!).toBe(false);
  }, 120_000);

  it("refuses to order a bought figure's training, holding nothing", async () => {
    const { buyer, copyId } = await sold();
    const before = await getWallet(buyer.id);
    const r = await refusal(buyer.caller.digitalFigures.orderTraining({ id: copyId }));
    expect(r.code).toBe("figure_purchased_refused");
    expect(await getWallet(buyer.id)).toEqual(before);
    expect((await figureRow(copyId)).state).toBe("ready");
  });
});
