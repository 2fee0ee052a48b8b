// Statements on the hot paths (a chat turn's context and its stored reply, retrieval) straight
// through node-postgres, without Prisma's query engine, which costs each statement a millisecond or
// more of CPU: under a burst of chats that CPU, not PostgreSQL, is the queue. Reads and
// single-statement writes on any connection of the pool; a transaction (`transactDirect`) holds one
// connection from BEGIN to COMMIT, so the pool's other callers never run inside it. On the embedded
// database (one session shared through a queue) and inside a caller's transaction they go through
// Prisma: the same text and values either way, so a repository writes its statement once.
import pg from "pg";
import { getDb, type TDbOrTx } from "./client";
import { logger } from "../lib/logger";
import { singleton } from "../lib/singleton";

/** A statement with $1.. placeholders; a name makes it a prepared statement on each connection. */
export type TStatement = { text: string; values: unknown[]; name?: string };

/** Connections of the read pool per process. */
export const DIRECT_POOL_MAX = 8;

// The pool of the URL last asked for: every hot statement asks, and building the singleton's key
// each time showed in a chat turn's profile.
let last: { url: string; pool: pg.Pool } | null = null;

function directPool(): pg.Pool | null {
  const url = process.env.DATABASE_URL;
  if (!url || process.env.ZELIN_EMBEDDED_DB === "1") return null;
  if (last?.url === url) return last.pool;
  const pool = openPool(url);
  last = { url, pool };
  return pool;
}

function openPool(url: string): pg.Pool {
  return singleton(`direct-pool:${url}`, () => {
    const pool = new pg.Pool({ connectionString: url, max: DIRECT_POOL_MAX, idleTimeoutMillis: 30_000, allowExitOnIdle: true, types: { getTypeParser } });
    // An idle connection the server closed (restart, dropped test database) must not crash the process.
    pool.on("error", (err) => logger.warn({ err }, "direct pool: idle connection lost"));
    return pool;
  });
}

/** Prisma keeps timestamps as UTC wall time in `timestamp` columns: read them back as UTC, as Prisma does. */
const TIMESTAMP_OID = 1114;
const parseUtcTimestamp = (value: string) => new Date(`${value.replace(" ", "T")}Z`);
function getTypeParser(oid: number, format?: "text" | "binary") {
  if (oid === TIMESTAMP_OID && format !== "binary") return parseUtcTimestamp;
  return pg.types.getTypeParser(oid, format as "text");
}

/**
 * The rows of a read: on the read pool on a server, else (embedded database, or inside the
 * caller's transaction `tx`) through Prisma. Select bigint columns as text or float8: the two
 * drivers read int8 differently.
 */
export async function queryDirect<T>(statement: TStatement, tx?: TDbOrTx): Promise<T[]> {
  const pool = tx ? null : directPool();
  if (pool) return (await pool.query({ text: statement.text, values: statement.values, ...(statement.name ? { name: statement.name } : {}) })).rows as T[];
  return (tx ?? getDb()).$queryRawUnsafe<T[]>(statement.text, ...statement.values);
}

/** A single-statement write (autocommit) the same way: returns the rows it changed. */
export async function executeDirect(statement: TStatement, tx?: TDbOrTx): Promise<number> {
  const pool = tx ? null : directPool();
  if (pool) return (await pool.query({ text: statement.text, values: statement.values, ...(statement.name ? { name: statement.name } : {}) })).rowCount ?? 0;
  return (tx ?? getDb()).$executeRawUnsafe(statement.text, ...statement.values);
}

/** Runs one statement of a `transactDirect` transaction: the rows it returned. */
export type TRunStatement = <T>(statement: TStatement) => Promise<T[]>;

/**
 * `work`'s statements in one transaction: on one connection of the direct pool on a server, else
 * (embedded database) in a Prisma transaction, or in the caller's transaction `tx`. A throw from
 * `work` rolls everything back and is rethrown.
 */
export async function transactDirect<T>(work: (run: TRunStatement) => Promise<T>, tx?: TDbOrTx): Promise<T> {
  const pool = tx ? null : directPool();
  if (!pool) {
    const through = (db: TDbOrTx) => work(<R>(s: TStatement) => db.$queryRawUnsafe<R[]>(s.text, ...s.values));
    return tx ? through(tx) : getDb().$transaction((t) => through(t));
  }
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(
      async <R>(s: TStatement) => (await client.query({ text: s.text, values: s.values, ...(s.name ? { name: s.name } : {}) })).rows as R[],
    );
    await client.query("COMMIT");
    return result;
  } catch (err) {
    // A connection that cannot even roll back is closed rather than handed to the next caller.
    await client.query("ROLLBACK").catch((rollbackErr: Error) => (broken = rollbackErr));
    throw err;
  } finally {
    client.release(broken);
  }
}
