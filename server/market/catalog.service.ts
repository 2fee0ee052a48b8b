// What the app centre and the agent market show: lists of listed apps (on shelf and public) and
// shelved agents, search in Chinese and English, the details of one app or agent with its update
// log and developer, and a developer's public page. Reading is public.
import { AppError } from "../errors/app-error";
import { queryWords } from "../knowledge/text-segmenter";
import * as repo from "./catalog.repository";
import { decodeCursor, encodeCursor, isKeyCursor, isOffsetCursor, isScoreCursor } from "./cursor";
import { getViewerState, type TActor } from "./social.service";
import type { TAgentCard, TAppCard, TDeveloperPageInput, TListAgentsInput, TListAppsInput, TPage, TSearchResult, TSearchInput } from "./market.schema";

function toAppCard(r: repo.TAppCardRow): TAppCard {
  return {
    id: r.id,
    name: r.name,
    nameEn: r.name_en,
    iconUrl: r.icon_url,
    introduction: r.introduction,
    introductionEn: r.introduction_en ?? "",
    categoryId: r.category_id,
    tags: r.tags ?? [],
    type: r.type,
    likeCount: r.like_count,
    collectCount: r.collect_count,
    commentCount: r.comment_count,
    popularity: r.popularity,
    owner: { id: r.owner_id, nickname: r.owner_nickname, avatarUrl: r.owner_avatar_url },
    listedAt: r.listed_at ? new Date(r.listed_at).toISOString() : null,
  };
}

function toAgentCard(r: repo.TAgentCardRow): TAgentCard {
  return {
    id: r.id,
    name: r.name,
    avatarUrl: r.avatar_url,
    introduction: r.introduction,
    version: r.version,
    modelKey: r.model_key,
    likeCount: r.like_count,
    owner: { id: r.owner_id, nickname: r.owner_nickname, avatarUrl: r.owner_avatar_url },
    publishedAt: r.published_at ? new Date(r.published_at).toISOString() : null,
  };
}

/** limit + 1 rows in: the page, and a cursor naming its last row when more follow. */
function pageOf<R, T>(rows: R[], limit: number, map: (r: R) => T, cursorOf: (last: R) => unknown): TPage<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items: items.map(map), nextCursor: rows.length > limit && last !== undefined ? encodeCursor(cursorOf(last)) : null };
}

/** The app centre: listed apps of a category (or all), by popularity or newest, a page at a time. */
export async function listAppCentre(input: TListAppsInput): Promise<TPage<TAppCard>> {
  return listApps(input);
}

async function listApps(input: { categoryId?: number; ownerId?: string; sort: "popular" | "newest"; cursor?: string; limit: number }) {
  let after: repo.TAppKeyset | undefined;
  if (input.sort === "popular") {
    const c = decodeCursor(input.cursor, isScoreCursor);
    after = c && { sort: "popular", popularity: c.p, id: c.id };
  } else {
    const c = decodeCursor(input.cursor, isKeyCursor);
    after = c && { sort: "newest", key: c.k, id: c.id };
  }
  const rows = await repo.listListedApps({ categoryId: input.categoryId, ownerId: input.ownerId, sort: input.sort, after, limit: input.limit });
  return pageOf(rows, input.limit, toAppCard, (r) => (input.sort === "popular" ? { p: r.popularity, id: r.id } : { k: r.newest_key, id: r.id }));
}

/** The agent market: agents with a version on the shelf, newest listing first. */
export async function listAgentMarket(input: TListAgentsInput): Promise<TPage<TAgentCard>> {
  const c = decodeCursor(input.cursor, isKeyCursor);
  const rows = await repo.listShelvedAgents({ after: c && { key: c.k, id: c.id }, limit: input.limit });
  return pageOf(rows, input.limit, toAgentCard, (r) => ({ k: r.newest_key, id: r.id }));
}

/**
 * Search (Chinese and English) over name, introduction and tags. Apps match through their
 * segmented search words, ranked by where the words occur; a query too short to yield a word
 * falls back to a substring of the name. Agents match the words (or the text) in name and
 * introduction, names counting more.
 */
export async function searchMarket(input: TSearchInput): Promise<TSearchResult> {
  const empty = { items: [], nextCursor: null };
  if (!input.q) return { q: "", kind: input.kind, apps: empty, agents: empty };
  const offset = decodeCursor(input.cursor, isOffsetCursor)?.o ?? 0;
  const words = queryWords(input.q);
  const next = (rows: unknown[]) => (rows.length > input.limit ? encodeCursor({ o: offset + input.limit }) : null);
  if (input.kind === "agent") {
    const terms = [...new Set([input.q.toLowerCase(), ...words])].slice(0, 16);
    const rows = await repo.searchShelvedAgents(terms, offset, input.limit);
    return { q: input.q, kind: "agent", apps: empty, agents: { items: rows.slice(0, input.limit).map(toAgentCard), nextCursor: next(rows) } };
  }
  const rows = words.length ? await repo.searchListedApps(words, offset, input.limit) : await repo.searchListedAppsByName(input.q, offset, input.limit);
  return { q: input.q, kind: "app", apps: { items: rows.slice(0, input.limit).map(toAppCard), nextCursor: next(rows) }, agents: empty };
}

