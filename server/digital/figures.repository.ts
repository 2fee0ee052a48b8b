// The only queries of figures. Every read and write a person asks for names the owner: another
// account's figure is simply not there. The worker's steps and the training hook find a figure by
// its id or its training job alone (they act for whoever owns it). A removed figure keeps its row
// with deletedAt set.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TKeySettings, TOrientation } from "./digital.schema";
import type { TFigureCheck, TFigureState } from "./figures.schema";

/** Every column a figure's pages and services read (a bought copy is made from the same). */
export const FIGURE = {
  id: true,
  ownerAccountId: true,
  name: true,
  kind: true,
  state: true,
  sourceFileKey: true,
  greetingFileKey: true,
  consentFileKey: true,
  check: true,
  orientation: true,
  keyColor: true,
  keySimilarity: true,
  keyBlend: true,
  loopFileKey: true,
  posterFileKey: true,
  trainingJobId: true,
  provider: true,
  providerAvatarId: true,
  purchasedFromId: true,
  salePriceMicro: true,
  errorCode: true,
  createdAt: true,
} as const;
export type TFigureRow = Prisma.DigitalFigureGetPayload<{ select: typeof FIGURE }>;

const LIVE = { deletedAt: null } as const;
const asJson = (check: TFigureCheck) => check as unknown as Prisma.InputJsonValue;

export function createFigure(
  data: { ownerAccountId: string; name: string; sourceFileKey: string; greetingFileKey: string | null; check: TFigureCheck },
  tx: TDbOrTx = getDb(),
) {
  return tx.digitalFigure.create({ data: { ...data, check: asJson(data.check) }, select: FIGURE });
}

export function findFigure(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.digitalFigure.findFirst({ where: { id, ownerAccountId, ...LIVE }, select: FIGURE });
}

export function listFigures(ownerAccountId: string, tx: TDbOrTx = getDb()) {
  return tx.digitalFigure.findMany({ where: { ownerAccountId, ...LIVE }, select: FIGURE, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 200 });
}

/** A live figure whoever owns it (the worker's steps). */
export function findFigureForWork(id: string, tx: TDbOrTx = getDb()) {
  return tx.digitalFigure.findFirst({ where: { id, ...LIVE }, select: FIGURE });
}

/** When each training job was ordered, by job id. */
export async function findTrainingOrderDates(jobIds: string[], tx: TDbOrTx = getDb()) {
  if (!jobIds.length) return new Map<string, Date>();
  const rows = await tx.mediaJob.findMany({ where: { id: { in: jobIds } }, select: { id: true, createdAt: true } });
  return new Map(rows.map((r) => [r.id, r.createdAt]));
}

/** The provider a job ran at (a training's avatar belongs to it). */
export async function findJobProvider(jobId: string, tx: TDbOrTx = getDb()) {
  return (await tx.mediaJob.findUnique({ where: { id: jobId }, select: { provider: true } }))?.provider ?? null;
}

/** Renames a live figure of the owner's; false when there is none. */
export async function renameFigure(ownerAccountId: string, id: string, name: string, tx: TDbOrTx = getDb()) {
  const { count } = await tx.digitalFigure.updateMany({ where: { id, ownerAccountId, ...LIVE }, data: { name } });
  return count === 1;
}

/**
 * Moves a live figure on from one of `from` states and writes `data` with it; false when it was in
 * none of them (or gone). The state guard makes racing moves (two orders, a hook and a delete) take turns.
 */
export async function updateFigureFrom(
  id: string,
  from: readonly TFigureState[],
  data: {
    state?: TFigureState;
    check?: TFigureCheck;
    orientation?: TOrientation;
    key?: TKeySettings;
    loopFileKey?: string;
    posterFileKey?: string;
    trainingJobId?: string | null;
    kind?: "green_screen" | "trained";
    provider?: string | null;
    providerAvatarId?: string | null;
    errorCode?: string | null;
    consentFileKey?: string | null;
  },
  opts: { ownerAccountId?: string } = {},
  tx: TDbOrTx = getDb(),
) {
  const { check, key, ...rest } = data;
  const { count } = await tx.digitalFigure.updateMany({
    where: { id, state: { in: [...from] }, ...LIVE, ...(opts.ownerAccountId ? { ownerAccountId: opts.ownerAccountId } : {}) },
    data: {
      ...rest,
      ...(check ? { check: asJson(check) } : {}),
      ...(key ? { keyColor: key.color, keySimilarity: key.similarity, keyBlend: key.blend } : {}),
    },
  });
  return count === 1;
}

/** The live figure whose training job this is (the job-end hook). */
export function findFigureByTrainingJob(jobId: string, tx: TDbOrTx = getDb()) {
  return tx.digitalFigure.findFirst({ where: { trainingJobId: jobId }, select: FIGURE });
}

/** Marks a live figure of the owner's removed while it is in one of `from` states; false otherwise. */
export async function markFigureDeleted(ownerAccountId: string, id: string, from: readonly TFigureState[], now: Date, tx: TDbOrTx = getDb()) {
  const { count } = await tx.digitalFigure.updateMany({ where: { id, ownerAccountId, state: { in: [...from] }, ...LIVE }, data: { deletedAt: now } });
  return count === 1;
}

/**
 * Which of `keys` a live figure other than `exceptId` still names as one of its files: a bought
 * figure shares its seller's files, so a file goes only when no figure uses it any more.
 */
export async function findFileKeysInUse(keys: string[], exceptId: string | null, tx: TDbOrTx = getDb()) {
  if (!keys.length) return new Set<string>();
  const rows = await tx.digitalFigure.findMany({
    where: {
      ...LIVE,
      ...(exceptId ? { id: { not: exceptId } } : {}),
      OR: [{ sourceFileKey: { in: keys } }, { greetingFileKey: { in: keys } }, { loopFileKey: { in: keys } }, { posterFileKey: { in: keys } }],
    },
    select: { sourceFileKey: true, greetingFileKey: true, loopFileKey: true, posterFileKey: true },
  });
  const used = new Set(rows.flatMap((r) => [r.sourceFileKey, r.greetingFileKey, r.loopFileKey, r.posterFileKey]));
  return new Set(keys.filter((k) => used.has(k)));
}
