// Retrieved training-set passages for a chat turn. The knowledge issue registers the retriever
// (vector and keyword search over an agent's training sets); until then a turn retrieves nothing.
import type { TPassage } from "./prompt-assembly";

export type TRetrievalQuery = {
  accountId: string;
  agentId: string;
  agentVersionId: string;
  trainingSetIds: string[];
  query: string;
  /** At most this many passages, best first. */
  limit: number;
};

export type TRetriever = (query: TRetrievalQuery) => Promise<TPassage[]>;

let retriever: TRetriever | null = null;

/** Installs the one retriever (the knowledge issue calls this at boot); null removes it. */
export function registerRetriever(next: TRetriever | null) {
  retriever = next;
}

export async function retrievePassages(query: TRetrievalQuery): Promise<TPassage[]> {
  if (!retriever || query.trainingSetIds.length === 0 || !query.query.trim()) return [];
  return (await retriever(query)).slice(0, query.limit);
}
