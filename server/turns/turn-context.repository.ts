// A chat turn's reads in one round trip (the first token waits for it): the live session with its
// active account, the agent with the version the chat runs, and the dialogue continued. Every
// decision on them (access, not found, not logged in) is the services'; this only reads. The money a
// turn needs to decide on comes in the same statement: the account's wallet balances, its
// console replies today (China time), and its standing with another's agent in live chats.
import type { Prisma } from "../db/generated/client";
import type { TDbOrTx } from "../db/client";
import { queryDirect } from "../db/direct-pool";
import type { TSessionAccountRow } from "../accounts/accounts.schema";
import type { TDialogueRow } from "../dialogues/dialogues.repository";

export type TTurnReading = {
  session: { id: string; lastSeenAt: Date };
  account: TSessionAccountRow;
  agent: { id: string; ownerAccountId: string; enterpriseId: string | null; name: string; avatarUrl: string | null } | null;
  version: { id: string; state: string; config: unknown; updatedAt: Date } | null;
  dialogue: TDialogueRow | null;
  /**
   * The account's gift credit and coins (micro-Z; 0 before its first posting), as they stood before
   * the turn's early charge (`earlyChargeKey`) when that is already posted: both read in the same
   * snapshot, so the turn is never refused for its own charge, whichever went to the database first.
   */
  wallet: { gift: number; spendable: number };
  /** Replies the account was given today (China day) in its console chats, ones in progress included. */
  chatsToday: number;
  /** Live chats: the account's buyout of the agent, its first use and trial uses (no rows for the owner's). */
  standing: { buyout: boolean; firstUseAt: Date | null; trialUses: number };
};

type TRow = {
  session_id: string;
  last_seen_at: Date;
  id: string;
  account: string;
  nickname: string;
  avatar_url: string | null;
  phone: string | null;
  roles: string[];
  edition: string;
  edition_expires_at: Date | null;
  enterprise_id: string | null;
  language: string;
  d_id: string | null;
  d_account_id: string;
  d_agent_id: string | null;
  d_agent_version_id: string | null;
  d_app_id: string | null;
  d_title: string;
  d_variables: Prisma.JsonValue;
  d_document_id: string | null;
  d_last_message_at: Date;
  d_created_at: Date;
  w_gift: string | null;
  w_spendable: string | null;
  ec_gift: string;
  ec_spendable: string;
  chats_today: number;
  u_buyout: boolean | null;
  u_first_use_at: Date | null;
  u_trial_uses: number | null;
} & TAgentVersionColumns;

/** The agent (`g`) and the version (`v`) a turn runs, as columns of a reading. */
export type TAgentVersionColumns = {
  agent_id: string | null;
  agent_owner_id: string;
  agent_enterprise_id: string | null;
  agent_name: string;
  agent_avatar_url: string | null;
  version_id: string | null;
  version_state: string;
  version_config: unknown;
  version_updated_at: Date;
};

export const AGENT_VERSION_SELECT = `g.id AS agent_id, g.owner_account_id AS agent_owner_id, g.enterprise_id AS agent_enterprise_id, g.name AS agent_name, g.avatar_url AS agent_avatar_url,
      v.id AS version_id, v.state::text AS version_state, v.config AS version_config, v.updated_at AS version_updated_at`;

/** The agent and its version as the turn's services take them (null when the reading found none). */
export function toAgentVersion(r: TAgentVersionColumns): Pick<TTurnReading, "agent" | "version"> {
  return {
    agent: r.agent_id
      ? { id: r.agent_id, ownerAccountId: r.agent_owner_id, enterpriseId: r.agent_enterprise_id, name: r.agent_name, avatarUrl: r.agent_avatar_url }
      : null,
    version: r.version_id ? { id: r.version_id, state: r.version_state, config: r.version_config, updatedAt: r.version_updated_at } : null,
  };
}

/**
 * The version a chat runs, as agents.service's classify picks it: debug runs the newest draft, else
 * the newest version under review, else the newest live one; live runs the newest live one.
 */
const VERSION_FILTER = {
  debug: `v.state IN ('draft', 'under_review', 'published', 'published_in_review', 'on_shelf', 'invalid') ORDER BY CASE v.state WHEN 'draft' THEN 0 WHEN 'under_review' THEN 1 ELSE 2 END, v.created_at DESC`,
  live: `v.state IN ('published', 'published_in_review', 'on_shelf', 'invalid') ORDER BY v.created_at DESC`,
};

type TQuery = { sessionId: string; now: Date; agentId: string; mode: "debug" | "live"; dialogueId: string | null; earlyChargeKey?: string | null };

/** The China day (UTC+8) of $2, as account_chat_day keeps it. */
const CHINA_DAY = `(($2::timestamptz AT TIME ZONE 'UTC') + interval '8 hours')::date`;

/**
 * Money (subqueries on primary keys and indexes): wallet balances; the console replies of the day
 * (account_chat_day, kept by a trigger on chat_message: one row, however many the account had); in
 * live chats the account's standing with the agent (buyout, first use, trial uses).
 */
