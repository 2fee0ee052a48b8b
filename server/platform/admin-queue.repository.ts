// The administrators' waiting work, counted across the domains that own it in one statement: the
// console asks on every page change, and one round trip keeps that cheap. Each condition is the
// one its screen lists by (the review queues skip deleted agents and apps).
import { getDb, type TDbOrTx } from "../db/client";

export type TAdminQueueCounts = { agent_review: number; app_review: number; certifications: number; withdrawals: number };

export async function countAdminQueue(tx: TDbOrTx = getDb()): Promise<TAdminQueueCounts> {
  const [row] = await tx.$queryRaw<TAdminQueueCounts[]>`
    SELECT
      (SELECT count(*) FROM agent_version v JOIN agent a ON a.id = v.agent_id WHERE v.state IN ('under_review', 'published_in_review') AND a.deleted_at IS NULL)::int AS agent_review,
      (SELECT count(*) FROM app WHERE state = 'under_review' AND deleted_at IS NULL)::int AS app_review,
      (SELECT count(*) FROM certification WHERE status = 'pending')::int AS certifications,
      (SELECT count(*) FROM withdrawal WHERE state = 'submitted')::int AS withdrawals`;
  return row;
}
