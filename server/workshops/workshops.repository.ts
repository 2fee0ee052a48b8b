// The only queries of workshops and their versions, and of the agents their roles may name.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";

const SUMMARY = {
  id: true,
  ownerAccountId: true,
  name: true,
  description: true,
  iconUrl: true,
  definition: true,
  revision: true,
  updatedAt: true,
  _count: { select: { runs: true } },
} as const;
export type TWorkshopRow = Prisma.WorkshopGetPayload<{ select: typeof SUMMARY }>;

export function listWorkshopsOf(ownerAccountId: string, tx: TDbOrTx = getDb()) {
  return tx.workshop.findMany({ where: { ownerAccountId, deletedAt: null }, orderBy: { updatedAt: "desc" }, take: 200, select: SUMMARY });
}

export function findWorkshop(id: string, tx: TDbOrTx = getDb()) {
  return tx.workshop.findFirst({ where: { id, deletedAt: null }, select: SUMMARY });
}

export function createWorkshop(
  data: { id: string; ownerAccountId: string; name: string; description: string; iconUrl: string; definition: object },
  tx: TDbOrTx = getDb(),
) {
  return tx.workshop.create({ data, select: { id: true } });
}

export async function updateWorkshopInfo(id: string, data: { name: string; description: string; iconUrl: string }, tx: TDbOrTx = getDb()) {
  await tx.workshop.update({ where: { id }, data });
}

/** Saves the draft over the revision the editor loaded; false when another save came first. */
export async function saveDefinition(id: string, revision: number, definition: object, tx: TDbOrTx = getDb()) {
  const r = await tx.workshop.updateMany({ where: { id, revision, deletedAt: null }, data: { definition, revision: { increment: 1 } } });
  return r.count === 1;
}

export async function markWorkshopDeleted(id: string, now: Date, tx: TDbOrTx = getDb()) {
  await tx.workshop.update({ where: { id }, data: { deletedAt: now } });
}

export function findLatestVersion(workshopId: string, tx: TDbOrTx = getDb()) {
  return tx.workshopVersion.findFirst({
    where: { workshopId },
    orderBy: { number: "desc" },
    select: { id: true, number: true, revision: true, definition: true },
  });
}

export function findVersion(id: string, tx: TDbOrTx = getDb()) {
  return tx.workshopVersion.findUnique({ where: { id }, select: { id: true, workshopId: true, number: true, revision: true, definition: true } });
}

export function createVersion(data: { workshopId: string; number: number; revision: number; definition: object }, tx: TDbOrTx = getDb()) {
  return tx.workshopVersion.create({ data, select: { id: true, number: true, revision: true } });
}

/** The states of an agent version that runs for its owner (and, on the shelf, for everyone). */
const LIVE: ("published" | "published_in_review" | "on_shelf")[] = ["published", "published_in_review", "on_shelf"];
const AGENT = {
  id: true,
  name: true,
  avatarUrl: true,
  ownerAccountId: true,
  enterpriseId: true,
  versions: {
    where: { state: { in: LIVE } },
    orderBy: { createdAt: "desc" as const },
    take: 1,
    select: { id: true, state: true, config: true, updatedAt: true },
  },
} as const;
export type TRoleAgentRow = Prisma.AgentGetPayload<{ select: typeof AGENT }>;

/** Agents by id with their live version, whoever owns them (the service decides who may use them). */
export function findRoleAgents(ids: string[], tx: TDbOrTx = getDb()) {
  if (!ids.length) return Promise.resolve([] as TRoleAgentRow[]);
  return tx.agent.findMany({ where: { id: { in: ids }, deletedAt: null }, select: AGENT });
}

/** The account's own agents with a live version, for the editor's role picker. */
export function listOwnLiveAgents(ownerAccountId: string, tx: TDbOrTx = getDb()) {
  return tx.agent.findMany({
    where: { ownerAccountId, deletedAt: null, versions: { some: { state: { in: LIVE } } } },
    orderBy: { updatedAt: "desc" },
    take: 200,
    select: AGENT,
  });
}

/** Whether the account bought the agent outright (it may then use another's agent in its workshops). */
export async function hasAgentBuyout(accountId: string, agentId: string, tx: TDbOrTx = getDb()) {
  const row = await tx.purchase.findFirst({
    where: { buyerAccountId: accountId, agentId, targetType: "agent_buyout", refundedAt: null },
    select: { id: true },
  });
  return row !== null;
}

/** The registry's kind of each model key (text, image, video...). */
export async function findModelKinds(keys: string[], tx: TDbOrTx = getDb()) {
  if (!keys.length) return new Map<string, string>();
  const rows = await tx.model.findMany({ where: { key: { in: keys } }, select: { key: true, kind: true } });
  return new Map(rows.map((r) => [r.key, r.kind as string]));
}
