// Hybrid retrieval over an agent's training sets: full-text search over the
// app-segmented words (GIN) and, when an embedding model is configured, vector search (pgvector
// in SQL on a server that has it, else in the app over cached vectors and their index), fused by reciprocal rank. Q&A items are
// matched on their question first: a question close to the user's comes before any other passage.
import type { TRetrievalQuery } from "../turns/dependencies";
import type { TPassage } from "../turns/prompt-assembly";
import { logger } from "../lib/logger";
import { getEmbedder } from "../models/embeddings.service";
import * as repo from "./indexing.repository";
import type { TRetrievableSet } from "./indexing.repository";
import * as passages from "./passages.repository";
import { queryWords, segmentWords } from "./text-segmenter";
import { buildVectorIndex, searchVectorIndex, toUnit, type TUnitRows, type TVectorIndex } from "./vector-index";

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
  const requested = [...new Set(query.trainingSetIds)];
  if (!requested.length) return [];
  const words = queryWords(query.query);
  // Which sets the agent may search, the full-text search and the question's vector, at once: a
  // question pays for the slowest of the three, not their sum. The search is over the requested
  // sets and is redone only when some of them turn out unusable.
  const [found, firstFullText, embedded] = await Promise.all([
    repo.listRetrievableSets(query.agentId, requested),
    passages.searchFullText(requested, words, CANDIDATES),
    query.mode === "fulltext" ? null : embedQuery(query.query),
  ]);
  // Database sets hold no passages: they are answered by SQL, never searched here.
  const sets = found.filter((s) => s.type !== "database");
  if (!sets.length) return [];
  const usable = new Set(found.map((s) => s.id));
  const fullText = requested.every((id) => usable.has(id))
    ? firstFullText
    : await passages.searchFullText(
        sets.map((s) => s.id),
        words,
        CANDIDATES,
      );
  const vector = embedded ? await searchVectors(sets, embedded) : [];
  const names = new Map(sets.map((s) => [s.id, s.name]));
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
    return {
      id: hit.id,
      title: hit.title,
      text: hit.content,
      source: names.get(hit.trainingSetId) ?? "",
      kind: hit.qaItemId ? "qa" : "text",
      setId: hit.trainingSetId,
      score: rrf,
      match,
    };
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

/** The question's vector from the embedding channel; null without one, or when it fails. */
async function embedQuery(text: string): Promise<{ vector: number[]; model: string } | null> {
  try {
    const embedder = await getEmbedder();
    if (!embedder) return null;
    const [vector] = await embedder.embed([text]);
    return { vector, model: embedder.modelKey };
  } catch (err) {
    // Keyword search still answers: a failing embedding channel must not fail the chat.
    logger.warn({ err }, "could not embed the question; using full-text search only");
    return null;
  }
}

async function searchVectors(sets: TRetrievableSet[], { vector, model }: { vector: number[]; model: string }): Promise<passages.TPassageHit[]> {
  try {
    if (await passages.searchesVectorsInSql())
      return await passages.searchVectorSql(
        sets.map((s) => s.id),
        vector,
        model,
        CANDIDATES,
      );
    return await searchVectorsInApp(sets, vector, model);
  } catch (err) {
    logger.warn({ err }, "vector search failed; using full-text search only");
    return [];
  }
}

/** A trained set's vectors: unit rows at once, then (built in the background) their index. */
type TSetVectors = { rows: TUnitRows | null; index: TVectorIndex | null; bytes: number };
/** Per set: its vectors for one revision and model (the key). */
const setVectors = new Map<string, { key: string; bytes: number; value: Promise<TSetVectors> }>();
let cachedBytes = 0;

/**
 * Without pgvector (or on the embedded database): cosine in the app. A trained set's vectors are
 * read once per revision and kept (normalised, 32-bit) with an inverted-file index over them
 * (vector-index.ts), so a query reads a tenth of them; until the index is built the set is
 * scanned whole. A set still training is read afresh, capped. `exact` scans everything (the
 * bench's measure of what the index misses).
 */
export async function searchVectorsInApp(
  sets: Array<Pick<TRetrievableSet, "id" | "revision" | "state">>,
  vector: number[],
  model: string,
  opts: { exact?: boolean } = {},
): Promise<passages.TPassageHit[]> {
  const query = toUnit(vector);
  const best: Array<{ id: string; score: number }> = [];
  // The CANDIDATES best so far, best first.
  const consider = (id: string, score: number) => {
    if (best.length === CANDIDATES && score <= best[CANDIDATES - 1].score) return;
    const at = best.findIndex((b) => b.score < score);
    best.splice(at < 0 ? best.length : at, 0, { id, score });
    if (best.length > CANDIDATES) best.pop();
  };
  const training = sets.filter((s) => s.state !== "done").map((s) => s.id);
  const trained = await Promise.all(sets.filter((s) => s.state === "done").map((s) => vectorsOfSet(s.id, `${s.revision}:${model}`, model)));
  for (const set of trained) {
    const index = set.index ?? (set.rows && singleList(set.rows));
    if (index) for (const hit of searchVectorIndex(index, query, CANDIDATES, opts.exact ? Infinity : undefined)) consider(hit.id, hit.score);
  }
  if (training.length) {
    for (const row of await passages.listEmbeddings(training, model, APP_VECTOR_CAP))
      if (row.embedding.length === query.length) consider(row.id, cosine(vector, row.embedding));
  }
  if (!best.length) return [];
  const rows = new Map((await passages.listPassagesByIds(best.map((b) => b.id))).map((row) => [row.id, row]));
  return best.flatMap((b) => (rows.has(b.id) ? [{ ...rows.get(b.id)!, score: b.score }] : []));
}

function singleList(rows: TUnitRows): TVectorIndex {
  return {
    ...rows,
    stride: rows.dims,
    kernel: null,
    centroids: new Float32Array(rows.dims),
    centroidKernel: null,
    offsets: Int32Array.from([0, rows.ids.length]),
  };
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
      // The index replaces the rows once built; a failure leaves the whole scan, which is still right.
      buildVectorIndex(set.rows!).then(
        (index) => {
          set.index = index;
          set.rows = null;
        },
        (err) => {
          logger.warn({ err, setId }, "could not index a set's vectors; scanning them whole");
          set.index = singleList(set.rows!);
          set.rows = null;
        },
      );
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
  same.forEach((r, i) => flat.set(toUnit(r.embedding), i * dims));
  return { rows: { ids: same.map((r) => r.id), dims, unit: flat }, index: null, bytes: flat.byteLength };
}

/** Waits until every cached set's index is built (the bench measures queries on built indexes). */
export async function settleVectorIndexes() {
  for (;;) {
    const sets = await Promise.all([...setVectors.values()].map((e) => e.value));
    if (sets.every((s) => s.index)) return;
    await new Promise((r) => setTimeout(r, 20));
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
