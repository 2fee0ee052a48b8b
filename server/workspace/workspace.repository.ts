// What the workspace's getting-started checklist reads: how far an account has come, in one
// round trip. Deleted agents, sets and apps do not count; the owner's own chats with an app do
// not count as it having been shared.
import { getDb, type TDbOrTx } from "../db/client";

export type TWorkspaceCountsRow = { agents: number; training_sets: number; apps: number; used_by_others: number; referred: number };

export async function countWorkspaceProgress(accountId: string, db: TDbOrTx = getDb()): Promise<TWorkspaceCountsRow> {
  const rows = await db.$queryRaw<Array<Record<keyof TWorkspaceCountsRow, bigint>>>`
    SELECT
      (SELECT COUNT(*) FROM agent WHERE owner_account_id = ${accountId} AND deleted_at IS NULL) AS agents,
      (SELECT COUNT(*) FROM training_set WHERE owner_account_id = ${accountId} AND deleted_at IS NULL) AS training_sets,
      (SELECT COUNT(*) FROM app WHERE owner_account_id = ${accountId} AND deleted_at IS NULL) AS apps,
      (SELECT COUNT(*) FROM (
         SELECT 1 FROM app_use u JOIN app a ON a.id = u.app_id
         WHERE a.owner_account_id = ${accountId} AND u.basis <> 'owner' AND u.account_id IS DISTINCT FROM ${accountId} LIMIT 1000
       ) used) AS used_by_others,
      (SELECT COUNT(*) FROM account WHERE referred_by_id = ${accountId}) AS referred`;
  const row = rows[0];
  return {
    agents: Number(row.agents),
    training_sets: Number(row.training_sets),
    apps: Number(row.apps),
    used_by_others: Number(row.used_by_others),
    referred: Number(row.referred),
  };
}
