// Figures for sale: the seller's price, the shop's page, and a purchase, shared by the pages and the
// server (tRPC digitalFigures.setSale, .shop, .buy). No server imports: the browser uses this file too.
import { z } from "zod";
import { ORIENTATIONS } from "./digital.schema";
import { FIGURE_KINDS, ZFigureView } from "./figures.schema";

const MICRO = 1_000_000;
/** A price is whole fen, 1 to 10,000 Z. */
export const FIGURE_PRICE_MIN_MICRO = 1 * MICRO;
export const FIGURE_PRICE_MAX_MICRO = 10_000 * MICRO;
const FEN_MICRO = MICRO / 100;
export const FIGURE_SHOP_PAGE_SIZE = 12;

const ZId = z.string().min(1).max(64);
export const ZFigurePriceMicro = z
  .number({ error: "figures:validation.price_range" })
  .int("figures:validation.price_range")
  .min(FIGURE_PRICE_MIN_MICRO, "figures:validation.price_range")
  .max(FIGURE_PRICE_MAX_MICRO, "figures:validation.price_range")
  .refine((v) => v % FEN_MICRO === 0, "figures:validation.price_fen");

/** Offers the figure at a price, or withdraws it (null). */
export const ZSetFigureSaleInput = z.object({ id: ZId, priceMicro: ZFigurePriceMicro.nullable() });
export const ZFigureShopInput = z.object({ page: z.number().int().min(1).max(1000).default(1) });
/** `priceMicro` is the price the buyer was shown: a figure whose price changed since is not bought. */
export const ZBuyFigureInput = z.object({
  id: ZId,
  priceMicro: z
    .number()
    .int()
    .min(0)
    .max(FIGURE_PRICE_MAX_MICRO * 10),
});

export type TSetFigureSaleInput = z.infer<typeof ZSetFigureSaleInput>;
export type TFigureShopInput = z.input<typeof ZFigureShopInput>;
export type TBuyFigureInput = z.infer<typeof ZBuyFigureInput>;

/** A figure in the shop: what the buyer will get (its still and loop), never its filming video. */
export const ZFigureShopItem = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(FIGURE_KINDS),
  orientation: z.enum(ORIENTATIONS),
  posterUrl: z.string().nullable(),
  loopUrl: z.string().nullable(),
  priceMicro: z.number(),
  sellerNickname: z.string(),
  /** The viewer's own copy when they bought it already. */
  boughtFigureId: z.string().nullable(),
});
export type TFigureShopItem = z.infer<typeof ZFigureShopItem>;
export const ZFigureShopPage = z.object({
  items: z.array(ZFigureShopItem),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  /** What the viewer can spend (gift credit and coins), for the purchase's confirm. */
  balanceMicro: z.number(),
});
export type TFigureShopPage = z.infer<typeof ZFigureShopPage>;
export const ZBoughtFigure = z.object({ figure: ZFigureView, chargedMicro: z.number(), replayed: z.boolean() });
export type TBoughtFigure = z.infer<typeof ZBoughtFigure>;
