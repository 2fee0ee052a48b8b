// The offline channel: a "model" that needs no network, so a fresh install
// chats out of the box. It is retrieval without a language model: the answer of the agent's
// Q&A item whose question best matches the user's (above QA_MATCH_THRESHOLD), and otherwise the
// agent's out-of-scope reply. The UI says so wherever the model is offered. The gateway then
// answers with that reply as the channel would (models/offline-completion.ts).
import { QA_MATCH_THRESHOLD, type TRetrievedPassage } from "./retrieval.service";
import type { TPassage } from "../turns/prompt-assembly";

import { OFFLINE_MODEL_KEY } from "../models/offline-model";

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
