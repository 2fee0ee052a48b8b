// Passages, the rows retrieval searches. Raw SQL: the lexemes column is a tsvector the
// app builds (text-segmenter.ts) and Prisma cannot write, and search ranks inside Postgres.
import crypto from "node:crypto";
import { getDb, type TDbOrTx } from "../db/client";
import { queryDirect, type TStatement } from "../db/direct-pool";
import { logger } from "../lib/logger";
import { toTsqueryLiteral } from "./text-segmenter";

export type TPassageInput = {
  qaItemId?: string | null;
  documentId?: string | null;
  ordinal: number;
  title: string;
  content: string;
  /** A tsvector literal (toTsvectorLiteral). */
  lexemes: string;
};

export type TPassageHit = {
  id: string;
  trainingSetId: string;
  qaItemId: string | null;
  documentId: string | null;
  title: string;
  content: string;
  score: number;
};

const BATCH = 1000;

/** Inserts passages of a set in batches of one statement each. */
export async function insertPassages(trainingSetId: string, passages: TPassageInput[], tx: TDbOrTx = getDb()) {
  for (let i = 0; i < passages.length; i += BATCH) {
    const batch = passages.slice(i, i + BATCH);
    await tx.$executeRaw`
      INSERT INTO knowledge_passage (id, training_set_id, qa_item_id, document_id, ordinal, title, content, lexemes, embedding)
      SELECT u.id, ${trainingSetId}, u.qa, u.doc, u.ord, u.title, u.content, u.lex::tsvector, '{}'
      FROM unnest(${batch.map(() => crypto.randomUUID())}::text[], ${batch.map((p) => p.qaItemId ?? null)}::text[],
                  ${batch.map((p) => p.documentId ?? null)}::text[], ${batch.map((p) => p.ordinal)}::int[],
                  ${batch.map((p) => p.title)}::text[], ${batch.map((p) => p.content)}::text[], ${batch.map((p) => p.lexemes)}::text[])
        AS u(id, qa, doc, ord, title, content, lex)`;
  }
}

export async function deletePassagesOfSet(trainingSetId: string, tx: TDbOrTx = getDb()) {
  await tx.$executeRaw`DELETE FROM knowledge_passage WHERE training_set_id = ${trainingSetId}`;
}

/** Passages of documents no longer in the set, or of the given documents (about to be rebuilt). */
export async function deleteDocumentPassages(trainingSetId: string, keepDocumentIds: string[], rebuildDocumentIds: string[], tx: TDbOrTx = getDb()) {
  await tx.$executeRaw`
    DELETE FROM knowledge_passage
    WHERE training_set_id = ${trainingSetId}
      AND (document_id IS NULL OR NOT (document_id = ANY(${keepDocumentIds}::text[])) OR document_id = ANY(${rebuildDocumentIds}::text[]))`;
}

