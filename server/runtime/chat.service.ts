// One chat turn up to the model call (issue 4): everything that may refuse the turn happens here,
// before any row is written or any upstream is asked: the agent and dialogue (another account's
// answer not_found), sensitive input, required variables, the document, plugins the model cannot
// call, and a reply still being written. What comes out is the prompt, ready to stream.
import { randomUUID } from "node:crypto";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertOwned } from "../accounts/access";
import { toChatAgent, type TChatAgent } from "../agents/agents.service";
import { toSessionAccount, touchSessionIfDue } from "../auth/session.service";
import { sha256 } from "../lib/secret-box";
import { logger } from "../lib/logger";
import { getCachedRouting } from "../models/gateway.service";
import { readTurnContext } from "./turn-context.repository";
import { forgetTurn, rememberTurn } from "./warm-turns";
import type { TAgentInput } from "../agents/agents.schema";
import { assertNoSensitiveInput } from "../content/content.service";
import { AppError } from "../errors/app-error";
import type { TChatMessage as TGatewayMessage, TModelParameters } from "../models/models.schema";
import type { TSendMessageInput } from "./chat.schema";
import * as repo from "./dialogues.repository";
import { loadReadableDocument } from "./documents.service";
import { assemblePrompt, estimateTokens, type TChatMessage, type TPassage } from "./prompt-assembly";
import { retrievePassages } from "./retrieval";
import { toolsOf, type TOpenAiTool } from "./tools";
import { databaseToolsFor } from "./tools/sql-query";
import { composeOfflineReply, OFFLINE_MODEL_KEY } from "../knowledge/offline-channel";
import { EDITIONS } from "../accounts/editions";
import { effectiveEdition } from "../accounts/entitlements.service";
import { billConsoleTurn, type TTurnBill } from "../money/metering/chat-charges.service";

export type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;
/** A reply still "streaming" after this long was abandoned (its process died): it does not block. */
export const STALE_STREAMING_MS = 3 * 60 * 1000;
const TITLE_CHARS = 20;
const PASSAGE_LIMIT = 5;
/** Room for each tool's definition in the context window. */
const TOOL_TOKENS = 150;

export type TTurn = {
  actor: TActor;
  agent: { agentId: string; versionId: string; name: string; config: TAgentInput };
  modelKey: string;
  dialogueId: string;
  /** Null when this turn starts the dialogue. */
  existing: repo.TDialogueRow | null;
  title: string;
  values: Record<string, string>;
  documentId: string | null;
  /** The user message answered: a new row (with the pictures an app's consumer sent), or the one a regeneration answers again. */
  userMessage: { id: string; content: string; isNew: boolean; images?: string[] };
  replacesId: string | null;
  messages: TGatewayMessage[];
  passages: TPassage[];
  tools: TOpenAiTool[];
  params: TModelParameters;
  /**
   * On the offline channel: what it answers (a Q&A item's answer or the out-of-scope reply; ""
   * when the agent has none, and the stream says so in the reader's language). Else null.
   */
  offlineReply: string | null;
  /**
   * An app's turn (the apps issue): whose dialogue it is (a consumer account or an anonymous
   * visitor, not `actor`, which is then the agent's owner), and what to do once the reply ended.
   */
  app?: TAppTurnPart;
  /** Who pays this reply and what (issue 7): charged as it streams, returned when no reply comes. */
  bill: TTurnBill;
};

export type TTurnEnd = { outcome: "done" | "stopped" | "censored" | "failed"; content: string; dialogueId: string; usage: { prompt_tokens: number; completion_tokens: number } };
export type TAppTurnPart = { appId: string; source: string; accountId: string | null; visitorId: string | null; onFinished?: (end: TTurnEnd) => Promise<void> };

type TModelInfo = { key: string; supportsTools: boolean; contextWindow: number; enabled: boolean };

export function newId() {
  // cuid-like: time first so ids sort roughly by creation, then 64 random bits. They come from
  // randomUUID, which draws from a pool: a getrandom call per id cost a cold chat turn 0.1 ms here.
  const uuid = randomUUID();
  const random = [uuid.slice(0, 8), uuid.slice(28, 36)].map((hex) => Number.parseInt(hex, 16).toString(36).padStart(7, "0")).join("");
  return `c${Date.now().toString(36)}${random}`.slice(0, 25);
}

