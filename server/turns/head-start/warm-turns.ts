// Warm turns, for the time to the first token: a session's last reading for an agent, kept in this
// process through a conversation's pauses (minutes), lets its next turn's upstream request and
// charge leave while that turn's own reading is still on its way (head-start.ts). The fresh reading
// still decides everything: the turn is built again from it, the early request is kept only when it
// is exactly the same, and a refused turn has its early request cancelled and its charge returned.
//
// Only readings whose request needs nothing else read qualify: no training sets (retrieval reads),
// the account's own terms (no agent-use decision, which counts trials), and money and replies left
// for two turns as read then (that reading's own turn and the next), so an account about to run
// out is never asked for early. A turn qualifies when it starts a dialogue with no document,
// pictures or regeneration.
import type { TSessionAccount } from "../../accounts/accounts.schema";
import { turnPriceMicro } from "../../money/metering/chat-charges.service";
import type { TSendMessageInput } from "../../dialogues/chat.schema";
import type { TTurnContext } from "../turn";

/**
 * Older readings are read again before anything goes upstream. People pause for minutes between
 * messages; a stale reading costs at most a cancelled request or a returned charge.
 */
export const WARM_TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 10_000;

export type TWarmTurn = { account: TSessionAccount; ctx: TTurnContext };
type TEntry = TWarmTurn & { at: number };
type TMode = "debug" | "live";

const entries = new Map<string, TEntry>();
const keyOf = (sessionHash: string, mode: TMode, agentId: string) => `${sessionHash}\u0000${mode}\u0000${agentId}`;

/** Keeps a reading that qualifies (without its dialogue, messages and document); forgets the key's last one otherwise. */
export function rememberTurn(
  sessionHash: string,
  mode: TMode,
  agentId: string,
  reading: TWarmTurn,
  quota: { chatsToday: number; chatsPerDay: number },
  now = Date.now(),
) {
  const key = keyOf(sessionHash, mode, agentId);
  entries.delete(key);
  const { ctx } = reading;
  const bill = ctx.bill;
  const twoTurns = 2 * turnPriceMicro(bill);
  const qualifies =
    ctx.model?.enabled === true &&
    ctx.agent.config.training_set_ids.length === 0 &&
    bill.agentUse === null &&
    bill.known !== null &&
    bill.known.gift + bill.known.spendable >= twoTurns &&
    quota.chatsToday + 2 <= quota.chatsPerDay;
  if (!qualifies) return;
  // Oldest first in a Map's order: past the cap, the longest silent session goes.
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(key, { at: now, account: reading.account, ctx: { ...ctx, existing: null, rows: [], document: null } });
}

export function forgetTurn(sessionHash: string, mode: TMode, agentId: string) {
  entries.delete(keyOf(sessionHash, mode, agentId));
}

/** The session's recent reading for this turn's agent, when the turn can use one. */
export function recallTurn(sessionHash: string, mode: TMode, input: TSendMessageInput, now = Date.now()): TWarmTurn | null {
  if (!input.agent_id || input.app_id || input.dialogue_id || input.regenerate_message_id || input.ufids.length || input.images.length) return null;
  const key = keyOf(sessionHash, mode, input.agent_id);
  const entry = entries.get(key);
  if (!entry) return null;
  if (now - entry.at > WARM_TTL_MS) {
    entries.delete(key);
    return null;
  }
  return entry;
}
