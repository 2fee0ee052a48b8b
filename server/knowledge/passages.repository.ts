// Passages, the rows retrieval searches (issue 5). Raw SQL: the lexemes column is a tsvector the
// app builds (text-segmenter.ts) and Prisma cannot write, and search ranks inside Postgres.
import crypto from "node:crypto";
import { getDb, type TDbOrTx } from "../db/client";

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

/**
 * Full-text search: passages of the sets matching any query word, ranked by ts_rank with a
 * question's words (weight A) counting ten times an answer's (D).
 */
export async function searchFullText(trainingSetIds: string[], tsquery: string, limit: number, opts: { qaOnly?: boolean } = {}): Promise<TPassageHit[]> {
  const rows = await getDb().$queryRaw<Array<Omit<TPassageHit, "score"> & { score: number }>>`
    SELECT p.id, p.training_set_id AS "trainingSetId", p.qa_item_id AS "qaItemId", p.document_id AS "documentId",
           p.title, p.content, ts_rank('{0.1, 0.2, 0.4, 1.0}', p.lexemes, q)::float8 AS score
    FROM knowledge_passage p, CAST(${tsquery} AS tsquery) q
    WHERE p.training_set_id = ANY(${trainingSetIds}::text[]) AND p.lexemes @@ q
      AND (${opts.qaOnly ?? false}::boolean = false OR p.qa_item_id IS NOT NULL)
    ORDER BY score DESC, p.id
    LIMIT ${limit}`;
  return rows;
}

let vectorInstalled: Promise<boolean> | null = null;
/** Whether pgvector is installed in this database (the embedded PGlite has it; a plain server may not). */
export function hasVectorExtension(): Promise<boolean> {
  vectorInstalled ??= getDb()
    .$queryRaw<{ ok: boolean }[]>`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS ok`
    .then((r) => Boolean(r[0]?.ok))
    .catch(() => false);
  return vectorInstalled;
}

export async function setEmbeddings(rows: Array<{ id: string; embedding: number[] }>, model: string, tx: TDbOrTx = getDb()) {
  if (!rows.length) return;
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

/** Nearest passages by cosine distance, in SQL through pgvector. Score is the cosine similarity. */
export async function searchVectorSql(trainingSetIds: string[], embedding: number[], model: string, limit: number): Promise<TPassageHit[]> {
  const literal = `[${embedding.join(",")}]`;
  return getDb().$queryRawUnsafe<TPassageHit[]>(
    `SELECT p.id, p.training_set_id AS "trainingSetId", p.qa_item_id AS "qaItemId", p.document_id AS "documentId",
            p.title, p.content, (1 - (p.embedding::vector <=> $1::vector))::float8 AS score
     FROM knowledge_passage p
     WHERE p.training_set_id = ANY($2::text[]) AND p.embedding_model = $3 AND cardinality(p.embedding) = $4
     ORDER BY p.embedding::vector <=> $1::vector
     LIMIT $5`,
    literal,
    trainingSetIds,
    model,
    embedding.length,
    limit,
  );
}

/** Without pgvector: the sets' embeddings, for cosine in the app (bounded: smaller deployments). */
export async function listEmbeddings(trainingSetIds: string[], model: string, cap: number) {
  return getDb().$queryRaw<Array<Omit<TPassageHit, "score"> & { embedding: number[] }>>`
    SELECT p.id, p.training_set_id AS "trainingSetId", p.qa_item_id AS "qaItemId", p.document_id AS "documentId",
           p.title, p.content, p.embedding
    FROM knowledge_passage p
    WHERE p.training_set_id = ANY(${trainingSetIds}::text[]) AND p.embedding_model = ${model} AND cardinality(p.embedding) > 0
    LIMIT ${cap}`;
}
