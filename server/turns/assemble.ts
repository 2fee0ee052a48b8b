// Assemble: the prompt from the decided turn. The agent's role and prompt with its variables,
// passages retrieved from its training sets, the document being read, the history that fits the
// model's context window, and the tools it may call (its plugins and its training sets' tools).
// On the offline channel, which has no language model, the answer itself is composed here.
import type { TAgentInput } from "../agents/agents.schema";
import { estimateTokens } from "../lib/token-estimate";
import type { TModelParameters } from "../models/models.schema";
import type { TSendMessageInput } from "../dialogues/chat.schema";
import { decideTurn, type TDecision, type TExchange } from "./decide";
import { retrievePassages, turnDependencies } from "./dependencies";
import { assemblePrompt, type TChatMessage } from "./prompt-assembly";
import { toolsOf } from "./tools";
import { newId, type TActor, type TTurn, type TTurnContext } from "./turn";

const TITLE_CHARS = 20;
const PASSAGE_LIMIT = 5;
/** Room for each tool's definition in the context window. */
const TOOL_TOKENS = 150;

/** The turn from what was read: decided, then assembled. */
export async function buildTurn(actor: TActor, input: TSendMessageInput, ctx: TTurnContext): Promise<TTurn> {
  return assembleTurn(actor, ctx, await decideTurn(input, ctx));
}

export async function assembleTurn(actor: TActor, ctx: TTurnContext, decision: TDecision): Promise<TTurn> {
  const { agent, existing, document, bill } = ctx;
  const { userMessage, replacesId, earlier, values, model } = decision;
  const config = agent.config;
  const deps = turnDependencies();
  // A training set's tool (a database set's SQL), only for models that call tools; no read for agents without sets.
  const turnTools = model.supportsTools && config.training_set_ids.length ? await deps.trainingSetTools(agent.agentId, config.training_set_ids) : [];
  const tools = toolsOf(config, turnTools);

  const passages = await retrievePassages({
    accountId: actor.id,
    agentId: agent.agentId,
    agentVersionId: agent.versionId,
    trainingSetIds: config.training_set_ids,
    query: userMessage.content,
    limit: PASSAGE_LIMIT,
  });

  const history = fitHistory(toHistory(earlier), model.contextWindow / 2);
  const fixed =
    estimateTokens(userMessage.content) +
    history.reduce((n, m) => n + estimateTokens(m.content) + 4, 0) +
    tools.length * TOOL_TOKENS +
    turnTools.reduce((n, t) => n + estimateTokens(t.function.description), 0);
  const budgetTokens = Math.max(256, model.contextWindow - config.parameters.max_tokens - fixed - 32);
  const { messages, usedPassages } = assemblePrompt({
    agent: config,
    values,
    history,
    userMessage: userMessage.content,
    passages,
    document: document?.doc ?? null,
    budgetTokens,
  });
  // The offline channel has no language model: it answers with one matched Q&A item, cited alone.
  const offline = deps.offlineReply(model.key, passages, config.out_of_scope_reply);

  return {
    actor,
    agent: { agentId: agent.agentId, versionId: agent.versionId, name: agent.name, config },
    modelKey: model.key,
    modelKind: model.kind,
    dialogueId: existing?.id ?? newId(),
    existing,
    title: [...userMessage.content.trim().replace(/\s+/g, " ")].slice(0, TITLE_CHARS).join("") || agent.name,
    values,
    documentId: document?.doc.id ?? null,
    userMessage,
    replacesId,
    messages,
    passages: offline ? offline.used : usedPassages,
    offlineReply: offline?.reply ?? null,
    tools,
    params: paramsOf(config),
    bill,
  };
}

/** Kept context: exchanges whose newest reply was delivered (not censored, failed or streaming). */
function toHistory(exchanges: TExchange[]): TChatMessage[] {
  const out: TChatMessage[] = [];
  for (const e of exchanges) {
    const answer = e.answers[e.answers.length - 1];
    if (!answer || (answer.status !== "done" && answer.status !== "stopped") || !answer.content.trim()) continue;
    out.push({ role: "user", content: e.user.content }, { role: "assistant", content: answer.content });
  }
  return out;
}

/** Drops the oldest exchanges until the history fits its share of the context window. */
function fitHistory(history: TChatMessage[], maxTokens: number) {
  let total = history.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
  let start = 0;
  while (total > maxTokens && start < history.length) {
    total -= estimateTokens(history[start].content) + estimateTokens(history[start + 1]?.content ?? "") + 8;
    start += 2;
  }
  return history.slice(start);
}

const paramsByConfig = new WeakMap<object, TModelParameters>();

/**
 * The agent's parameters as the gateway takes them; empty lists are left out. One frozen object per
 * stored configuration, so the gateway checks it once (gateway.service's checkedParams).
 */
function paramsOf(config: TAgentInput): TModelParameters {
  const p = config.parameters;
  let params = paramsByConfig.get(p);
  if (!params) paramsByConfig.set(p, (params = Object.freeze(gatewayParams(p))));
  return params;
}

function gatewayParams(p: TAgentInput["parameters"]): TModelParameters {
  return {
    max_tokens: p.max_tokens,
    temperature: p.temperature,
    top_p: p.top_p,
    presence_penalty: p.presence_penalty,
    frequency_penalty: p.frequency_penalty,
    ...(p.top_k !== undefined ? { top_k: p.top_k } : {}),
    ...(p.stop.length ? { stop: p.stop } : {}),
    ...(Object.keys(p.logit_bias).length ? { logit_bias: p.logit_bias } : {}),
  };
}