/** What a turn reads from the database; buildTurn makes the prompt from it without further reads. */
export type TTurnContext = {
  agent: TChatAgent;
  existing: repo.TDialogueRow | null;
  rows: repo.TMessageRow[];
  model: TModelInfo | null;
  document: Awaited<ReturnType<typeof pickDocument>>;
  bill: TTurnBill;
};

/**
 * The signed-in account and the turn's reads: one round trip for the session, agent, version and
 * dialogue (the messages of a continued dialogue beside it), the model from the gateway's reading.
 * No live session answers not_logged_in; an agent or dialogue that is not the account's, not_found.
 * A reading that qualifies is kept warm for the session's next turn (warm-turns.ts).
 */
/**
 * `earlyChargeKey`: the key of the turn's early charge (early-turn.ts), when it may already be
 * posted: the balances read are those from before it, so the turn is not refused for its own charge.
 */
export async function loadTurnContext(token: string | undefined, input: TSendMessageInput, mode: "debug" | "live", earlyChargeKey: string | null = null, now = new Date()): Promise<{ account: TSessionAccount; ctx: TTurnContext }> {
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
  const [routing, document] = await Promise.all([getCachedRouting(agent.config.model_key, account.id), pickDocument(account, agent.config, input.ufids[0], existing)]);
  const m = routing.model;
  const model = m ? { key: m.key, supportsTools: m.supportsTools, contextWindow: m.contextWindow, enabled: m.enabled } : null;
  return { account, ctx: { agent, existing, rows: dialogueId ? rows : [], model, document, bill } as TTurnContext, quota };
}

/** The turn from what was read: every refusal that needs no further reads, then the prompt. */
export async function buildTurn(actor: TActor, input: TSendMessageInput, ctx: TTurnContext): Promise<TTurn> {
  const { agent, existing, rows, model, document, bill } = ctx;
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
  // A database training set's SQL tool, only for models that call tools; no read for agents without sets.
  const turnTools = model.supportsTools && config.training_set_ids.length ? await databaseToolsFor(agent.agentId, config.training_set_ids) : [];
  const tools = toolsOf(config, turnTools);
  if (tools.length && !model.supportsTools) throw new AppError("model_no_plugins");

  const passages = await retrievePassages({ accountId: actor.id, agentId: agent.agentId, agentVersionId: agent.versionId, trainingSetIds: config.training_set_ids, query: userMessage.content, limit: PASSAGE_LIMIT });

  const history = fitHistory(toHistory(earlier), model.contextWindow / 2);
  const fixed = estimateTokens(userMessage.content) + history.reduce((n, m) => n + estimateTokens(m.content) + 4, 0) + tools.length * TOOL_TOKENS + turnTools.reduce((n, t) => n + estimateTokens(t.function.description), 0);
  const budgetTokens = Math.max(256, model.contextWindow - config.parameters.max_tokens - fixed - 32);
  // Throws validation_failed for a required variable left empty: before any row or model call.
  const { messages, usedPassages } = assemblePrompt({ agent: config, values, history, userMessage: userMessage.content, passages, document: document?.doc ?? null, budgetTokens });
  // The offline channel has no language model: it answers with one matched Q&A item, cited alone.
  const offline = model.key === OFFLINE_MODEL_KEY ? composeOfflineReply(passages, config.out_of_scope_reply) : null;

  return {
    actor,
    agent: { agentId: agent.agentId, versionId: agent.versionId, name: agent.name, config },
    modelKey: model.key,
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

/**
 * The document to read: the one sent with this message (an expired one is refused), else the
 * dialogue's own while it lasts; once that expires the dialogue simply goes on without it.
 */
async function pickDocument(actor: TActor, config: TAgentInput, sentId: string | undefined, existing: repo.TDialogueRow | null) {
  if (sentId) {
    if (!config.document_reading) throw new AppError("validation_failed", { data: { fields: [{ path: "ufids", message: "validation.document_reading_off" }] } });
    return { doc: await loadReadableDocument(actor, sentId) };
  }
  if (!existing?.documentId || !config.document_reading) return null;
  try {
    return { doc: await loadReadableDocument(actor, existing.documentId) };
  } catch {
    return null;
  }
}

type TExchange = { user: repo.TMessageRow; answers: repo.TMessageRow[] };

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
