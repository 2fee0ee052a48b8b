// Decide: every refusal that needs nothing more read, before any row is written or any upstream
// asked. The message answered (a new one, or the question of a reply being regenerated), a reply
// still being written, sensitive input, the model (enabled, able to call the agent's plugins) and
// the variables' values. Who may use the agent and what it costs were settled with the reading
// (read.ts, or an app's reading); what comes out is what the prompt is assembled from.
import { assertNoSensitiveInput } from "../content/content.service";
import { AppError } from "../errors/app-error";
import type { TSendMessageInput } from "../dialogues/chat.schema";
import type * as repo from "../dialogues/dialogues.repository";
import { resolveVariables } from "./prompt-assembly";
import { toolsOf } from "./tools";
import { newId, STALE_STREAMING_MS, type TModelInfo, type TTurn, type TTurnContext } from "./turn";

export type TExchange = { user: repo.TMessageRow; answers: repo.TMessageRow[] };

export type TDecision = {
  userMessage: TTurn["userMessage"];
  replacesId: string | null;
  /** The exchanges before the message answered: the history the prompt may keep. */
  earlier: TExchange[];
  /** The dialogue's values with this message's over them (checked: required ones are given). */
  values: Record<string, string>;
  model: TModelInfo;
};

export async function decideTurn(input: TSendMessageInput, ctx: TTurnContext): Promise<TDecision> {
  const { agent, existing, rows, model } = ctx;
  const config = agent.config;

  // The message answered: the user's new one, or the one before the reply being regenerated.
  const exchanges = groupExchanges(rows);
  let userMessage: TTurn["userMessage"];
  let replacesId: string | null = null;
  let earlier = exchanges;
  if (input.regenerate_message_id) {
    const at = exchanges.findIndex((e) => e.answers.some((a) => a.id === input.regenerate_message_id));
    if (at < 0) throw new AppError("not_found");
    userMessage = { id: exchanges[at].user.id, content: exchanges[at].user.content, isNew: false };
    replacesId = input.regenerate_message_id;
    earlier = exchanges.slice(0, at);
  } else {
    userMessage = { id: newId(), content: input.content, isNew: true };
  }
  const since = Date.now() - STALE_STREAMING_MS;
  if (rows.some((m) => m.status === "streaming" && m.createdAt.getTime() >= since)) throw new AppError("dialogue_busy");

  await assertNoSensitiveInput(userMessage.content);
  const values = { ...((existing?.variables ?? {}) as Record<string, string>), ...input.variables };

  if (!model || !model.enabled) throw new AppError("model_unavailable", { params: { model: config.model_key } });
  // Plugins need a model that calls tools (a training set's tool is offered only to such models).
  if (toolsOf(config).length && !model.supportsTools) throw new AppError("model_no_plugins");
  // A required variable left empty is refused here, in the visitor's words.
  resolveVariables(config.variables, values);
  return { userMessage, replacesId, earlier, values, model };
}

/** User messages with their replies; a regenerated reply joins the exchange of the one it replaces. */
export function groupExchanges(rows: repo.TMessageRow[]): TExchange[] {
  const exchanges: TExchange[] = [];
  const byAnswer = new Map<string, TExchange>();
  for (const m of rows) {
    if (m.role === "user") {
      exchanges.push({ user: m, answers: [] });
      continue;
    }
    const home = (m.replacesId && byAnswer.get(m.replacesId)) || exchanges[exchanges.length - 1];
    if (!home) continue;
    home.answers.push(m);
    byAnswer.set(m.id, home);
  }
  return exchanges;
}