export async function countPassagesOfSet(trainingSetId: string, tx: TDbOrTx = getDb()) {
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM knowledge_passage WHERE training_set_id = ${trainingSetId}`;
  return Number(row.n);
}

/** A word in at least this many passages is common: it adds to the rank but picks no candidates alone. */
const COMMON_PASSAGES = 300;
/** The first stage takes the rarest words expected to match about this many passages in all. */
const RARE_BUDGET = 250;
/** Fewer hits than this (or the limit) from one stage of candidates: the next stage adds more. */
const ENOUGH_HITS = 5;
/** Sets holding at least this share of all passages are searched without the set index (fullTextStatement). */
const SET_INDEX_SHARE = 0.3;

/**
 * Full-text search over the sets, ranked like BM25 without the length part: each query word's
 * ts_rank (a question's words, weight A, count ten times an answer's, D) times the word's inverse
 * passage frequency, so a rare word decides more than "订单" or "account". Ranking every passage
 * that shares a common word is what makes search slow on a large table (each is read from the
 * heap), so candidates are picked in stages, each capped, the next only when the candidates are
 * still too few (ENOUGH_HITS): passages with one of the rarest words; with another rare word; with
 * two of the common words; with any common word. Word frequencies come from the planner's
 * statistics (getLexemeStats); without statistics every word counts as rare, and the first stage
 * is the plain "any word" search.
 */
export async function searchFullText(trainingSetIds: string[], words: string[], limit: number, opts: { qaOnly?: boolean } = {}): Promise<TPassageHit[]> {
  if (!words.length || limit < 1) return [];
  const stats = await getLexemeStats();
  const terms = words.map((word) => {
    // A word outside the most common ones is rarer than the least common of them.
    const share = stats ? (stats.shares.get(word) ?? stats.floor / 2) : 0;
    return { word, share, idf: stats ? Math.log(1 / Math.max(share, 1e-9)) : 1 };
  });
  const expected = (t: (typeof terms)[number]) => (stats ? t.share * stats.passages : 0);
  const byRarity = [...terms].sort((a, b) => a.share - b.share);
  const common = byRarity
    .filter((t) => expected(t) >= COMMON_PASSAGES)
    .slice(0, 4)
    .map((t) => toTsqueryLiteral([t.word]));
  // The rarest words, as many as are expected to match about RARE_BUDGET passages, then the other rare ones.
  const rarest: string[] = [];
  const rare: string[] = [];
  let budget = RARE_BUDGET;
  for (const t of byRarity.filter((t) => expected(t) < COMMON_PASSAGES)) {
    budget -= expected(t);
    (budget >= 0 || !rarest.length ? rarest : rare).push(toTsqueryLiteral([t.word]));
  }
  const pairs = common.flatMap((a, i) => common.slice(i + 1).map((b) => `(${a} & ${b})`));
  const stages: TFullTextStage[] = [
    { query: rarest.join(" | "), cap: 300 },
    { query: rare.join(" | "), cap: 200 },
    { query: pairs.join(" | "), cap: 100 },
    { query: common.join(" | "), cap: 100 },
  ].filter((stage) => stage.query);
  const ranked = { words: terms.map((t) => toTsqueryLiteral([t.word])), idf: terms.map((t) => t.idf) };
  const setShare = stats ? trainingSetIds.reduce((sum, id) => sum + (stats.setShares.get(id) ?? 0), 0) : 0;
  return queryDirect<TPassageHit>(
    fullTextStatement(trainingSetIds, stages, ranked, limit, { qaOnly: opts.qaOnly ?? false, bySetIndex: setShare < SET_INDEX_SHARE }),
  );
}

type TFullTextStage = { query: string; cap: number };

/**
 * All the stages in one statement, so a search is one round trip and one plan however many
 * stages it needs. A stage's scan sits under a condition on the earlier stages' counts that uses
 * none of its rows, which PostgreSQL checks once before the scan (a one-time filter): a stage
 * not needed is never read. Unnamed, so planned for its words each time: a generic plan cannot
 * tell a rare word from a common one. On the read pool: Prisma's engine would add its CPU.
 */
function fullTextStatement(
  trainingSetIds: string[],
  stages: TFullTextStage[],
  ranked: { words: string[]; idf: number[] },
  limit: number,
  opts: { qaOnly: boolean; bySetIndex: boolean },
): TStatement {
  const values: unknown[] = [trainingSetIds, opts.qaOnly, ranked.words, ranked.idf, limit];
  // The planner takes a list of sets as independent picks (ten sets of a tenth each: 65 % of the
  // table) and may intersect the word's rows with the set index's, reading every row id of the
  // sets to drop none. When the sets hold much of the table, the set is a filter it cannot index.
  const inSets = opts.bySetIndex ? "p.training_set_id = ANY($1::text[])" : "(p.training_set_id || '') = ANY($1::text[])";
  const param = (value: unknown) => `$${values.push(value)}`;
  // Only a statement of several stages names it: a parameter no statement uses has no type.
  const enough = stages.length > 1 ? `${param(Math.min(limit, ENOUGH_HITS))}::bigint` : "";
  const ctes = stages.map((stage, i) => {
    const earlier = stages.slice(0, i).map((_, j) => `s${j}`);
    const gate = earlier.length ? `(${earlier.map((e) => `(SELECT count(*) FROM ${e})`).join(" + ")}) < ${enough} AND ` : "";
    const unseen = earlier.map((e) => `AND p.id NOT IN (SELECT id FROM ${e}) `).join("");
    return `s${i} AS (SELECT p.id, p.training_set_id, p.qa_item_id, p.document_id, p.title, p.content, p.lexemes FROM knowledge_passage p
        WHERE ${gate}${inSets} AND p.lexemes @@ CAST(${param(stage.query)} AS tsquery)
          AND ($2::boolean = false OR p.qa_item_id IS NOT NULL) ${unseen}LIMIT ${param(stage.cap)})`;
  });
  return {
    text: `WITH ${ctes.join(",\n      ")}
      SELECT c.id, c.training_set_id AS "trainingSetId", c.qa_item_id AS "qaItemId", c.document_id AS "documentId", c.title, c.content,
             (SELECT sum(w.idf * ts_rank('{0.1, 0.2, 0.4, 1.0}', c.lexemes, w.q)) FROM unnest($3::tsquery[], $4::float8[]) AS w(q, idf))::float8 AS score
      FROM (${stages.map((_, i) => `SELECT * FROM s${i}`).join(" UNION ALL ")}) c
      ORDER BY score DESC, c.id
      LIMIT $5`,
    values,
  };
}

/** Shares of the passages: per common word (of those holding it), per large set (of the table's). */
export type TLexemeStats = { shares: Map<string, number>; floor: number; passages: number; setShares: Map<string, number> };
let lexemeStats: { at: number; value: Promise<TLexemeStats | null> } | null = null;

/** Read the statistics afresh on the next search (after an ANALYZE). */
export function forgetLexemeStats() {
  lexemeStats = null;
}

/**
 * How common words are: the share of passages holding each of the most common lexemes, as
 * ANALYZE samples them (pg_stats.most_common_elems), the table's passage count, and the share of
 * the table each of the largest sets holds (most_common_vals of training_set_id). Read at most
 * once a minute; null before the table was first analysed.
 */
export function getLexemeStats(): Promise<TLexemeStats | null> {
  if (!lexemeStats || Date.now() - lexemeStats.at > 60_000) {
    const value = getDb().$queryRaw<{ elems: string[] | null; freqs: number[] | null; passages: number; sets: string[] | null; setFreqs: number[] | null }[]>`
        SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs::float8[] AS freqs, c.reltuples::float8 AS passages,
               t.most_common_vals::text::text[] AS sets, t.most_common_freqs::float8[] AS "setFreqs"
        FROM pg_class c
        LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'knowledge_passage' AND s.attname = 'lexemes'
        LEFT JOIN pg_stats t ON t.schemaname = current_schema() AND t.tablename = 'knowledge_passage' AND t.attname = 'training_set_id'
        WHERE c.oid = 'knowledge_passage'::regclass`
      .then(([row]) => {
        if (!row?.elems?.length || !row.freqs || row.passages <= 0) return null;
        // The frequencies list one per element, then the lowest and highest of them and the null share.
        const shares = new Map(row.elems.map((e, i) => [e, row.freqs![i]]));
        const setShares = new Map((row.sets ?? []).map((id, i) => [id, row.setFreqs?.[i] ?? 0]));
        return { shares, floor: row.freqs[row.elems.length], passages: row.passages, setShares };
      })
      .catch(() => null);
    lexemeStats = { at: Date.now(), value };
  }
  return lexemeStats.value;
}

/**
 * Whether vector search runs in SQL: pgvector installed, on a real server. The embedded PGlite
 * has pgvector too, but it is one session running WebAssembly: there, adding a row to an HNSW
 * index costs ~4 ms and a scan holds up every other query, while the app compares cached vectors
 * in a few milliseconds (retrieval.service.ts), so it searches like a server without pgvector.
 */
export async function searchesVectorsInSql(): Promise<boolean> {
  return process.env.ZELIN_EMBEDDED_DB !== "1" && (await hasVectorExtension());
}

let vectorInstalled: Promise<boolean> | null = null;
/** Whether pgvector is installed in this database (the embedded PGlite has it; a plain server may not). */
export function hasVectorExtension(): Promise<boolean> {
  vectorInstalled ??= getDb().$queryRaw<{ ok: boolean }[]>`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS ok`
    .then((r) => Boolean(r[0]?.ok))
    .catch(() => false);
  return vectorInstalled;
}

/** pgvector's HNSW indexes take vectors of at most this many dimensions. */
const HNSW_MAX_DIMS = 2000;
const vectorIndexes = new Map<number, Promise<void>>();

/**
 * With pgvector on a server (searchesVectorsInSql), an HNSW index over the vectors of one
 * length (a partial index on the expression searchVectorSql orders by), made the first time
 * vectors of that length are stored, so while the table is still small. Made once even with several workers: an advisory lock serialises them and
 * IF NOT EXISTS lets the later ones through. Plain CREATE INDEX (in a transaction, so not
 * CONCURRENTLY): writes to passages wait while it builds, reads do not.
 */
export function ensureVectorIndex(dims: number): Promise<void> {
  if (!Number.isInteger(dims) || dims < 1 || dims > HNSW_MAX_DIMS) return Promise.resolve();
  let made = vectorIndexes.get(dims);
  if (!made) {
    made = (async () => {
      if (!(await searchesVectorsInSql())) return;
      await getDb().$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('knowledge_passage_embedding_index'))`;
          await tx.$executeRawUnsafe(
            `CREATE INDEX IF NOT EXISTS knowledge_passage_embedding_${dims}_idx ON knowledge_passage
             USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE cardinality(embedding) = ${dims}`,
          );
        },
        { timeout: 10 * 60_000, maxWait: 60_000 },
      );
    })().catch((err) => {
      vectorIndexes.delete(dims); // tried again with the next vectors stored
      logger.warn({ err, dims }, "could not create the vector index; vector search scans instead");
    });
    vectorIndexes.set(dims, made);
  }
  return made;
}