async function describeDeveloper(id: string) {
  const d = await repo.findDeveloper(id);
  if (!d) return null;
  return {
    id: d.id,
    nickname: d.nickname,
    avatarUrl: d.avatar_url,
    joinedAt: d.created_at.toISOString(),
    followers: d.followers,
    following: d.following,
    apps: d.apps,
    agents: d.agents,
  };
}
export type TDeveloperView = NonNullable<Awaited<ReturnType<typeof describeDeveloper>>>;

const toLog = (rows: Awaited<ReturnType<typeof repo.listLiveVersions>>) =>
  rows.map((v) => ({ version: v.version, updateNote: v.updateNote, publishedAt: v.publishedAt!.toISOString() }));

/**
 * An app's details page: on shelf for anyone (private ones by link; sub-account ones for their
 * enterprise), in any state for its owner, who sees why it was removed elsewhere (/my_app).
 */
export async function getAppDetail(viewer: TActor | null, id: string) {
  const app = await repo.findAppForDetail(id);
  const isOwner = Boolean(viewer && app && viewer.id === app.ownerAccountId);
  if (!app || (!isOwner && app.state !== "on_shelf")) throw new AppError("not_found");
  if (app.mode === "sub_account" && !isOwner && !(viewer && app.enterpriseId && viewer.enterpriseId === app.enterpriseId)) throw new AppError("not_found");
  const agentId = app.agents[0]?.agentId;
  const [developer, log, agents, viewerState] = await Promise.all([
    describeDeveloper(app.ownerAccountId),
    agentId ? repo.listLiveVersions(agentId) : Promise.resolve([]),
    repo.findAgentNames(app.agents.map((a) => a.agentId)),
    getViewerState(viewer, { targetType: "app", targetId: app.id }, app.ownerAccountId),
  ]);
  return {
    kind: "app" as const,
    app: {
      id: app.id,
      type: app.type as string,
      state: app.state as string,
      name: app.name,
      nameEn: app.nameEn,
      iconUrl: app.iconUrl,
      introduction: app.introduction,
      introductionEn: app.introductionEn,
      categoryId: app.categoryId,
      tags: app.tags ?? [],
      platform: app.platform,
      listed: app.state === "on_shelf" && app.isPublic && app.inAppCentre,
      likeCount: app.likeCount,
      collectCount: app.collectCount,
      commentCount: app.commentCount,
      userCount: app.userCount,
      dialogueCount: app.dialogueCount,
      listedAt: app.listedAt?.toISOString() ?? null,
    },
    agents: agents.map((a) => ({ id: a.id, name: a.name, avatarUrl: a.avatarUrl })),
    updateLog: toLog(log),
    developer,
    viewer: viewerState,
  };
}

/** An agent's details page: its shelved version, update log and developer. */
export async function getAgentDetail(viewer: TActor | null, id: string) {
  const agent = await repo.findShelvedAgent(id);
  if (!agent) throw new AppError("not_found");
  const [developer, log, counts, viewerState] = await Promise.all([
    describeDeveloper(agent.owner_account_id),
    repo.listLiveVersions(agent.id),
    repo.countAgentReactions(agent.id),
    getViewerState(viewer, { targetType: "agent", targetId: agent.id }, agent.owner_account_id),
  ]);
  return {
    kind: "agent" as const,
    agent: { ...toAgentCard(agent), details: agent.details, collectCount: counts.collects, commentCount: counts.comments, likeCount: counts.likes },
    updateLog: toLog(log),
    developer,
    viewer: viewerState,
  };
}

/** /detail?id=: an app when the id is one, else a shelved agent. */
export async function getMarketDetail(viewer: TActor | null, id: string, kind?: "app" | "agent") {
  if (kind !== "agent") {
    try {
      return await getAppDetail(viewer, id);
    } catch (err) {
      if (kind === "app") throw err;
    }
  }
  return getAgentDetail(viewer, id);
}

/** /customer?id=: a developer's public page, their listed apps and shelved agents. */
export async function getDeveloperPage(viewer: TActor | null, input: TDeveloperPageInput) {
  const developer = await describeDeveloper(input.id);
  if (!developer) throw new AppError("not_found");
  const [apps, agentRows, viewerState] = await Promise.all([
    listApps({ ownerId: input.id, sort: "newest", limit: input.limit }),
    repo.listShelvedAgents({ ownerId: input.id, limit: 50 }),
    getViewerState(viewer, { targetType: "app", targetId: "" }, input.id),
  ]);
  return {
    developer,
    apps,
    agents: agentRows.slice(0, 50).map(toAgentCard),
    following: viewerState.following,
    isSelf: viewerState.isOwner,
    signedIn: viewerState.signedIn,
  };
}

/** More of a developer's apps, for the page's scroll-loading. */
export async function listDeveloperApps(input: TDeveloperPageInput): Promise<TPage<TAppCard>> {
  return listApps({ ownerId: input.id, sort: "newest", cursor: input.cursor, limit: input.limit });
}
