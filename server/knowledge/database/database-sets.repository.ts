// The only queries of database training sets: the TrainingSet row of type database with its
// DatabaseSource. Every method takes `tx` (the embedded database is one session).
import { getDb, type TDbOrTx } from "../../db/client";
import type { Prisma } from "../../db/generated/client";

const SET = {
  id: true,
  ownerAccountId: true,
  enterpriseId: true,
  name: true,
  introduction: true,
  type: true,
  state: true,
  charCount: true,
  failureReason: true,
  createdAt: true,
  updatedAt: true,
  database: { select: { host: true, port: true, username: true, passwordEncrypted: true, database: true, ddl: true, verifiedAt: true, verifyError: true } },
} as const;

export type TDatabaseSetRow = Prisma.TrainingSetGetPayload<{ select: typeof SET }>;
export type TSourceFields = { host: string; port: number; username: string; passwordEncrypted: string; database: string; ddl: string };
type TState = TDatabaseSetRow["state"];

export async function listDatabaseSetsOf(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.trainingSet.findMany({ where: { ownerAccountId: accountId, type: "database", deletedAt: null }, orderBy: { createdAt: "desc" }, select: SET });
}

export async function findDatabaseSetById(id: string, tx: TDbOrTx = getDb()) {
  return tx.trainingSet.findFirst({ where: { id, type: "database", deletedAt: null }, select: SET });
}

export async function insertDatabaseSet(
  data: {
    ownerAccountId: string;
    enterpriseId: string | null;
    name: string;
    introduction: string;
    charCount: number;
    state: TState;
    failureReason: string | null;
    source: TSourceFields & { verifiedAt: Date | null; verifyError: string | null };
  },
  tx: TDbOrTx,
) {
  const { source, ...set } = data;
  return tx.trainingSet.create({ data: { ...set, type: "database", progress: 100, database: { create: source } }, select: SET });
}

export async function updateDatabaseSet(
  id: string,
  data: {
    name: string;
    introduction: string;
    charCount: number;
    state: TState;
    failureReason: string | null;
    source: TSourceFields & { verifiedAt: Date | null; verifyError: string | null };
  },
  tx: TDbOrTx = getDb(),
) {
  const { source, ...set } = data;
  return tx.trainingSet.update({ where: { id }, data: { ...set, revision: { increment: 1 }, database: { update: source } }, select: SET });
}

/** A verification's outcome on a stored set. */
export async function recordVerification(
  id: string,
  data: { state: TState; failureReason: string | null; verifiedAt: Date | null; verifyError: string | null },
  tx: TDbOrTx = getDb(),
) {
  const { verifiedAt, verifyError, ...set } = data;
  return tx.trainingSet.update({ where: { id }, data: { ...set, database: { update: { verifiedAt, verifyError } } }, select: SET });
}

export async function softDeleteDatabaseSet(id: string, now: Date, tx: TDbOrTx = getDb()) {
  await tx.trainingSet.update({ where: { id }, data: { deletedAt: now } });
}

/**
 * The types of some training sets an agent of `agentId`'s owner lists, with the database sources
 * of those that are database sets (a set of another account is never returned).
 */
export async function findSetsForAgent(agentId: string, ids: string[], tx: TDbOrTx = getDb()) {
  return tx.trainingSet.findMany({ where: { id: { in: ids }, deletedAt: null, owner: { agents: { some: { id: agentId } } } }, select: SET });
}
