// The only queries of agents and their versions, and of the training sets a version may name.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TAgentState } from "./agent-lifecycle";

const AGENT = {
  id: true,
  ownerAccountId: true,
  enterpriseId: true,
  name: true,
  avatarUrl: true,
  sortOrder: true,
  invalidReason: true,
  createdAt: true,
  updatedAt: true,
} as const;

const VERSION = {
  id: true,
  agentId: true,
  version: true,
  state: true,
  config: true,
  updateNote: true,
  removedReason: true,
  submittedAt: true,
  reviewedAt: true,
  publishedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type TAgentRow = Prisma.AgentGetPayload<{ select: typeof AGENT }>;
export type TAgentVersionRow = Prisma.AgentVersionGetPayload<{ select: typeof VERSION }>;

/** Serialises writes to one account's agents (creation against the edition limit, reordering). */
export async function lockAccountAgents(accountId: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('agents:' || ${accountId}))`;
}

/** Serialises state moves of one agent: two reviewers or two tabs cannot both move it. */
export async function lockAgent(agentId: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT id FROM agent WHERE id = ${agentId} FOR UPDATE`;
}

export async function countAgentsOf(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.agent.count({ where: { ownerAccountId: accountId, deletedAt: null } });
}

export async function insertAgent(
  data: { ownerAccountId: string; enterpriseId: string | null; name: string; avatarUrl: string | null; sortOrder: number },
  tx: TDbOrTx = getDb(),
) {
  return tx.agent.create({ data, select: AGENT });
}

export async function updateAgentById(
  id: string,
  data: Partial<Pick<TAgentRow, "name" | "avatarUrl" | "sortOrder" | "invalidReason">> & { deletedAt?: Date },
  tx: TDbOrTx = getDb(),
) {
  return tx.agent.update({ where: { id }, data, select: AGENT });
}

export async function findAgentById(id: string, tx: TDbOrTx = getDb()) {
  return tx.agent.findFirst({ where: { id, deletedAt: null }, select: AGENT });
}

export async function listAgentsOf(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.agent.findMany({ where: { ownerAccountId: accountId, deletedAt: null }, orderBy: [{ sortOrder: "asc" }, { createdAt: "desc" }], select: AGENT });
}

export async function maxSortOrderOf(accountId: string, tx: TDbOrTx = getDb()) {
  const r = await tx.agent.aggregate({ where: { ownerAccountId: accountId, deletedAt: null }, _max: { sortOrder: true } });
  return r._max.sortOrder ?? 0;
}

export async function insertVersion(data: { agentId: string; version: string; config: Prisma.InputJsonValue; updateNote: string }, tx: TDbOrTx = getDb()) {
  return tx.agentVersion.create({ data, select: VERSION });
}

export async function updateVersionById(
  id: string,
  data: Partial<{
    version: string;
    config: Prisma.InputJsonValue;
    updateNote: string;
    state: TAgentState;
    removedReason: string | null;
    submittedAt: Date | null;
    reviewedAt: Date;
    reviewedById: string | null;
    publishedAt: Date;
  }>,
  tx: TDbOrTx = getDb(),
) {
  return tx.agentVersion.update({ where: { id }, data, select: VERSION });
}

export async function findVersionById(id: string, tx: TDbOrTx = getDb()) {
  return tx.agentVersion.findUnique({ where: { id }, select: VERSION });
}

export async function listVersionsOf(agentId: string, tx: TDbOrTx = getDb()) {
  return tx.agentVersion.findMany({ where: { agentId }, orderBy: { createdAt: "desc" }, select: VERSION });
}

/** Versions of many agents at once, newest first, for lists. */
export async function listVersionsOfAgents(agentIds: string[], tx: TDbOrTx = getDb()) {
  if (!agentIds.length) return [];
  return tx.agentVersion.findMany({ where: { agentId: { in: agentIds } }, orderBy: { createdAt: "desc" }, select: VERSION });
}

export async function listVersionsInState(state: TAgentState | readonly TAgentState[], tx: TDbOrTx = getDb()) {
  return tx.agentVersion.findMany({
    where: { state: typeof state === "string" ? state : { in: [...state] }, agent: { deletedAt: null } },
    orderBy: { submittedAt: "asc" },
    select: { ...VERSION, agent: { select: { ...AGENT, owner: { select: { account: true, nickname: true } } } } },
  });
}

/**
 * Of the training set ids a version names, the ones that are not the owner's live (not deleted)
 * sets. The agent asks because the rule is the agent's: it may only use its owner's own sets.
 */
export async function findForeignTrainingSetIds(accountId: string, ids: string[], tx: TDbOrTx = getDb()) {
  if (!ids.length) return [];
  const own = await tx.trainingSet.findMany({ where: { id: { in: ids }, ownerAccountId: accountId, deletedAt: null }, select: { id: true } });
  const ownIds = new Set(own.map((s) => s.id));
  return ids.filter((id) => !ownIds.has(id));
}
