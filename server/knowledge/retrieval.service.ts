// Hybrid retrieval over an agent's training sets (issue 5, DESIGN 7): full-text search over the
// app-segmented words (GIN) and, when an embedding model is configured, vector search (pgvector
// in SQL where installed, cosine in the app otherwise), fused by reciprocal rank. Q&A items are
// matched on their question first: a question close to the user's comes before any other passage.
import type { TPassage } from "../runtime/prompt-assembly";
import { registerRetriever, type TRetrievalQuery } from "../runtime/retrieval";
import { logger } from "../lib/logger";
import { getEmbedder } from "../models/embeddings.service";
import * as repo from "./indexing.repository";
import * as passages from "./passages.repository";
import { queryWords, segmentWords, toTsqueryLiteral } from "./text-segmenter";

/** Candidates each search contributes before fusing. */
const CANDIDATES = 20;
/** The usual RRF constant: damps the difference between the first few ranks. */
const RRF_K = 60;
/** A Q&A question this close to the user's (Dice over words) counts as the same question. */
export const QA_MATCH_THRESHOLD = 0.5;
/** Without pgvector, at most this many vectors are compared in the app per query. */
const APP_VECTOR_CAP = 20_000;

export type TRetrievedPassage = TPassage & { kind: "qa" | "text"; setId: string; score: number; match: number | null };

export async function retrieve(query: TRetrievalQuery & { mode?: "hybrid" | "fulltext" }): Promise<TRetrievedPassage[]> {
  const sets = (await repo.listRetrievableSets(query.agentId, query.trainingSetIds)).filter((s) => s.type !== "database");
  if (!sets.length) return [];
  const setIds = sets.map((s) => s.id);
  const names = new Map(sets.map((s) => [s.id, s.name]));
  const words = queryWords(query.query);
  const [fullText, vector] = await Promise.all([
    words.length ? passages.searchFullText(setIds, toTsqueryLiteral(words), CANDIDATES) : Promise.resolve([]),
    query.mode === "fulltext" ? Promise.resolve([]) : searchVectors(setIds, query.query),
  ]);
  return fuse([fullText, vector], words, names).slice(0, query.limit);
}

/** Reciprocal-rank fusion, then Q&A items whose question matches moved to the front. */
export function fuse(lists: passages.TPassageHit[][], words: string[], names: Map<string, string>): TRetrievedPassage[] {
  const byId = new Map<string, { hit: passages.TPassageHit; rrf: number }>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const entry = byId.get(hit.id) ?? { hit, rrf: 0 };
      entry.rrf += 1 / (RRF_K + rank + 1);
      byId.set(hit.id, entry);
    });
  }
  const wanted = new Set(words);
  const out = [...byId.values()].map(({ hit, rrf }): TRetrievedPassage => {
    const match = hit.qaItemId ? questionMatch(wanted, hit.title) : null;
    return { id: hit.id, title: hit.title, text: hit.content, source: names.get(hit.trainingSetId) ?? "", kind: hit.qaItemId ? "qa" : "text", setId: hit.trainingSetId, score: rrf, match };
  });
  const strong = (p: TRetrievedPassage) => (p.match ?? 0) >= QA_MATCH_THRESHOLD;
  return out.sort((a, b) => Number(strong(b)) - Number(strong(a)) || (strong(a) ? b.match! - a.match! : 0) || b.score - a.score);
}

/** Dice coefficient of the user's words and the question's: 1 for the same words, 0 for none shared. */
export function questionMatch(wanted: Set<string>, question: string) {
  const have = new Set(segmentWords(question));
  if (!wanted.size || !have.size) return 0;
  let shared = 0;
  for (const w of wanted) if (have.has(w)) shared++;
  return (2 * shared) / (wanted.size + have.size);
}

async function searchVectors(setIds: string[], text: string): Promise<passages.TPassageHit[]> {
  const embedder = await getEmbedder();
  if (!embedder) return [];
  try {
    const [vector] = await embedder.embed([text]);
    if (await passages.hasVectorExtension()) return await passages.searchVectorSql(setIds, vector, embedder.modelKey, CANDIDATES);
    const rows = await passages.listEmbeddings(setIds, embedder.modelKey, APP_VECTOR_CAP);
    return rows
      .filter((r) => r.embedding.length === vector.length)
      .map(({ embedding, ...hit }) => ({ ...hit, score: cosine(vector, embedding) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, CANDIDATES);
  } catch (err) {
    // Keyword search still answers: a failing embedding channel must not fail the chat.
    logger.warn({ err }, "vector search failed; using full-text search only");
    return [];
  }
}

function cosine(a: number[], b: number[]) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Installs hybrid retrieval as the chat runtime's retriever (at web start). */
export function installKnowledgeRetriever() {
  registerRetriever((query) => retrieve(query));
}
