// The only queries of apps, their agents and plans. searchLexemes is a tsvector the
// segmenter builds in the app (Prisma cannot write one), so it is written with raw SQL after each save.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { toTsvectorLiteral } from "../knowledge/text-segmenter";
import type { TAppState, TAppType } from "./apps.schema";

export const APP = {
  id: true,
  ownerAccountId: true,
  enterpriseId: true,
  type: true,
  state: true,
  removedReason: true,
  removedAt: true,
  name: true,
  nameEn: true,
  iconUrl: true,
  introduction: true,
  introductionEn: true,
  categoryId: true,
  tags: true,
  platform: true,
  style: true,
  recommendedQuestions: true,
  menuItems: true,
  inputModes: true,
  outputModes: true,
  autoPlay: true,
  speaker: true,
  backgroundUrl: true,
  welcomeMessages: true,
  mode: true,
  trialDays: true,
  freePerDay: true,
  shareRatio: true,
  isPublic: true,
  inAppCentre: true,
  inputContent: true,
  settings: true,
  submittedAt: true,
  reviewedAt: true,
  listedAt: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
  agents: { select: { agentId: true, sortOrder: true }, orderBy: { sortOrder: "asc" } },
  plans: { select: { id: true, kind: true, quantity: true, priceMicro: true, dailyLimit: true, sortOrder: true }, orderBy: { sortOrder: "asc" } },
} as const satisfies Prisma.AppSelect;

export type TAppRow = Prisma.AppGetPayload<{ select: typeof APP }>;

/** Columns an app's form writes (everything but state, review and counters). */
export type TAppData = Omit<
  Prisma.AppUncheckedCreateInput,
  "id" | "agents" | "plans" | "apiKeys" | "state" | "removedReason" | "removedAt" | "reviewedAt" | "reviewedById" | "listedAt" | "deletedAt" | "submittedAt"
>;
export type TPlanData = { kind: "days" | "count"; quantity: number; priceMicro: bigint; dailyLimit: number | null };

/** Serialises creations of one account's apps (the edition's app count). */
export async function lockAccountApps(accountId: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('apps:' || ${accountId}))`;
}

/** Serialises moves of one app: two reviewers or two tabs cannot both move it. */
export async function lockApp(id: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT id FROM app WHERE id = ${id} FOR UPDATE`;
}

/** Apps an account has, in the recycle bin too: they come back on restore. */
export async function countAppsOf(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.app.count({ where: { ownerAccountId: accountId } });
}

export async function findAppById(id: string, tx: TDbOrTx = getDb(), opts: { deleted?: boolean } = {}) {
  const deletedAt = opts.deleted === undefined ? undefined : opts.deleted ? { not: null } : null;
  return tx.app.findFirst({ where: { id, ...(deletedAt !== undefined ? { deletedAt } : {}) }, select: APP });
}

export async function listAppsOf(accountId: string, filter: { type?: TAppType; state?: TAppState; deleted: boolean }, tx: TDbOrTx = getDb()) {
  return tx.app.findMany({
    where: {
      ownerAccountId: accountId,
      deletedAt: filter.deleted ? { not: null } : null,
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.state ? { state: filter.state } : {}),
    },
    orderBy: filter.deleted ? { deletedAt: "desc" } : { createdAt: "desc" },
    select: APP,
    take: 500,
  });
}

export async function listAppsInState(state: TAppState, tx: TDbOrTx = getDb()) {
  return tx.app.findMany({
    where: { state, deletedAt: null },
    orderBy: { submittedAt: "asc" },
    select: { ...APP, owner: { select: { account: true, nickname: true } } },
    take: 500,
  });
}

export async function insertApp(data: TAppData, agentIds: string[], plans: TPlanData[], tx: TDbOrTx) {
  const row = await tx.app.create({ data: { ...data, state: "under_review" }, select: { id: true } });
  await replaceAgentsAndPlans(row.id, agentIds, plans, tx);
  return row.id;
}

export async function updateAppById(
  id: string,
  data: Partial<TAppData> & {
    submittedAt?: Date;
    state?: TAppState;
    removedReason?: string | null;
    removedAt?: Date | null;
    reviewedAt?: Date | null;
    reviewedById?: string | null;
    listedAt?: Date | null;
    deletedAt?: Date | null;
  },
  tx: TDbOrTx,
) {
  await tx.app.update({ where: { id }, data, select: { id: true } });
}

