// Figures for sale. A creator offers a usable figure of their own (not one they bought) at a price
// of 1 to 10,000 Z; other creators see it in the shop and buy it. Buying pays the price from the
// buyer's wallet (gift credit first, then coins), 90% to the seller's coins and the platform's 10%
// fee (splitSale), and gives the buyer a figure of their own: a ready copy that uses the seller's
// prepared files (and avatar, for a trained figure), never for sale and never trained again. The
// copy shares the seller's file keys; figure-files.ts keeps either side from deleting or
// overwriting what the other still uses.
// - One copy per buyer and original: buying again answers the same copy and charges nothing, also
//   when two purchases arrive at once (they take turns on a lock; the database's unique key backs it).
// - A figure not offered (withdrawn, removed, unusable, or never offered) is "not for sale" as
//   another account's figure is "not found": nothing tells a buyer about figures they cannot buy.
// - The buyer names the price they were shown; another price now is refused, with the new price.
// - A copy the buyer removed can be bought again (and paid again): the same row comes back.
import { runTransaction, type TTx } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { getWallet, platform, spend, wallet } from "../money/ledger.service";
import { splitSale } from "../money/money.constants";
import { formatZ } from "../money/money-format";
import {
  FIGURE_SHOP_PAGE_SIZE,
  type TBoughtFigure,
  type TBuyFigureInput,
  type TFigureShopInput,
  type TFigureShopPage,
  type TSetFigureSaleInput,
} from "./figure-sale.schema";
import * as repo from "./figure-sale.repository";
import { USABLE_STATES, versionedUrl } from "./figure-view";
import { findOwnFigure, getFigure, stateRefused, type TFigureActor } from "./figures.service";
import { readFigureCheck, type TFigureView } from "./figures.schema";

/** Offers the figure at a price, or withdraws it with null. */
export async function setFigureSale(account: TFigureActor, { id, priceMicro }: TSetFigureSaleInput): Promise<TFigureView> {
  const row = await findOwnFigure(account, id);
  if (row.purchasedFromId) throw new AppError("figure_purchased_refused");
  if (!(await repo.setSalePrice(account.id, id, priceMicro))) throw stateRefused((await findOwnFigure(account, id)).state);
  return getFigure(account, { id });
}

/** Other accounts' figures for sale, newest first, a page at a time, with what the viewer may spend. */
export async function listFigureShop(account: TFigureActor, input: TFigureShopInput): Promise<TFigureShopPage> {
  const page = input.page ?? 1;
  const { rows, total } = await repo.listShop(account.id, (page - 1) * FIGURE_SHOP_PAGE_SIZE, FIGURE_SHOP_PAGE_SIZE);
  const ids = rows.map((r) => r.id);
  const copies = await repo.findCopiesOf(account.id, ids);
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      orientation: r.orientation === "horizontal" ? "horizontal" : "vertical",
      // The files the buyer will use; the filming video stays the seller's.
      posterUrl: versionedUrl(r.posterFileKey, readFigureCheck(r.check).preparedAt),
      loopUrl: versionedUrl(r.loopFileKey, readFigureCheck(r.check).preparedAt),
      priceMicro: Number(r.salePriceMicro),
      sellerNickname: r.owner.nickname,
      boughtFigureId: copies.get(r.id) ?? null,
    })),
    total,
    page,
    pageSize: FIGURE_SHOP_PAGE_SIZE,
    balanceMicro: (await getWallet(account.id)).available,
  };
}

/** The original as the buyer may buy it now, or the refusal that says why not. */
function assertBuyable(original: repo.TOriginalRow | null, buyerId: string, seenPriceMicro: number): asserts original is repo.TOriginalRow {
  if (original?.ownerAccountId === buyerId) throw new AppError("figure_own");
  const usable = original && (USABLE_STATES as readonly string[]).includes(original.state) && original.loopFileKey && original.posterFileKey;
  if (!original || !usable || original.purchasedFromId || original.salePriceMicro === null) throw new AppError("figure_not_for_sale");
  const priceMicro = Number(original.salePriceMicro);
  if (priceMicro !== seenPriceMicro) throw new AppError("figure_price_changed", { params: { price: formatZ(priceMicro) }, data: { priceMicro } });
}

const copyOf = (o: repo.TOriginalRow): repo.TCopyData => ({
  name: o.name,
  kind: o.kind,
  sourceFileKey: o.sourceFileKey,
  greetingFileKey: o.greetingFileKey,
  // Whatever the seller's worker is making now is the seller's: the copy starts with what is done.
  check: { ...readFigureCheck(o.check), stage: "done" },
  orientation: o.orientation,
  keyColor: o.keyColor,
  keySimilarity: o.keySimilarity,
  keyBlend: o.keyBlend,
  loopFileKey: o.loopFileKey,
  posterFileKey: o.posterFileKey,
  provider: o.provider,
  providerAvatarId: o.providerAvatarId,
});

/** Pays the seller 90% and the platform 10% from the buyer's wallet (gift credit first), in the purchase's transaction. */
function chargeFigureSale(key: string, buyerId: string, original: repo.TOriginalRow, tx: TTx) {
  const priceMicro = Number(original.salePriceMicro);
  const parts = splitSale(priceMicro, null);
  const credits = [
    { account: platform("platform_revenue"), amount: parts.platform },
    { account: wallet("spendable", original.ownerAccountId), amount: parts.developer },
  ].filter((c) => c.amount > 0);
  const memo = { what: "figure", figureId: original.id, figureName: original.name, buyerAccountId: buyerId, developerAccountId: original.ownerAccountId };
  return spend({ key, kind: "purchase", payer: buyerId, amount: priceMicro, credits, memo }, tx);
}

/** Buys another creator's figure: the buyer's copy, made once and paid once. */
export async function buyFigure(buyer: TFigureActor, { id, priceMicro }: TBuyFigureInput, now = new Date()): Promise<TBoughtFigure> {
  const bought = await runTransaction(
    async (tx) => {
      await repo.lockPurchase(buyer.id, id, tx);
      const copy = await repo.findCopy(buyer.id, id, tx);
      if (copy && !copy.deletedAt) return { figureId: copy.id, chargedMicro: 0, replayed: true };
      const original = await repo.findOriginalHeld(id, tx);
      assertBuyable(original, buyer.id, priceMicro);
      let figureId: string;
      let key: string;
      if (copy) {
        // Bought again after removing it: each purchase of the row has its own key.
        await repo.reviveCopy(copy.id, copyOf(original), now, tx);
        [figureId, key] = [copy.id, `figure-sale:${copy.id}:${copy.deletedAt!.getTime()}`];
      } else {
        figureId = await repo.createCopy(buyer.id, original.id, copyOf(original), now, tx);
        key = `figure-sale:${figureId}`;
      }
      await chargeFigureSale(key, buyer.id, original, tx);
      return { figureId, chargedMicro: Number(original.salePriceMicro), replayed: false };
    },
    { timeout: 20_000 },
  );
  return { figure: await getFigure(buyer, { id: bought.figureId }), chargedMicro: bought.chargedMicro, replayed: bought.replayed };
}