function moneyColumns(mode: TQuery["mode"], earlyKeyParam: string) {
  const standing =
    mode === "live"
      ? `EXISTS (SELECT 1 FROM purchase p WHERE p.buyer_account_id = a.id AND p.agent_id = g.id AND p.target_type = 'agent_buyout' AND p.refunded_at IS NULL) AS u_buyout,
      (SELECT min(u.created_at) FROM agent_use u WHERE u.agent_id = g.id AND u.account_id = a.id) AS u_first_use_at,
      (SELECT count(*)::int FROM agent_use u WHERE u.agent_id = g.id AND u.account_id = a.id AND u.basis = 'trial') AS u_trial_uses`
      : `NULL::boolean AS u_buyout, NULL::timestamp AS u_first_use_at, NULL::int AS u_trial_uses`;
  return `
      (SELECT w.balance_micro::text FROM ledger_account w WHERE w.id = 'gift:' || a.id) AS w_gift,
      (SELECT w.balance_micro::text FROM ledger_account w WHERE w.id = 'spendable:' || a.id) AS w_spendable,
      ${earlyChargeTaken("gift", earlyKeyParam)} AS ec_gift,
      ${earlyChargeTaken("spendable", earlyKeyParam)} AS ec_spendable,
      coalesce((SELECT c.replies FROM account_chat_day c WHERE c.account_id = a.id AND c.day = ${CHINA_DAY}), 0) AS chats_today,
      ${standing}`;
}

/** What the posting under the early charge's key took from one of the account's wallets (0 or negative). */
function earlyChargeTaken(wallet: "gift" | "spendable", keyParam: string) {
  return `(SELECT coalesce(sum(e.amount_micro), 0)::text FROM ledger_transaction t JOIN ledger_entry e ON e.transaction_id = t.id
        WHERE t.idempotency_key = ${keyParam} AND e.ledger_account_id = '${wallet}:' || a.id)`;
}

/** $1 session id, $2 now (ISO), $3 agent id, then $4 dialogue id (when one is continued), then the early charge's key (or null). */
function turnContextText(mode: TQuery["mode"], withDialogue: boolean) {
  return `
    SELECT s.id AS session_id, s.last_seen_at,
      a.id, a.account, a.nickname, a.avatar_url, a.phone, coalesce(a.roles::text[], '{}') AS roles, a.edition::text AS edition,
      a.edition_expires_at, a.enterprise_id, a.language,
      ${AGENT_VERSION_SELECT},
      d.id AS d_id, d.account_id AS d_account_id, d.agent_id AS d_agent_id, d.agent_version_id AS d_agent_version_id, d.app_id AS d_app_id,
      d.title AS d_title, d.variables AS d_variables, d.document_id AS d_document_id, d.last_message_at AS d_last_message_at, d.created_at AS d_created_at,${moneyColumns(mode, withDialogue ? "$5" : "$4")}
    FROM session s
    JOIN account a ON a.id = s.account_id AND a.status = 'active'
    LEFT JOIN agent g ON g.id = $3 AND g.deleted_at IS NULL
    LEFT JOIN LATERAL (SELECT v.id, v.state, v.config, v.updated_at FROM agent_version v WHERE v.agent_id = g.id AND ${VERSION_FILTER[mode]} LIMIT 1) v ON true
    LEFT JOIN dialogue d ON ${withDialogue ? "d.id = $4 AND d.deleted_at IS NULL" : "false"}
    WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > ($2::timestamptz AT TIME ZONE 'UTC')`;
}

/** The four shapes of the query, each a named statement (parsed and planned once per connection). */
const STATEMENTS = Object.fromEntries(
  (["debug", "live"] as const).flatMap((mode) =>
    [false, true].map((d) => [`${mode}:${d}`, { name: `zl_turn_context_${mode}_${d ? "dialogue" : "new"}`, text: turnContextText(mode, d) }]),
  ),
) as Record<string, { name: string; text: string }>;

export function turnContextQuery(q: TQuery) {
  const statement = STATEMENTS[`${q.mode}:${Boolean(q.dialogueId)}`];
  const values = [q.sessionId, q.now.toISOString(), q.agentId, ...(q.dialogueId ? [q.dialogueId] : []), q.earlyChargeKey ?? null];
  return { ...statement, values };
}

/** Null when the token has no live session of an active account. */
export async function readTurnContext(q: TQuery, tx?: TDbOrTx): Promise<TTurnReading | null> {
  // On the read pool: Prisma's engine would cost this one read a few milliseconds of CPU.
  const [r] = await queryDirect<TRow>(turnContextQuery(q), tx);
  if (!r) return null;
  return {
    session: { id: r.session_id, lastSeenAt: r.last_seen_at },
    account: {
      id: r.id,
      account: r.account,
      nickname: r.nickname,
      avatarUrl: r.avatar_url,
      phone: r.phone,
      roles: r.roles,
      edition: r.edition,
      editionExpiresAt: r.edition_expires_at,
      enterpriseId: r.enterprise_id,
      language: r.language,
    },
    ...toAgentVersion(r),
    dialogue: r.d_id
      ? {
          id: r.d_id,
          accountId: r.d_account_id,
          agentId: r.d_agent_id,
          agentVersionId: r.d_agent_version_id,
          appId: r.d_app_id,
          title: r.d_title,
          variables: r.d_variables,
          documentId: r.d_document_id,
          lastMessageAt: r.d_last_message_at,
          createdAt: r.d_created_at,
        }
      : null,
    wallet: { gift: Number(r.w_gift ?? 0) - Number(r.ec_gift), spendable: Number(r.w_spendable ?? 0) - Number(r.ec_spendable) },
    chatsToday: Number(r.chats_today ?? 0),
    standing: { buyout: Boolean(r.u_buyout), firstUseAt: r.u_first_use_at ?? null, trialUses: Number(r.u_trial_uses ?? 0) },
  };
}