export async function replaceAgentsAndPlans(appId: string, agentIds: string[], plans: TPlanData[], tx: TDbOrTx) {
  await tx.appAgent.deleteMany({ where: { appId } });
  await tx.appAgent.createMany({ data: agentIds.map((agentId, i) => ({ appId, agentId, sortOrder: i })) });
  await tx.appPlan.deleteMany({ where: { appId } });
  if (plans.length) await tx.appPlan.createMany({ data: plans.map((p, i) => ({ appId, ...p, sortOrder: i })) });
}

/** The app's search words, weighted for ranking: name A, tags B, introduction and English fields C. */
export async function writeSearchLexemes(
  app: { id: string; name: string; tags: string[]; introduction: string; nameEn: string; introductionEn: string },
  tx: TDbOrTx,
) {
  const literal = toTsvectorLiteral([
    { text: app.name, weight: "A" },
    { text: app.tags.join(" "), weight: "B" },
    { text: [app.introduction, app.nameEn, app.introductionEn].join(" "), weight: "C" },
  ]);
  await tx.$executeRaw`UPDATE app SET search_lexemes = ${literal}::tsvector WHERE id = ${app.id}`;
}

export async function deleteAppById(id: string, tx: TDbOrTx) {
  await tx.app.delete({ where: { id } });
}

/**
 * Of the given agents, those the account owns (not deleted) with a live version (published or
 * on the market's shelf): what an app may run.
 */
export async function findOwnLiveAgents(accountId: string, agentIds: string[], tx: TDbOrTx = getDb()) {
  if (!agentIds.length) return [];
  return tx.agent.findMany({
    where: {
      id: { in: agentIds },
      ownerAccountId: accountId,
      deletedAt: null,
      versions: { some: { state: { in: ["published", "published_in_review", "on_shelf"] } } },
    },
    select: { id: true, name: true },
  });
}

/** Whether a digital-human app's figure, own voice and background item are the account's and not deleted. */
export async function findOwnDigitalParts(accountId: string, ids: { figureId?: string; voiceId?: string; itemId?: string }, tx: TDbOrTx = getDb()) {
  const own = { ownerAccountId: accountId, deletedAt: null };
  const figure = ids.figureId ? await tx.digitalFigure.findFirst({ where: { id: ids.figureId, ...own }, select: { id: true } }) : null;
  const voice = ids.voiceId ? await tx.digitalVoice.findFirst({ where: { id: ids.voiceId, ...own }, select: { id: true } }) : null;
  const item = ids.itemId ? await tx.mediaItem.findFirst({ where: { id: ids.itemId, ...own }, select: { id: true } }) : null;
  return { figure: Boolean(figure), voice: Boolean(voice), item: Boolean(item) };
}

export async function findAgentNames(agentIds: string[], tx: TDbOrTx = getDb()) {
  if (!agentIds.length) return [];
  return tx.agent.findMany({ where: { id: { in: agentIds } }, select: { id: true, name: true } });
}

export async function categoryExists(id: number, tx: TDbOrTx = getDb()) {
  return Boolean(await tx.appCategory.findUnique({ where: { id }, select: { id: true } }));
}

export async function listCategories(tx: TDbOrTx = getDb()) {
  return tx.appCategory.findMany({ orderBy: { sortOrder: "asc" }, select: { id: true, slug: true, names: true } });
}

/** The owner's workshop apps that publish `workshopId`, with the version each pins. */
export function listWorkshopApps(ownerAccountId: string, workshopId: string, tx: TDbOrTx = getDb()) {
  return tx.app.findMany({
    where: { ownerAccountId, type: "workshop", deletedAt: null, settings: { path: ["workshop_id"], equals: workshopId } },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, state: true, settings: true },
  });
}

export async function writeAppSettings(id: string, settings: object, tx: TDbOrTx = getDb()) {
  await tx.app.update({ where: { id }, data: { settings } });
}

export async function replaceAppAgents(appId: string, agentIds: string[], tx: TDbOrTx) {
  await tx.appAgent.deleteMany({ where: { appId } });
  await tx.appAgent.createMany({ data: agentIds.map((agentId, i) => ({ appId, agentId, sortOrder: i })) });
}
