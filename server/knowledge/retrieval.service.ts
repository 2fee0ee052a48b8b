// Hybrid retrieval over an agent's training sets (issue 5, DESIGN 7): full-text search over the
// app-segmented words (GIN) and, when an embedding model is configured, vector search (pgvector
// in SQL on a server that has it, else cosine in the app over cached vectors), fused by reciprocal rank. Q&A items are
// matched on their question first: a question close to the user's comes before any other passage.
import type { TPassage } from "../runtime/prompt-assembly";
import { registerRetriever, type TRetrievalQuery } from "../runtime/retrieval";
import { logger } from "../lib/logger";
import { getEmbedder } from "../models/embeddings.service";
import * as repo from "./indexing.repository";
import * as passages from "./passages.repository";
import { queryWords, segmentWords } from "./text-segmenter";

/** Candidates each search contributes before fusing. */
const CANDIDATES = 20;
/** The usual RRF constant: damps the difference between the first few ranks. */
const RRF_K = 60;
/** A Q&A question this close to the user's (Dice over words) counts as the same question. */
export const QA_MATCH_THRESHOLD = 0.5;
/** Without pgvector, a set still training has at most this many of its vectors compared per query. */
const APP_VECTOR_CAP = 20_000;
/** Without pgvector, the vectors of trained sets are kept in memory up to this size (least recently used go first). */
const APP_VECTOR_CACHE_BYTES = 256 * 1024 * 1024;

export type TRetrievedPassage = TPassage & { kind: "qa" | "text"; setId: string; score: number; match: number | null };

export async function retrieve(query: TRetrievalQuery & { mode?: "hybrid" | "fulltext" }): Promise<TRetrievedPassage[]> {
  const sets = (await repo.listRetrievableSets(query.agentId, query.trainingSetIds)).filter((s) => s.type !== "database");
  if (!sets.length) return [];
  const setIds = sets.map((s) => s.id);
  const names = new Map(sets.map((s) => [s.id, s.name]));
  const words = queryWords(query.query);
  const [fullText, vector] = await Promise.all([
    passages.searchFullText(setIds, words, CANDIDATES),
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
    if (await passages.searchesVectorsInSql()) return await passages.searchVectorSql(setIds, vector, embedder.modelKey, CANDIDATES);
    return await searchVectorsInApp(setIds, vector, embedder.modelKey);
  } catch (err) {
    // Keyword search still answers: a failing embedding channel must not fail the chat.
    logger.warn({ err }, "vector search failed; using full-text search only");
    return [];
  }
}

type TSetVectors = { ids: string[]; dims: number; unit: Float32Array; bytes: number };
/** Per set: its vectors as unit-length rows of one array, for one revision and model (the key). */
const setVectors = new Map<string, { key: string; bytes: number; value: Promise<TSetVectors> }>();
let cachedBytes = 0;

/**
 * Without pgvector (or on the embedded database): cosine in the app. A trained set's vectors are read once per revision and kept
 * (normalised, 32-bit) so a query only multiplies; a set still training is read afresh, capped.
 */
async function searchVectorsInApp(setIds: string[], vector: number[], model: string): Promise<passages.TPassageHit[]> {
  const query = unit(vector);
  const best: Array<{ id: string; score: number }> = [];
  // The CANDIDATES best so far, best first.
  const consider = (id: string, score: number) => {
    if (best.length === CANDIDATES && score <= best[CANDIDATES - 1].score) return;
    const at = best.findIndex((b) => b.score < score);
    best.splice(at < 0 ? best.length : at, 0, { id, score });
    if (best.length > CANDIDATES) best.pop();
  };
  const revisions = await passages.listSetRevisions(setIds);
  const training = revisions.filter((r) => r.state !== "done").map((r) => r.id);
  for (const r of revisions.filter((r) => r.state === "done")) {
    const set = await vectorsOfSet(r.id, `${r.revision}:${model}`, model);
    if (set.dims !== query.length) continue;
    for (let row = 0; row < set.ids.length; row++) {
      let dot = 0;
      for (let i = 0, at = row * set.dims; i < set.dims; i++) dot += set.unit[at + i] * query[i];
      consider(set.ids[row], dot);
    }
  }
  if (training.length) {
    for (const row of await passages.listEmbeddings(training, model, APP_VECTOR_CAP)) if (row.embedding.length === query.length) consider(row.id, cosine(vector, row.embedding));
  }
  if (!best.length) return [];
  const rows = new Map((await passages.listPassagesByIds(best.map((b) => b.id))).map((row) => [row.id, row]));
  return best.flatMap((b) => (rows.has(b.id) ? [{ ...rows.get(b.id)!, score: b.score }] : []));
}

function vectorsOfSet(setId: string, key: string, model: string): Promise<TSetVectors> {
  const hit = setVectors.get(setId);
  if (hit?.key === key) {
    setVectors.delete(setId); // re-inserted: the map's order is the least recently used first
    setVectors.set(setId, hit);
    return hit.value;
  }
  dropSetVectors(setId);
  const entry = { key, bytes: 0, value: loadSetVectors(setId, model) };
  setVectors.set(setId, entry);
  entry.value.then(
    (set) => {
      if (setVectors.get(setId) !== entry) return;
      entry.bytes = set.bytes;
      cachedBytes += set.bytes;
      for (const id of setVectors.keys()) {
        if (cachedBytes <= APP_VECTOR_CACHE_BYTES || id === setId) break;
        dropSetVectors(id);
      }
    },
    () => setVectors.get(setId) === entry && setVectors.delete(setId),
  );
  return entry.value;
}

function dropSetVectors(setId: string) {
  const entry = setVectors.get(setId);
  if (!entry) return;
  cachedBytes -= entry.bytes;
  setVectors.delete(setId);
}

async function loadSetVectors(setId: string, model: string): Promise<TSetVectors> {
  const rows = await passages.listSetEmbeddings(setId, model);
  const dims = rows[0]?.embedding.length ?? 0;
  const same = rows.filter((r) => r.embedding.length === dims);
  const flat = new Float32Array(same.length * dims);
  same.forEach((r, i) => flat.set(unit(r.embedding), i * dims));
  return { ids: same.map((r) => r.id), dims, unit: flat, bytes: flat.byteLength };
}

function unit(v: number[]): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(v, (x) => x / norm);
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
