// The first token's head start (issue 4's time-to-first-token target). A turn needs the session,
// the agent and the model before the upstream can be asked: several database reads in a row. For
// a new dialogue of a session and agent seen in the last minute, the turn is built from that
// reading and its upstream request starts at once, while the reads run as usual; the early
// request is kept only if the fresh turn asks the upstream exactly the same thing, and cancelled
// otherwise (agent edited, session ended, model changed...). Every refusal is still decided on
// the fresh reading; refusals that need no reads (sensitive input, a required variable) stop the
// early request before it is made.
import { sha256 } from "../lib/secret-box";
import type { TSendMessageInput } from "./chat.schema";
import { buildTurn, type TActor, type TTurn, type TTurnContext } from "./chat.service";
import { startEarly, type TEarlyStart } from "./chat-stream";

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const entries = new Map<string, { at: number; actor: TActor; ctx: TTurnContext }>();

function keyOf(token: string, agentId: string, mode: string) {
  return `${sha256(token)}|${agentId}|${mode}`;
}

/** Only a new dialogue without document, regeneration or retrieval is built from memory. */
function eligible(input: TSendMessageInput) {
  return Boolean(input.agent_id) && !input.app_id && !input.dialogue_id && input.ufids.length === 0 && !input.regenerate_message_id;
}

export async function speculate(token: string | undefined, input: TSendMessageInput, mode: string): Promise<{ turn: TTurn; early: TEarlyStart } | null> {
  if (!token || !eligible(input)) return null;
  const entry = entries.get(keyOf(token, input.agent_id!, mode));
  if (!entry || Date.now() - entry.at > TTL_MS || entry.ctx.agent.config.training_set_ids.length) return null;
  try {
    const turn = await buildTurn(entry.actor, input, entry.ctx);
    return { turn, early: startEarly(turn) };
  } catch {
    return null;
  }
}

export function remember(token: string | undefined, input: TSendMessageInput, mode: string, actor: TActor, ctx: TTurnContext) {
  if (!token || !eligible(input)) return;
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(keyOf(token, input.agent_id!, mode), { at: Date.now(), actor: { id: actor.id, roles: actor.roles, enterpriseId: actor.enterpriseId }, ctx: { ...ctx, existing: null, rows: [], document: null } });
}

/** The same upstream request: model, messages, tools, parameters and account. */
export function isSameRequest(a: TTurn, b: TTurn) {
  return a.modelKey === b.modelKey && a.actor.id === b.actor.id && JSON.stringify([a.messages, a.tools, a.params]) === JSON.stringify([b.messages, b.tools, b.params]);
}
