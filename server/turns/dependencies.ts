// What a turn needs from knowledge, given to it at process start. The pipeline does not import
// knowledge (knowledge imports the pipeline's types: passages, tools), so every process that runs
// turns calls wireTurnDependencies (server/wiring/turn-dependencies.ts) once when it starts:
// the web process, the bot gateway and the worker. A turn that needs a dependency no one wired
// fails loudly instead of quietly answering without the agent's training sets.
import type { TPassage } from "./prompt-assembly";
import type { TOpenAiTool } from "./tools";

export type TRetrievalQuery = {
  accountId: string;
  agentId: string;
  agentVersionId: string;
  trainingSetIds: string[];
  query: string;
  /** At most this many passages, best first. */
  limit: number;
};

export type TTurnDependencies = {
  /** Passages of the agent's training sets that answer the query, best first. */
  retrieve(query: TRetrievalQuery): Promise<TPassage[]>;
  /** Tools a turn gets from the agent's training sets (a database set's SQL tool); [] when none. */
  trainingSetTools(agentId: string, trainingSetIds: string[]): TOpenAiTool[] | Promise<TOpenAiTool[]>;
  /**
   * What a model without a network says (the offline channel): the matched Q&A answer, or the
   * out-of-scope reply, with the passages it used. Null for any other model.
   */
  offlineReply(modelKey: string, passages: TPassage[], outOfScopeReply: string): { reply: string; used: TPassage[] } | null;
};

let wired: TTurnDependencies | null = null;

/** Installs the dependencies of every turn this process runs; null removes them (tests). */
export function setTurnDependencies(next: TTurnDependencies | null) {
  wired = next;
}

export function turnDependencies(): TTurnDependencies {
  if (!wired) throw new Error("turn dependencies are not wired in this process: call wireTurnDependencies() at start");
  return wired;
}

export async function retrievePassages(query: TRetrievalQuery): Promise<TPassage[]> {
  if (query.trainingSetIds.length === 0 || !query.query.trim()) return [];
  return (await turnDependencies().retrieve(query)).slice(0, query.limit);
}
