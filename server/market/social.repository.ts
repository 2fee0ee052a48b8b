// Follows, likes, collects and comments: the only queries of these tables. Inserts that must happen
// once use the primary key (ON CONFLICT DO NOTHING) and report whether a row was written, so the
// service refuses a second like without a read-then-write race.
import { getDb, type TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { TTargetType } from "./market.schema";

// Popularity = uses + these weights; the ranking job recomputes it with the same weights.
export const POPULARITY_WEIGHTS = { like: 5, collect: 10, comment: 3 } as const;

export async function insertFollow(followerId: string, followeeId: string, tx: TDbOrTx = getDb()) {
  const n = await tx.$executeRaw`INSERT INTO follow (follower_id, followee_id) VALUES (${followerId}, ${followeeId}) ON CONFLICT DO NOTHING`;
  return n > 0;
}

export async function deleteFollow(followerId: string, followeeId: string, tx: TDbOrTx = getDb()) {
  const { count } = await tx.follow.deleteMany({ where: { followerId, followeeId } });
  return count > 0;
}

export async function isFollowing(followerId: string, followeeId: string, tx: TDbOrTx = getDb()) {
  return Boolean(await tx.follow.findUnique({ where: { followerId_followeeId: { followerId, followeeId } }, select: { followerId: true } }));
}

export async function countFollowers(followeeId: string, tx: TDbOrTx = getDb()) {
  return tx.follow.count({ where: { followeeId } });
}

export async function insertReaction(r: { targetType: TTargetType; targetId: string; accountId: string; kind: "like" | "collect" }, tx: TDbOrTx = getDb()) {
  const n = await tx.$executeRaw`INSERT INTO market_reaction (target_type, target_id, account_id, kind)
    VALUES (${r.targetType}::"MarketTargetType", ${r.targetId}, ${r.accountId}, ${r.kind}::"ReactionKind") ON CONFLICT DO NOTHING`;
  return n > 0;
}

export async function deleteReaction(r: { targetType: TTargetType; targetId: string; accountId: string; kind: "like" | "collect" }, tx: TDbOrTx = getDb()) {
  const { count } = await tx.marketReaction.deleteMany({ where: r });
  return count > 0;
}

export async function listOwnReactions(targetType: TTargetType, targetId: string, accountId: string, tx: TDbOrTx = getDb()) {
  const rows = await tx.marketReaction.findMany({ where: { targetType, targetId, accountId }, select: { kind: true } });
  return new Set(rows.map((r) => r.kind as string));
}

const COUNTER = { like: Prisma.sql`like_count`, collect: Prisma.sql`collect_count`, comment: Prisma.sql`comment_count` } as const;

/** Moves an app's counter (and its popularity by the counter's weight) by `delta`, never below 0. */
export async function bumpAppCounter(appId: string, counter: keyof typeof COUNTER, delta: number, tx: TDbOrTx = getDb()) {
  const column = COUNTER[counter];
  await tx.$executeRaw`UPDATE app SET ${column} = GREATEST(${column} + ${delta}::int, 0),
    popularity = GREATEST(popularity + ${delta * POPULARITY_WEIGHTS[counter]}::int, 0) WHERE id = ${appId}`;
}

// --- Comments -----------------------------------------------------------------------------------

export type TCommentRow = {
  id: string;
  content: string;
  created_at: Date;
  account_id: string;
  nickname: string;
  avatar_url: string | null;
  reply_count: number;
};

export async function insertComment(
  c: { targetType: TTargetType; targetId: string; accountId: string; parentId: string | null; content: string },
  tx: TDbOrTx = getDb(),
) {
  return tx.marketComment.create({ data: c, select: { id: true, createdAt: true } });
}

export async function findComment(id: string, tx: TDbOrTx = getDb()) {
  return tx.marketComment.findFirst({
    where: { id, deletedAt: null },
    select: { id: true, targetType: true, targetId: true, accountId: true, parentId: true },
  });
}

/** Soft-deletes a comment and its replies; answers how many were still visible. */
export async function deleteCommentThread(id: string, tx: TDbOrTx = getDb()) {
  const now = new Date();
  const { count } = await tx.marketComment.updateMany({ where: { OR: [{ id }, { parentId: id }], deletedAt: null }, data: { deletedAt: now } });
  return count;
}

/** Top-level comments (parentId null) or the replies of one, newest first for comments, oldest first for replies. */
export async function listComments(
  q: { targetType?: TTargetType; targetId?: string; parentId?: string; after?: { at: string; id: string }; limit: number },
  tx: TDbOrTx = getDb(),
) {
  const replies = Boolean(q.parentId);
  const where = replies
    ? Prisma.sql`c.parent_id = ${q.parentId}`
    : Prisma.sql`c.target_type = ${q.targetType}::"MarketTargetType" AND c.target_id = ${q.targetId} AND c.parent_id IS NULL`;
  const after = q.after
    ? replies
      ? Prisma.sql`AND (c.created_at, c.id) > (${q.after.at}::timestamp, ${q.after.id})`
      : Prisma.sql`AND (c.created_at, c.id) < (${q.after.at}::timestamp, ${q.after.id})`
    : Prisma.empty;
  const order = replies ? Prisma.sql`c.created_at ASC, c.id ASC` : Prisma.sql`c.created_at DESC, c.id DESC`;
  return tx.$queryRaw<
    (TCommentRow & { at_key: string })[]
  >`SELECT c.id, c.content, c.created_at, c.created_at::text AS at_key, c.account_id, o.nickname, o.avatar_url,
      (SELECT count(*)::int FROM market_comment r WHERE r.parent_id = c.id AND r.deleted_at IS NULL) AS reply_count
    FROM market_comment c JOIN account o ON o.id = c.account_id
    WHERE ${where} AND c.deleted_at IS NULL ${after} ORDER BY ${order} LIMIT ${q.limit + 1}`;
}

export async function findAccountSummary(id: string, tx: TDbOrTx = getDb()) {
  return tx.account.findFirst({ where: { id, status: "active" }, select: { id: true, nickname: true, avatarUrl: true } });
}