export async function setEmbeddings(rows: Array<{ id: string; embedding: number[] }>, model: string, tx: TDbOrTx = getDb()) {
  if (!rows.length) return;
  // Not inside the caller's transaction: the index is made on a connection of its own.
  if (tx === getDb()) await ensureVectorIndex(rows[0].embedding.length);
  // One statement: the vectors travel as one JSON array (Postgres has no array-of-arrays unnest).
  await tx.$executeRaw`
    UPDATE knowledge_passage p SET embedding = ARRAY(SELECT jsonb_array_elements_text(u.v)::float8), embedding_model = ${model}
    FROM jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, v: r.embedding })))}::jsonb) AS u(id text, v jsonb)
    WHERE p.id = u.id`;
}

export async function listPassagesWithoutEmbedding(trainingSetId: string, model: string, limit: number, tx: TDbOrTx = getDb()) {
  return tx.$queryRaw<{ id: string; title: string; content: string }[]>`
    SELECT id, title, content FROM knowledge_passage
    WHERE training_set_id = ${trainingSetId} AND (embedding_model IS DISTINCT FROM ${model} OR cardinality(embedding) = 0)
    ORDER BY ordinal, id LIMIT ${limit}`;
}

/**
 * Nearest passages by cosine distance, in SQL through pgvector: ordered by the expression the
 * HNSW index of that vector length holds (ensureVectorIndex), so the planner can walk the index
 * instead of measuring every passage; for a few sets in a large table it reads them by set
 * instead. The index scan goes on (iterative scan) until enough passages of the sets are found.
 * Score is the cosine similarity.
 */
