// Asking an on-demand node's host who speaks next: one completion on the host agent's model, with
// its own prompt, the transcript as the host may read it, and the fixed JSON question. An invalid
// answer is asked again once, with the reason; a second invalid one leaves the choice to the
// engine's fallback. The host's calls are part of the run's price, not charged as replies.
import type { TChatAgent } from "../../agents/agents.service";
import { logger } from "../../lib/logger";
import { completeChat } from "../../models/gateway.service";
import type { TChatMessage } from "../../models/models.schema";
import type { TDefinition, TNode } from "../workshops.schema";
import { hostQuestion, readHostAnswer, type THostDecision } from "./host-answer";
import { toRoleTranscript, visibleMessages, type TRunMessage } from "./role-view";

export const HOST_ATTEMPTS = 2;

export type THostAsk = {
  host: TChatAgent;
  hostRole: string;
  ownerId: string;
  definition: TDefinition;
  node: TNode;
  messages: TRunMessage[];
  eligible: string[];
  signal: AbortSignal;
};

/** The host's decision, or null when both answers were invalid (or the model failed); and how many calls it took. */
export async function askHost(a: THostAsk): Promise<{ decision: THostDecision | null; calls: number }> {
  const roleLines = a.definition.roles.filter((r) => a.node.roles.includes(r.name)).map((r) => `- ${r.name}${r.description ? `: ${r.description}` : ""}`);
  const transcript = toRoleTranscript(visibleMessages(a.messages, a.hostRole, { ...a.node, receive_range: "all" }), a.hostRole);
  const system = [a.host.config.role_style, a.host.config.prompt].filter((s) => s.trim()).join("\n\n");
  let reason: string | null = null;
  for (let calls = 1; calls <= HOST_ATTEMPTS; calls++) {
    const question = hostQuestion(a.eligible, roleLines, reason);
    const messages: TChatMessage[] = [...(system ? [{ role: "system" as const, content: system }] : []), ...transcript, { role: "user", content: question }];
    let text: string;
    try {
      const result = await completeChat({
        modelKey: a.host.config.model_key,
        messages,
        params: { max_tokens: 300, temperature: 0.2 },
        accountId: a.ownerId,
        signal: a.signal,
        cachedRouting: true,
        offlineReply: null,
      });
      const first = result.completion.choices?.[0] as { message?: { content?: unknown } } | undefined;
      const content = first?.message?.content;
      text = typeof content === "string" ? content : "";
    } catch (err) {
      if (a.signal.aborted) throw err;
      logger.warn({ err }, "a workshop host could not answer");
      return { decision: null, calls };
    }
    const read = readHostAnswer(text, a.eligible);
    if (read.ok) return { decision: read.decision, calls };
    reason = read.reason;
  }
  return { decision: null, calls: HOST_ATTEMPTS };
}
