// The market's reads of apps and agents: one statement per list, keyset-paginated on the
// sort key and the id, so a page costs the same at the end of 10,000 apps as at the start. Raw SQL:
// search ranks inside Postgres on the GIN-indexed search_lexemes tsvector (apps.repository.ts writes it).
import { getDb, type TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { toTsqueryLiteral } from "../knowledge/text-segmenter";

/** What anyone but the owner may see listed: on shelf, public, in the app centre, general mode. */
const LISTED = Prisma.sql`a.state = 'on_shelf' AND a.is_public AND a.in_app_centre AND a.mode = 'general' AND a.deleted_at IS NULL`;

const APP_COLUMNS = Prisma.sql`a.id, a.name, a.name_en, a.icon_url, left(a.introduction, 160) AS introduction, left(a.introduction_en, 160) AS introduction_en, a.category_id, coalesce(a.tags, '{}') AS tags, a.type::text AS type,
  a.like_count, a.collect_count, a.comment_count, a.popularity, a.listed_at, COALESCE(a.listed_at, a.created_at)::text AS newest_key,
  o.id AS owner_id, o.nickname AS owner_nickname, o.avatar_url AS owner_avatar_url`;

export type TAppCardRow = {
  id: string;
  name: string;
  name_en: string;
  icon_url: string;
  introduction: string;
  introduction_en: string;
  category_id: number | null;
  tags: string[];
  type: string;
  like_count: number;
  collect_count: number;
  comment_count: number;
  popularity: number;
  listed_at: Date | null;
  newest_key: string;
  owner_id: string;
  owner_nickname: string;
  owner_avatar_url: string | null;
};

export type TAppKeyset = { sort: "popular"; popularity: number; id: string } | { sort: "newest"; key: string; id: string };

/** A page of listed apps (limit + 1 rows: the extra one says whether another page exists). */
export async function listListedApps(
  q: { categoryId?: number; ownerId?: string; sort: "popular" | "newest"; after?: TAppKeyset; limit: number },
  tx: TDbOrTx = getDb(),
) {
  const category = q.categoryId ? Prisma.sql`AND a.category_id = ${q.categoryId}` : Prisma.empty;
  const owner = q.ownerId ? Prisma.sql`AND a.owner_account_id = ${q.ownerId}` : Prisma.empty;
  if (q.sort === "popular") {
    const after = q.after?.sort === "popular" ? Prisma.sql`AND (a.popularity, a.id) < (${q.after.popularity}::int, ${q.after.id})` : Prisma.empty;
    return tx.$queryRaw<TAppCardRow[]>`SELECT ${APP_COLUMNS} FROM app a JOIN account o ON o.id = a.owner_account_id
      WHERE ${LISTED} ${category} ${owner} ${after} ORDER BY a.popularity DESC, a.id DESC LIMIT ${q.limit + 1}`;
  }
  const after =
    q.after?.sort === "newest" ? Prisma.sql`AND (COALESCE(a.listed_at, a.created_at), a.id) < (${q.after.key}::timestamp, ${q.after.id})` : Prisma.empty;
  return tx.$queryRaw<TAppCardRow[]>`SELECT ${APP_COLUMNS} FROM app a JOIN account o ON o.id = a.owner_account_id
    WHERE ${LISTED} ${category} ${owner} ${after} ORDER BY COALESCE(a.listed_at, a.created_at) DESC, a.id DESC LIMIT ${q.limit + 1}`;
}

/**
 * Listed apps matching any of the words, best first: name (weight A) above tags (B) above
 * introduction (C), then popularity. The GIN index finds the candidates; only they are ranked.
 */
export async function searchListedApps(words: string[], offset: number, limit: number, tx: TDbOrTx = getDb()) {
  const query = toTsqueryLiteral(words);
  return tx.$queryRaw<(TAppCardRow & { rank: number })[]>`SELECT ${APP_COLUMNS}, ts_rank('{0.1, 0.2, 0.4, 1.0}', a.search_lexemes, q.q)::float8 AS rank
    FROM app a JOIN account o ON o.id = a.owner_account_id, CAST(${query} AS tsquery) AS q(q)
    WHERE a.search_lexemes @@ q.q AND ${LISTED}
    ORDER BY rank DESC, a.popularity DESC, a.id DESC OFFSET ${offset} LIMIT ${limit + 1}`;
}

/** Queries too short to segment into words (one Latin letter, a symbol): a plain substring match on the names. */
export async function searchListedAppsByName(text: string, offset: number, limit: number, tx: TDbOrTx = getDb()) {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return tx.$queryRaw<(TAppCardRow & { rank: number })[]>`SELECT ${APP_COLUMNS}, 0::float8 AS rank
    FROM app a JOIN account o ON o.id = a.owner_account_id
    WHERE (a.name ILIKE ${pattern} OR a.name_en ILIKE ${pattern}) AND ${LISTED}
    ORDER BY a.popularity DESC, a.id DESC OFFSET ${offset} LIMIT ${limit + 1}`;
}

// --- Agents on the market's shelf ---------------------------------------------------------------

const AGENT_COLUMNS = Prisma.sql`ag.id, ag.name, ag.avatar_url, v.version, left(COALESCE(v.config->>'introduction', ''), 160) AS introduction,
  COALESCE(v.config->>'model_key', '') AS model_key, v.published_at, COALESCE(v.published_at, v.created_at)::text AS newest_key,
  (SELECT count(*)::int FROM market_reaction r WHERE r.target_type = 'agent' AND r.target_id = ag.id AND r.kind = 'like') AS like_count,
  o.id AS owner_id, o.nickname AS owner_nickname, o.avatar_url AS owner_avatar_url`;

export type TAgentCardRow = {
  id: string;
  name: string;
  avatar_url: string | null;
  version: string;
  introduction: string;
  model_key: string;
  published_at: Date | null;
  newest_key: string;
  like_count: number;
  owner_id: string;
  owner_nickname: string;
  owner_avatar_url: string | null;
};

/** Agents with a version on the market's shelf (reviewed through /upload), newest listing first. */
export async function listShelvedAgents(q: { ownerId?: string; after?: { key: string; id: string }; limit: number }, tx: TDbOrTx = getDb()) {
  const owner = q.ownerId ? Prisma.sql`AND ag.owner_account_id = ${q.ownerId}` : Prisma.empty;
  const after = q.after ? Prisma.sql`AND (COALESCE(v.published_at, v.created_at), ag.id) < (${q.after.key}::timestamp, ${q.after.id})` : Prisma.empty;
  return tx.$queryRaw<TAgentCardRow[]>`SELECT ${AGENT_COLUMNS}
    FROM agent_version v JOIN agent ag ON ag.id = v.agent_id AND ag.deleted_at IS NULL JOIN account o ON o.id = ag.owner_account_id
    WHERE v.state = 'on_shelf' ${owner} ${after}
    ORDER BY COALESCE(v.published_at, v.created_at) DESC, ag.id DESC LIMIT ${q.limit + 1}`;
}

/** Shelved agents whose name or introduction contains any of the terms, most terms first. */
export async function searchShelvedAgents(terms: string[], offset: number, limit: number, tx: TDbOrTx = getDb()) {
  const patterns = terms.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return tx.$queryRaw<TAgentCardRow[]>`SELECT * FROM (
      SELECT ${AGENT_COLUMNS},
        (SELECT count(*) FROM unnest(${patterns}::text[]) p WHERE ag.name ILIKE p) * 3
        + (SELECT count(*) FROM unnest(${patterns}::text[]) p WHERE v.config->>'introduction' ILIKE p) AS hits
      FROM agent_version v JOIN agent ag ON ag.id = v.agent_id AND ag.deleted_at IS NULL JOIN account o ON o.id = ag.owner_account_id
      WHERE v.state = 'on_shelf') s
    WHERE s.hits > 0 ORDER BY s.hits DESC, s.id DESC OFFSET ${offset} LIMIT ${limit + 1}`;
}

// --- One app or agent -------------------------------------------------------------------------

export async function findAppForDetail(id: string, tx: TDbOrTx = getDb()) {
  return tx.app.findFirst({
    where: { id, deletedAt: null },
    select: {
      id: true,
      ownerAccountId: true,
      enterpriseId: true,
      type: true,
      state: true,
      name: true,
      nameEn: true,
      iconUrl: true,
      introduction: true,
      introductionEn: true,
      categoryId: true,
      tags: true,
      platform: true,
      mode: true,
      isPublic: true,
      inAppCentre: true,
      likeCount: true,
      collectCount: true,
      commentCount: true,
      userCount: true,
      dialogueCount: true,
      popularity: true,
      listedAt: true,
      createdAt: true,
      agents: { orderBy: { sortOrder: "asc" }, select: { agentId: true } },
    },
  });
}

/** An app on the shelf (listed or opened by link), with what decides who may see it. */
export async function findAppOnShelf(id: string, tx: TDbOrTx = getDb()) {
  return tx.app.findFirst({ where: { id, deletedAt: null, state: "on_shelf" }, select: { id: true, ownerAccountId: true, enterpriseId: true, mode: true } });
}

export async function findShelvedAgent(id: string, tx: TDbOrTx = getDb()) {
  const rows = await tx.$queryRaw<(TAgentCardRow & { details: string; owner_account_id: string })[]>`SELECT ${AGENT_COLUMNS},
      COALESCE(v.config->>'details', '') AS details, ag.owner_account_id
    FROM agent_version v JOIN agent ag ON ag.id = v.agent_id AND ag.deleted_at IS NULL JOIN account o ON o.id = ag.owner_account_id
    WHERE v.state = 'on_shelf' AND ag.id = ${id} LIMIT 1`;
  return rows[0] ?? null;
}

export async function countAgentReactions(id: string, tx: TDbOrTx = getDb()) {
  const rows = await tx.$queryRaw<{ likes: number; collects: number; comments: number }[]>`SELECT
    (SELECT count(*)::int FROM market_reaction WHERE target_type = 'agent' AND target_id = ${id} AND kind = 'like') AS likes,
    (SELECT count(*)::int FROM market_reaction WHERE target_type = 'agent' AND target_id = ${id} AND kind = 'collect') AS collects,
    (SELECT count(*)::int FROM market_comment WHERE target_type = 'agent' AND target_id = ${id} AND deleted_at IS NULL) AS comments`;
  return rows[0];
}

/** A developer's public figures: followers, listed apps, shelved agents. */
export async function findDeveloper(id: string, tx: TDbOrTx = getDb()) {
  const rows = await tx.$queryRaw<
    { id: string; nickname: string; avatar_url: string | null; created_at: Date; followers: number; following: number; apps: number; agents: number }[]
  >`SELECT
      o.id, o.nickname, o.avatar_url, o.created_at,
      (SELECT count(*)::int FROM follow f WHERE f.followee_id = o.id) AS followers,
      (SELECT count(*)::int FROM follow f WHERE f.follower_id = o.id) AS following,
      (SELECT count(*)::int FROM app a WHERE a.owner_account_id = o.id AND ${LISTED}) AS apps,
      (SELECT count(DISTINCT ag.id)::int FROM agent ag JOIN agent_version v ON v.agent_id = ag.id AND v.state = 'on_shelf' WHERE ag.owner_account_id = o.id AND ag.deleted_at IS NULL) AS agents
    FROM account o WHERE o.id = ${id} AND o.status = 'active'`;
  return rows[0] ?? null;
}

export async function findModelKinds(keys: string[], tx: TDbOrTx = getDb()) {
  if (!keys.length) return new Map<string, string>();
  const rows = await tx.model.findMany({ where: { key: { in: keys } }, select: { key: true, kind: true } });
  return new Map(rows.map((r) => [r.key, r.kind as string]));
}

/** The owner of an agent with a version on the market's shelf, or null. */
export async function findAgentOnShelf(id: string, tx: TDbOrTx = getDb()) {
  return tx.agent.findFirst({ where: { id, deletedAt: null, versions: { some: { state: "on_shelf" } } }, select: { id: true, ownerAccountId: true } });
}

/** The versions of an agent that went live, newest first: the update log of its app or listing. */
export async function listLiveVersions(agentId: string, tx: TDbOrTx = getDb()) {
  return tx.agentVersion.findMany({
    where: { agentId, publishedAt: { not: null } },
    orderBy: { publishedAt: "desc" },
    take: 50,
    select: { version: true, updateNote: true, publishedAt: true },
  });
}

export async function findAgentNames(ids: string[], tx: TDbOrTx = getDb()) {
  return tx.agent.findMany({ where: { id: { in: ids }, deletedAt: null }, select: { id: true, name: true, avatarUrl: true } });
}
