// Builds the messages sent to the model: role or style, the prompt with its variables
// filled in, retrieved passages and the read document within a token budget, the kept context,
// then the user's message. A required variable left empty is refused before any model call.
import { AppError } from "../errors/app-error";
import { estimateTokens } from "../lib/token-estimate";
import type { TVariable } from "../agents/agents.schema";
import { resolveVariableValues } from "../agents/variable-values";

export type TChatMessage = { role: "system" | "user" | "assistant"; content: string };
/** A retrieved passage; `source` names its training set (citations show it). */
export type TPassage = { id: string; title: string; text: string; source?: string };

export type TAssembleInput = {
  agent: { role_style: string; prompt: string; variables: TVariable[]; keep_context: number; out_of_scope_reply: string };
  values: Record<string, string | undefined>;
  history: TChatMessage[];
  userMessage: string;
  passages?: TPassage[];
  document?: { name: string; text: string } | null;
  /** Tokens the system part may use (the model's context minus room for history and answer). */
  budgetTokens?: number;
};

function truncateToTokens(text: string, tokens: number) {
  if (estimateTokens(text) <= tokens) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTokens(text.slice(0, mid)) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}

/**
 * Checks the values the user gave against the agent's variables and fills in defaults. The refusal's
 * message names the first variable at fault (its params go to the description).
 */
export function resolveVariables(variables: TVariable[], values: Record<string, string | undefined>) {
  const resolved = resolveVariableValues(variables, values);
  if (resolved.ok) return resolved.values;
  const { problems } = resolved;
  throw new AppError("validation_failed", { data: { fields: problems.map(({ path, message }) => ({ path, message })) }, params: problems[0].params });
}

function fill(template: string, values: Record<string, string>) {
  return template.replace(/\{\{\s*([\p{L}\p{N}_]+)\s*\}\}/gu, (m, name: string) => (name in values ? values[name] : m));
}

export function assemblePrompt(input: TAssembleInput): { messages: TChatMessage[]; usedPassages: TPassage[] } {
  const values = resolveVariables(input.agent.variables, input.values);
  const budget = input.budgetTokens ?? 6000;
  const parts: string[] = [];
  if (input.agent.role_style.trim()) parts.push(fill(input.agent.role_style, values));
  if (input.agent.prompt.trim()) parts.push(fill(input.agent.prompt, values));
  if (input.agent.out_of_scope_reply.trim())
    parts.push(`If the question is outside what you can answer from your role and the material given, reply exactly: ${input.agent.out_of_scope_reply}`);
  let used = estimateTokens(parts.join("\n\n"));

  // Passages first (they are ranked), then the document, each only while the budget lasts.
  const usedPassages: TPassage[] = [];
  const passageLines: string[] = [];
  for (const p of input.passages ?? []) {
    const line = `[${usedPassages.length + 1}] ${p.title}\n${p.text}`;
    const cost = estimateTokens(line);
    if (used + cost > budget) break;
    used += cost;
    usedPassages.push(p);
    passageLines.push(line);
  }
  if (passageLines.length) parts.push(`Reference material (cite as [n]):\n${passageLines.join("\n\n")}`);
  if (input.document?.text) {
    const room = Math.max(0, budget - used - 20);
    if (room > 0) parts.push(`The user's document "${input.document.name}":\n${truncateToTokens(input.document.text, room)}`);
  }

  const keep = Math.max(0, input.agent.keep_context) * 2;
  const history = keep ? input.history.filter((m) => m.role !== "system").slice(-keep) : [];
  const messages: TChatMessage[] = [];
  if (parts.length) messages.push({ role: "system", content: parts.join("\n\n") });
  messages.push(...history, { role: "user", content: input.userMessage });
  return { messages, usedPassages };
}
