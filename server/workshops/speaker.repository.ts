// What a workshop turn needs of its speaker, in one round trip on every turn: the developer as an
// actor, the role's agent with its newest live version, and the developer's wallet balances (the
// turn's bill is decided on them before the model is asked, as a chat turn's is).
import type { TDbOrTx } from "../db/client";
import { queryDirect } from "../db/direct-pool";
import { AGENT_VERSION_SELECT, toAgentVersion, type TAgentVersionColumns } from "../turns/turn-context.repository";

export type TSpeakerReading = {
  owner: { id: string; roles: string[]; enterpriseId: string | null } | null;
  agent: { id: string; ownerAccountId: string; enterpriseId: string | null; name: string; avatarUrl: string | null } | null;
  version: { id: string; state: string; config: unknown; updatedAt: Date } | null;
  wallet: { gift: number; spendable: number };
};

type TRow = {
  id: string | null;
  roles: string[] | null;
  enterprise_id: string | null;
  w_gift: string | null;
  w_spendable: string | null;
} & TAgentVersionColumns;

/** $1 the developer, $2 the role's agent (another's agent is the services' to refuse). */
const SPEAKER = {
  name: "zl_ws_speaker",
  text: `
    SELECT a.id, coalesce(a.roles::text[], '{}') AS roles, a.enterprise_id,
      ${AGENT_VERSION_SELECT},
      (SELECT w.balance_micro::text FROM ledger_account w WHERE w.id = 'gift:' || a.id) AS w_gift,
      (SELECT w.balance_micro::text FROM ledger_account w WHERE w.id = 'spendable:' || a.id) AS w_spendable
    FROM (SELECT 1) one
    LEFT JOIN account a ON a.id = $1
    LEFT JOIN agent g ON g.id = $2 AND g.deleted_at IS NULL
    LEFT JOIN LATERAL (
      SELECT v.id, v.state, v.config, v.updated_at FROM agent_version v
      WHERE v.agent_id = g.id AND v.state IN ('published', 'published_in_review', 'on_shelf') ORDER BY v.created_at DESC LIMIT 1
    ) v ON true`,
};

export async function readSpeaker(ownerId: string, agentId: string, tx?: TDbOrTx): Promise<TSpeakerReading> {
  const [r] = await queryDirect<TRow>({ ...SPEAKER, values: [ownerId, agentId] }, tx);
  return {
    owner: r.id ? { id: r.id, roles: r.roles ?? [], enterpriseId: r.enterprise_id } : null,
    ...toAgentVersion(r),
    wallet: { gift: Number(r.w_gift ?? 0), spendable: Number(r.w_spendable ?? 0) },
  };
}