export async function searchVectorSql(trainingSetIds: string[], embedding: number[], model: string, limit: number): Promise<TPassageHit[]> {
  const dims = embedding.length;
  if (!Number.isInteger(dims) || dims < 1) return [];
  const literal = `[${embedding.join(",")}]`;
  // The length is part of the SQL text: the partial index matches only a literal predicate.
  const query = `SELECT p.id, p.training_set_id AS "trainingSetId", p.qa_item_id AS "qaItemId", p.document_id AS "documentId",
            p.title, p.content, (1 - (p.embedding::vector(${dims}) <=> $1::vector(${dims})))::float8 AS score
     FROM knowledge_passage p
     WHERE cardinality(p.embedding) = ${dims} AND p.training_set_id = ANY($2::text[]) AND p.embedding_model = $3
     ORDER BY p.embedding::vector(${dims}) <=> $1::vector(${dims})
     LIMIT $4`;
  if (!(await hasIterativeScan())) return getDb().$queryRawUnsafe<TPassageHit[]>(query, literal, trainingSetIds, model, limit);
  return getDb().$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL hnsw.iterative_scan = strict_order");
    return tx.$queryRawUnsafe<TPassageHit[]>(query, literal, trainingSetIds, model, limit);
  });
}

let iterativeScan: Promise<boolean> | null = null;
/** pgvector 0.8 and later can go on scanning an index until enough rows pass the filters. */
function hasIterativeScan(): Promise<boolean> {
  iterativeScan ??= getDb().$queryRaw<{ v: string | null }[]>`SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'`
    .then((r) => {
      const [major, minor] = (r[0]?.v ?? "0.0").split(".").map(Number);
      return major > 0 || minor >= 8;
    })
    .catch(() => false);
  return iterativeScan;
}

