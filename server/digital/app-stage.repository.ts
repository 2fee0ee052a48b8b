// What the phone page of a digital-human app reads of its owner's figure and background (Prisma only here).
import type { Prisma } from "../db/generated/client";
import { getDb, type TDbOrTx } from "../db/client";

const STAGE_FIGURE = {
  id: true,
  name: true,
  kind: true,
  state: true,
  check: true,
  loopFileKey: true,
  posterFileKey: true,
  greetingFileKey: true,
  keyColor: true,
  keySimilarity: true,
  keyBlend: true,
  provider: true,
  providerAvatarId: true,
} as const satisfies Prisma.DigitalFigureSelect;
export type TStageFigureRow = Prisma.DigitalFigureGetPayload<{ select: typeof STAGE_FIGURE }>;

/** The app owner's figure, when it is theirs and not deleted. */
export function findStageFigure(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.digitalFigure.findFirst({ where: { id, ownerAccountId, deletedAt: null }, select: STAGE_FIGURE });
}

/** The app owner's library item behind the figure. */
export function findStageBackground(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.mediaItem.findFirst({ where: { id, ownerAccountId, deletedAt: null }, select: { kind: true, fileKey: true, meta: true } });
}
