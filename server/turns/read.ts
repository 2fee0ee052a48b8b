// Read: the signed-in account and everything a console turn (debug or an agent's live chat) reads,
// in one round trip: the session, the agent and its version, the dialogue and its messages, the
// day's replies and the balances; then the model's routing and the document. Nothing is decided
// here except what the reading itself settles: no session, or an agent or dialogue that is not the
// account's. An app's turn reads its own way (server/apps/app-turn.service.ts) into the same context.
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertOwned } from "../accounts/access";
import { EDITIONS } from "../accounts/editions";
import { effectiveEdition } from "../accounts/entitlements.service";
import { toChatAgent } from "../agents/agents.service";
import type { TAgentInput } from "../agents/agents.schema";
import { toSessionAccount } from "../accounts/session-account";
import { touchSessionIfDue } from "../auth/session.service";
import { AppError } from "../errors/app-error";
import { logger } from "../lib/logger";
import { sha256 } from "../lib/secret-box";
import { getCachedRouting } from "../models/gateway.service";
import { billConsoleTurn } from "../money/metering/chat-charges.service";
import type { TSendMessageInput } from "../dialogues/chat.schema";
import * as repo from "../dialogues/dialogues.repository";
import { loadReadableDocument } from "../dialogues/documents.service";
import { forgetTurn, rememberTurn } from "./head-start/warm-turns";
import { readTurnContext } from "./turn-context.repository";
import type { TActor, TTurnContext } from "./turn";

/**
 * The signed-in account and the turn's reads. No live session answers not_logged_in; an agent or
 * dialogue that is not the account's, not_found. A reading that qualifies is kept warm for the
 * session's next turn (head-start/warm-turns.ts). `earlyChargeKey`: the key of the turn's early
 * charge (head-start/early-turn.ts), when it may already be posted: the balances read are those
 * from before it, so the turn is not refused for its own charge.
 */
export async function readConsoleTurn(
  token: string | undefined,
  input: TSendMessageInput,
  mode: "debug" | "live",
  earlyChargeKey: string | null = null,
  now = new Date(),
): Promise<{ account: TSessionAccount; ctx: TTurnContext }> {
  if (!token || token.length > 100) throw new AppError("not_logged_in");
  const sessionId = sha256(token);
  const agentId = input.app_id ? "" : (input.agent_id ?? "");
  try {
    const loaded = await readTurn(sessionId, agentId, input, mode, earlyChargeKey, now);
    rememberTurn(sessionId, mode, agentId, loaded, loaded.quota);
    return loaded;
  } catch (err) {
    // A refused reading leaves nothing warm: the next turn waits for its own.
    forgetTurn(sessionId, mode, agentId);
    throw err;
  }
}

async function readTurn(sessionId: string, agentId: string, input: TSendMessageInput, mode: "debug" | "live", earlyChargeKey: string | null, now: Date) {
  const dialogueId = input.dialogue_id ?? null;
  const [reading, rows] = await Promise.all([
    // A console turn names an agent: a body naming an app finds none here (apps are served by
    // server/apps/app-chat.http.ts, which hands only app-less requests to this path).
    readTurnContext({ sessionId, now, agentId, mode, dialogueId, earlyChargeKey }),
    dialogueId ? repo.listMessagesOf(dialogueId) : [],
  ]);
  if (!reading) throw new AppError("not_logged_in");
  touchSessionIfDue(reading.session, now).catch((err) => logger.warn({ err }, "could not touch a session"));
  const account = toSessionAccount(reading.account);
  const agent = toChatAgent(account, reading.agent, reading.version, mode);
  const existing = reading.dialogue;
  if (dialogueId) {
    assertOwned(existing, account);
    if (existing!.agentId !== agent.agentId) throw new AppError("not_found");
  }
  // Money from the same reading (no round trip of its own): the day's replies, the agent's terms, the balance.
  const quota = { chatsToday: reading.chatsToday, chatsPerDay: EDITIONS[effectiveEdition(reading.account, now)].limits.chatsPerDay };
  const bill = billConsoleTurn({
    accountId: account.id,
    chatsPerDay: quota.chatsPerDay,
    chatsToday: quota.chatsToday,
    wallet: reading.wallet,
    mode,
    agent: { agentId: agent.agentId, name: agent.name, ownerAccountId: reading.agent!.ownerAccountId, config: agent.config },
    standing: reading.standing,
    now,
  });
  const [routing, document] = await Promise.all([
    getCachedRouting(agent.config.model_key, account.id),
    pickDocument(account, agent.config, input.ufids[0], existing),
  ]);
  const m = routing.model;
  const model = m ? { key: m.key, kind: m.kind, supportsTools: m.supportsTools, contextWindow: m.contextWindow, enabled: m.enabled } : null;
  const ctx: TTurnContext = { agent, existing, rows: dialogueId ? rows : [], model, document, bill };
  return { account, ctx, quota };
}

/**
 * The document to read: the one sent with this message (an expired one is refused), else the
 * dialogue's own while it lasts; once that expires the dialogue simply goes on without it.
 */
async function pickDocument(actor: TActor, config: TAgentInput, sentId: string | undefined, existing: repo.TDialogueRow | null) {
  if (sentId) {
    if (!config.document_reading)
      throw new AppError("validation_failed", { data: { fields: [{ path: "ufids", message: "validation.document_reading_off" }] } });
    return { doc: await loadReadableDocument(actor, sentId) };
  }
  if (!existing?.documentId || !config.document_reading) return null;
  try {
    return { doc: await loadReadableDocument(actor, existing.documentId) };
  } catch {
    return null;
  }
}