/** Without pgvector: the vectors of one set, for cosine in the app. */
export async function listSetEmbeddings(trainingSetId: string, model: string) {
  return getDb().$queryRaw<Array<{ id: string; embedding: number[] }>>`
    SELECT id, embedding FROM knowledge_passage
    WHERE training_set_id = ${trainingSetId} AND embedding_model = ${model} AND cardinality(embedding) > 0`;
}

export async function listPassagesByIds(ids: string[]): Promise<Array<Omit<TPassageHit, "score">>> {
  return queryDirect({
    name: "zl_passages_by_ids",
    text: `SELECT p.id, p.training_set_id AS "trainingSetId", p.qa_item_id AS "qaItemId", p.document_id AS "documentId", p.title, p.content
      FROM knowledge_passage p WHERE p.id = ANY($1::text[])`,
    values: [ids],
  });
}

/** Without pgvector, for a set still training: at most `cap` of the sets' vectors. */
export async function listEmbeddings(trainingSetIds: string[], model: string, cap: number) {
  return getDb().$queryRaw<Array<{ id: string; embedding: number[] }>>`
    SELECT p.id, p.embedding
    FROM knowledge_passage p
    WHERE p.training_set_id = ANY(${trainingSetIds}::text[]) AND p.embedding_model = ${model} AND cardinality(p.embedding) > 0
    LIMIT ${cap}`;
}

/**
 * Refreshes the planner's statistics of the passages, which full-text ranking reads for word
 * frequencies. A server's autovacuum does this by itself; the embedded PGlite never does, so the
 * indexing job asks after writing passages.
 */
export async function analyzePassages() {
  await getDb().$executeRawUnsafe("ANALYZE knowledge_passage");
  forgetLexemeStats();
}

/**
 * Moves the full-text index's pending entries into the index proper. GIN keeps new entries in
 * an unsorted pending list (up to 4 MB) until a vacuum merges them, and every search reads that
 * list whole: after a large set is trained, searches took several times longer until autovacuum
 * came by (and the embedded database has none). Cheap when the list is short.
 */
export async function mergePendingFullTextEntries() {
  await getDb().$queryRawUnsafe("SELECT gin_clean_pending_list('knowledge_passage_lexemes_idx'::regclass)::int AS merged");
}
