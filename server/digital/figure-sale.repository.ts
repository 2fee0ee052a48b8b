// The queries of figures for sale: the seller's price, the shop's page (other accounts' offered,
// usable originals), and a purchase's rows (the original held while it is copied, the buyer's copy).
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { USABLE_STATES } from "./figure-view";
import { FIGURE } from "./figures.repository";
import type { TFigureCheck } from "./figures.schema";

const LIVE = { deletedAt: null } as const;
/** An original that can be offered or bought: prepared (a loop and a still), usable, not itself bought. */
const SELLABLE: Prisma.DigitalFigureWhereInput = {
  ...LIVE,
  purchasedFromId: null,
  state: { in: [...USABLE_STATES] },
  loopFileKey: { not: null },
  posterFileKey: { not: null },
};

/** Sets the price of a sellable figure of the owner's, or clears any live one's; false when there is none. */
export async function setSalePrice(ownerAccountId: string, id: string, priceMicro: number | null, tx: TDbOrTx = getDb()) {
  const { count } = await tx.digitalFigure.updateMany({
    where: { id, ownerAccountId, ...(priceMicro === null ? LIVE : SELLABLE) },
    data: { salePriceMicro: priceMicro === null ? null : BigInt(priceMicro) },
  });
  return count === 1;
}

const SHOP_WHERE = (viewerId: string): Prisma.DigitalFigureWhereInput => ({
  ...SELLABLE,
  salePriceMicro: { not: null },
  ownerAccountId: { not: viewerId },
  owner: { status: "active" },
});

const SHOP_ITEM = {
  id: true,
  name: true,
  kind: true,
  orientation: true,
  check: true,
  loopFileKey: true,
  posterFileKey: true,
  salePriceMicro: true,
  owner: { select: { nickname: true } },
} as const;
export type TShopRow = Prisma.DigitalFigureGetPayload<{ select: typeof SHOP_ITEM }>;

export async function listShop(viewerId: string, skip: number, take: number, tx: TDbOrTx = getDb()) {
  const where = SHOP_WHERE(viewerId);
  const [rows, total] = await Promise.all([
    tx.digitalFigure.findMany({ where, select: SHOP_ITEM, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip, take }),
    tx.digitalFigure.count({ where }),
  ]);
  return { rows, total };
}

/** The buyer's live copies of these originals, by original id. */
export async function findCopiesOf(buyerId: string, originalIds: string[], tx: TDbOrTx = getDb()) {
  if (!originalIds.length) return new Map<string, string>();
  const rows = await tx.digitalFigure.findMany({
    where: { ownerAccountId: buyerId, purchasedFromId: { in: originalIds }, ...LIVE },
    select: { id: true, purchasedFromId: true },
  });
  return new Map(rows.map((r) => [r.purchasedFromId!, r.id]));
}

/** The buyer's copy of the original, live or removed (one row per buyer and original). */
export function findCopy(buyerId: string, originalId: string, tx: TDbOrTx) {
  return tx.digitalFigure.findFirst({ where: { ownerAccountId: buyerId, purchasedFromId: originalId }, select: { id: true, deletedAt: true } });
}

/** Takes turns with other purchases of this original by this buyer, until the transaction ends. */
export async function lockPurchase(buyerId: string, originalId: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`figure-sale:${buyerId}:${originalId}`}, 0))`;
}

/** The original a copy is made from: the figure as its own pages read it. */
const ORIGINAL = FIGURE;
export type TOriginalRow = Prisma.DigitalFigureGetPayload<{ select: typeof ORIGINAL }>;

/**
 * The live figure, held (FOR SHARE) until the transaction ends: its removal waits for the copy to
 * be written, so it sees the copy and keeps the files the copy uses.
 */
export async function findOriginalHeld(id: string, tx: TDbOrTx) {
  const held = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM digital_figure WHERE id = ${id} AND deleted_at IS NULL FOR SHARE`;
  if (!held.length) return null;
  return tx.digitalFigure.findFirst({ where: { id, ...LIVE }, select: ORIGINAL });
}

export type TCopyData = {
  name: string;
  kind: "green_screen" | "trained";
  sourceFileKey: string;
  greetingFileKey: string | null;
  check: TFigureCheck;
  orientation: string;
  keyColor: string;
  keySimilarity: number;
  keyBlend: number;
  loopFileKey: string | null;
  posterFileKey: string | null;
  provider: string | null;
  providerAvatarId: string | null;
};

const copyFields = (data: TCopyData, now: Date) => ({
  ...data,
  check: data.check as unknown as Prisma.InputJsonValue,
  state: "ready" as const,
  trainingJobId: null,
  errorCode: null,
  salePriceMicro: null,
  createdAt: now,
});

export async function createCopy(buyerId: string, originalId: string, data: TCopyData, now: Date, tx: TDbOrTx) {
  return (await tx.digitalFigure.create({ data: { ...copyFields(data, now), ownerAccountId: buyerId, purchasedFromId: originalId }, select: { id: true } })).id;
}

/** A removed copy bought again: the same row, as the original is now. */
export async function reviveCopy(copyId: string, data: TCopyData, now: Date, tx: TDbOrTx) {
  await tx.digitalFigure.update({ where: { id: copyId }, data: { ...copyFields(data, now), deletedAt: null } });
}
