// The host of an on-demand node is asked once a turn for a fixed JSON answer: who speaks next and
// what they should do, or END. This file writes that question and reads the answer; an answer that
// names nobody eligible (the previous speaker, an unknown role, prose) is invalid, is asked again
// once with the reason, and then the engine falls back to the next eligible role.
import { HOST_END } from "../workshops.schema";

export type THostDecision = { next: string; instruction: string };

/** The instruction the host's question ends with: the eligible roles and the answer's shape. */
export function hostQuestion(eligible: string[], roleLines: string[], retryReason: string | null) {
  const lines = [
    "You are the host of this workshop. Decide who speaks next.",
    "Roles:",
    ...roleLines,
    `Choose one of: ${eligible.join(", ")}; or ${HOST_END} when the discussion has reached its goal.`,
    'Answer with JSON only, exactly: {"next": "<role name or END>", "instruction": "<what that role should do next, one sentence>"}',
  ];
  if (retryReason) lines.push(`Your previous answer was not valid (${retryReason}). Answer again with the JSON only.`);
  return lines.join("\n");
}

/**
 * The host's decision when its answer is valid, else the reason it is not. JSON in a code fence or
 * with words around it is read; the role name is matched without regard to case.
 */
export function readHostAnswer(text: string, eligible: string[]): { ok: true; decision: THostDecision } | { ok: false; reason: string } {
  const json = extractJson(text);
  if (!json) return { ok: false, reason: "no JSON object" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { ok: false, reason: "not valid JSON" };
  }
  const o = parsed as { next?: unknown; instruction?: unknown };
  if (typeof o?.next !== "string") return { ok: false, reason: '"next" missing' };
  const wanted = o.next.trim().replace(/^@/, "");
  const instruction = typeof o.instruction === "string" ? o.instruction.trim().slice(0, 1000) : "";
  if (wanted.toUpperCase() === HOST_END) return { ok: true, decision: { next: HOST_END, instruction } };
  const role = eligible.find((r) => r.toLowerCase() === wanted.toLowerCase());
  if (!role) return { ok: false, reason: `"${wanted.slice(0, 40)}" may not speak now` };
  return { ok: true, decision: { next: role, instruction } };
}

function extractJson(text: string) {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  return start >= 0 && end > start ? text.slice(start, end + 1) : null;
}
