// The ranking lists and the apps' counters, rebuilt set-wise in Postgres by the market.rankings job.
import { getDb, type TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { POPULARITY_WEIGHTS as W } from "./social.repository";

const LISTED = Prisma.sql`a.state = 'on_shelf' AND a.is_public AND a.in_app_centre AND a.mode = 'general' AND a.deleted_at IS NULL`;
const utc = (at: Date) => Prisma.sql`(${at.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;

/**
 * Recounts every app's likes, collects, comments, users and dialogues from their rows and sets
 * popularity = uses + 5 likes + 10 collects + 3 comments. The actions keep the counters current
 * as they happen; this heals any drift (a count read while an action committed).
 */
export async function recountApps(tx: TDbOrTx = getDb()) {
  return tx.$executeRaw`WITH fig AS (
      SELECT a.id,
        (SELECT count(*) FROM market_reaction r WHERE r.target_type = 'app' AND r.target_id = a.id AND r.kind = 'like')::int AS likes,
        (SELECT count(*) FROM market_reaction r WHERE r.target_type = 'app' AND r.target_id = a.id AND r.kind = 'collect')::int AS collects,
        (SELECT count(*) FROM market_comment c WHERE c.target_type = 'app' AND c.target_id = a.id AND c.deleted_at IS NULL)::int AS comments,
        (SELECT count(*) FROM app_use u WHERE u.app_id = a.id)::int AS uses,
        (SELECT count(DISTINCT COALESCE(u.account_id, u.visitor_id)) FROM app_use u WHERE u.app_id = a.id)::int AS users,
        (SELECT count(*) FROM dialogue d WHERE d.app_id = a.id)::int AS dialogues
      FROM app a WHERE a.deleted_at IS NULL)
    UPDATE app a SET like_count = f.likes, collect_count = f.collects, comment_count = f.comments, user_count = f.users, dialogue_count = f.dialogues,
      popularity = f.uses + ${W.like}::int * f.likes + ${W.collect}::int * f.collects + ${W.comment}::int * f.comments
    FROM fig f
    WHERE a.id = f.id AND (a.like_count, a.collect_count, a.comment_count, a.user_count, a.dialogue_count, a.popularity)
      IS DISTINCT FROM (f.likes, f.collects, f.comments, f.users, f.dialogues, f.uses + ${W.like}::int * f.likes + ${W.collect}::int * f.collects + ${W.comment}::int * f.comments)`;
}

export async function replaceList(list: string, select: Prisma.Sql, now: Date, tx: TDbOrTx) {
  await tx.$executeRaw`DELETE FROM ranking_entry WHERE list = ${list}`;
  return tx.$executeRaw`INSERT INTO ranking_entry (list, rank, target_type, target_id, score, computed_at)
    SELECT ${list}, row_number() OVER (ORDER BY s.score DESC, s.id), s.target_type, s.id, s.score, ${utc(now)} FROM (${select}) s`;
}

/** Listed apps by popularity. */
export const popularAppsSql = (limit: number) =>
  Prisma.sql`SELECT a.id, 'app' AS target_type, a.popularity::bigint AS score FROM app a WHERE ${LISTED} ORDER BY a.popularity DESC, a.id LIMIT ${limit}`;

/**
 * Developers with a listed app or a shelved agent, by what they earned as developers: the credits
 * to their coins in the ledger's sales (plans, buyouts, paid agent uses) less what refunds took
 * back, in micro-Z. The ledger is read once per rebuild, grouped by the developer each sale names.
 */
export const engineerEarningsSql = (limit: number) => Prisma.sql`SELECT d.id, 'account' AS target_type, COALESCE(i.micro, 0)::bigint AS score
  FROM (SELECT a.owner_account_id AS id FROM app a WHERE ${LISTED}
        UNION SELECT ag.owner_account_id FROM agent_version v JOIN agent ag ON ag.id = v.agent_id AND ag.deleted_at IS NULL WHERE v.state = 'on_shelf') d
  LEFT JOIN (
    SELECT t.memo->>'developerAccountId' AS id, sum(e.amount_micro) AS micro
    FROM ledger_transaction t JOIN ledger_entry e ON e.transaction_id = t.id AND e.ledger_account_id = 'spendable:' || (t.memo->>'developerAccountId')
    WHERE t.kind IN ('purchase', 'use_charge', 'refund') AND t.memo ? 'developerAccountId'
    GROUP BY 1) i ON i.id = d.id
  ORDER BY score DESC, d.id LIMIT ${limit}`;

/**
 * Shelved agents of a kind, by 5 likes + 10 collects + 3 comments + others' dialogues. An agent is of
 * the kind when its model is, or when a listed app in that kind's category runs it: an agent made
 * for pictures (writing drawing prompts, say) counts as an image agent whatever model it answers on.
 */
export const agentsOfKindSql = (kinds: string[], limit: number, categorySlug?: string) => Prisma.sql`SELECT s.id, 'agent' AS target_type, s.score FROM (
    SELECT ag.id, (
      ${W.like}::int * (SELECT count(*) FROM market_reaction r WHERE r.target_type = 'agent' AND r.target_id = ag.id AND r.kind = 'like')
      + ${W.collect}::int * (SELECT count(*) FROM market_reaction r WHERE r.target_type = 'agent' AND r.target_id = ag.id AND r.kind = 'collect')
      + ${W.comment}::int * (SELECT count(*) FROM market_comment c WHERE c.target_type = 'agent' AND c.target_id = ag.id AND c.deleted_at IS NULL)
      + (SELECT count(*) FROM dialogue d WHERE d.agent_id = ag.id AND (d.account_id IS NULL OR d.account_id <> ag.owner_account_id))
    )::bigint AS score
    FROM agent_version v JOIN agent ag ON ag.id = v.agent_id AND ag.deleted_at IS NULL LEFT JOIN model m ON m.key = v.config->>'model_key'
    WHERE v.state = 'on_shelf' AND (m.kind::text = ANY(${kinds}::text[])${categorySlug ? Prisma.sql` OR EXISTS (SELECT 1 FROM app_agent aa JOIN app a ON a.id = aa.app_id JOIN app_category c ON c.id = a.category_id WHERE aa.agent_id = ag.id AND c.slug = ${categorySlug} AND ${LISTED})` : Prisma.empty})) s
  ORDER BY s.score DESC, s.id LIMIT ${limit}`;

export type TRankingRowRaw = {
  list: string;
  rank: number;
  score: bigint;
  target_type: string;
  target_id: string;
  name: string | null;
  avatar_url: string | null;
  subtitle: string | null;
  computed_at: Date;
};

/** The top `limit` of each list, with names to show, in one statement. */
export async function readRankings(lists: string[], limit: number, tx: TDbOrTx = getDb()) {
  return tx.$queryRaw<TRankingRowRaw[]>`SELECT e.list, e.rank, e.score, e.target_type, e.target_id, e.computed_at,
      COALESCE(a.name, ag.name, o.nickname) AS name, COALESCE(a.icon_url, ag.avatar_url, o.avatar_url) AS avatar_url, COALESCE(ao.nickname, ago.nickname) AS subtitle
    FROM ranking_entry e
      LEFT JOIN app a ON e.target_type = 'app' AND a.id = e.target_id
      LEFT JOIN account ao ON ao.id = a.owner_account_id
      LEFT JOIN agent ag ON e.target_type = 'agent' AND ag.id = e.target_id
      LEFT JOIN account ago ON ago.id = ag.owner_account_id
      LEFT JOIN account o ON e.target_type = 'account' AND o.id = e.target_id
    WHERE e.list = ANY(${lists}::text[]) AND e.rank <= ${limit}
    ORDER BY e.list, e.rank`;
}
