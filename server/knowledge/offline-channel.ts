// The offline channel (issue 5, DESIGN 7): a "model" that needs no network, so a fresh install
// chats out of the box. It is retrieval without a language model: the answer of the agent's
// Q&A item whose question best matches the user's (above QA_MATCH_THRESHOLD), and otherwise the
// agent's out-of-scope reply. The UI says so wherever the model is offered.
import { QA_MATCH_THRESHOLD, type TRetrievedPassage } from "./retrieval.service";
import type { TPassage } from "../runtime/prompt-assembly";

import { OFFLINE_MODEL_KEY } from "./offline-model";

export { OFFLINE_MODEL_KEY };

/** The Q&A item answered with, if one matches well enough. */
export function pickOfflineMatch(passages: TPassage[]): TPassage | null {
  const best = (passages as Array<Partial<TRetrievedPassage> & TPassage>).find((p) => p.kind === "qa");
  return best && (best.match ?? 0) >= QA_MATCH_THRESHOLD ? best : null;
}

/** What the offline channel says for this turn: the matched answer, or the out-of-scope reply. */
export function composeOfflineReply(passages: TPassage[], outOfScopeReply: string) {
  const match = pickOfflineMatch(passages);
  return { reply: match ? match.text : outOfScopeReply.trim(), used: match ? [match] : [] };
}

/** Without a chat turn behind it (an API call, a channel test) the offline channel has nothing to retrieve. */
const NO_CONTEXT_REPLY = "This is the offline channel: it answers only from an agent's Q&A training sets.";

/** The reply as OpenAI chat-completion chunks, a few characters at a time like a model would. */
export async function* streamOfflineReply(reply: string | null | undefined) {
  const text = reply ?? NO_CONTEXT_REPLY;
  const chars = [...text];
  for (let i = 0; i < chars.length; i += 24) {
    yield { object: "chat.completion.chunk", model: OFFLINE_MODEL_KEY, choices: [{ index: 0, delta: { ...(i === 0 ? { role: "assistant" } : {}), content: chars.slice(i, i + 24).join("") }, finish_reason: null }] };
  }
  yield { object: "chat.completion.chunk", model: OFFLINE_MODEL_KEY, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] };
}

export function offlineCompletion(reply: string | null | undefined) {
  const content = reply ?? NO_CONTEXT_REPLY;
  return { object: "chat.completion", model: OFFLINE_MODEL_KEY, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] };
}
