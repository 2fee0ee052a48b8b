// Connections to a customer's MySQL or MariaDB server (docs/security.md): short-lived, reached
// through the SSRF policy (the name is resolved here and the connection goes to the checked
// address, so a DNS answer cannot change in between), LOCAL INFILE off in the client flags with no
// infile stream factory, one statement per query, utf8mb4 (no multi-byte charset hides a quote).
// A query runs with a fixed sql_mode, inside START TRANSACTION READ ONLY, with the server's own
// time limit (MariaDB max_statement_time, MySQL max_execution_time) set and read back, a client
// timeout behind it, and at most rowLimit + 1 rows read.
import dns from "node:dns/promises";
import net from "node:net";
import mysql from "mysql2";
import { AppError, isAppError } from "../../errors/app-error";
import { isPublicAddress } from "../../net/address-policy";
import { BlockedAddressError } from "../../net/guarded-fetch";
import { assertReadOnlySelect, type TQueryScope } from "./sql-guard";
import type { TQueryResult } from "./database-sets.schema";

export type TConnectionInfo = { host: string; port: number; username: string; password: string; database: string };

const CONNECT_TIMEOUT_MS = 5_000;
/** The client gives the server's own limit this long to answer before it hangs up. */
const CLIENT_GRACE_MS = 2_000;
const CELL_MAX_CHARS = 500;

/** SSRF_ALLOWLIST host:port pairs may be private (tests, an operator's own database). */
function isAllowListed(host: string, port: number) {
  const allowed = (process.env.SSRF_ALLOWLIST ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return allowed.includes(`${host}:${port}`.toLowerCase());
}

/** The address to connect to: every address the name resolves to must be public (or allow-listed). */
export async function resolveDatabaseAddress(host: string, port: number, lookup: typeof dns.lookup = dns.lookup): Promise<string> {
  const plain = host.replace(/^\[|\]$/g, "");
  if (isAllowListed(plain, port)) return plain;
  if (net.isIP(plain)) {
    if (!isPublicAddress(plain)) throw new BlockedAddressError(plain, plain);
    return plain;
  }
  if (plain === "localhost" || plain.endsWith(".localhost")) throw new BlockedAddressError(plain, "loopback");
  const addresses = await lookup(plain, { all: true });
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad) throw new BlockedAddressError(plain, bad.address);
  if (!addresses.length) throw Object.assign(new Error(`${plain} has no address`), { code: "ENOTFOUND" });
  return addresses[0].address;
}

/** Why a connection or query failed, as database_verification_failed / sql_failed reasons. */
export function describeDriverError(
  err: unknown,
  info: Pick<TConnectionInfo, "host" | "port" | "database">,
): { reason: string; params: Record<string, string | number> } {
  const e = err as { name?: string; code?: string; message?: string; sqlMessage?: string };
  if (err instanceof BlockedAddressError || e?.name === "BlockedAddressError") return { reason: "host_not_allowed", params: { host: info.host } };
  switch (e?.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return { reason: "host_not_found", params: { host: info.host } };
    case "ECONNREFUSED":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return { reason: "connection_refused", params: { host: info.host, port: info.port } };
    case "ETIMEDOUT":
    case "PROTOCOL_SEQUENCE_TIMEOUT":
      return { reason: "connect_timeout", params: {} };
    case "ER_ACCESS_DENIED_ERROR":
    case "ER_DBACCESS_DENIED_ERROR":
    case "ER_ACCESS_DENIED_NO_PASSWORD_ERROR":
    case "ER_HOST_NOT_PRIVILEGED":
      return { reason: "access_denied", params: {} };
    case "ER_BAD_DB_ERROR":
      return { reason: "unknown_database", params: { database: info.database } };
    default:
      return { reason: "server_error", params: { message: String(e?.sqlMessage ?? e?.message ?? err).slice(0, 300) } };
  }
}

/** A connection to the checked address; the caller ends it. */
export async function openConnection(info: TConnectionInfo, connectTimeoutMs = CONNECT_TIMEOUT_MS): Promise<mysql.Connection> {
  const address = await resolveDatabaseAddress(info.host, info.port);
  const conn = mysql.createConnection({
    host: address,
    port: info.port,
    user: info.username,
    password: info.password,
    database: info.database,
    connectTimeout: connectTimeoutMs,
    // One statement per query, and no LOAD DATA LOCAL INFILE whatever the SQL says: the flag is
    // not offered to the server and there is no stream factory to read a file with.
    multipleStatements: false,
    flags: ["-LOCAL_FILES", "-MULTI_STATEMENTS"],
    infileStreamFactory: undefined,
    // Values that survive JSON: big numbers and dates as the server writes them.
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    charset: "UTF8MB4_UNICODE_CI",
  });
  await new Promise<void>((resolve, reject) => {
    conn.connect((err) => (err ? reject(err) : resolve()));
  }).catch((err) => {
    conn.destroy();
    throw err;
  });
  conn.on("error", () => undefined);
  return conn;
}

function query<T = unknown>(conn: mysql.Connection, sql: string, values: unknown[] = []): Promise<T> {
  return new Promise((resolve, reject) => conn.query(sql, values, (err, rows) => (err ? reject(err) : resolve(rows as T))));
}

function close(conn: mysql.Connection) {
  conn.end(() => conn.destroy());
}

/** What verification learns from the server: its version, and which of the tables it lacks. */
export async function inspectDatabase(info: TConnectionInfo, tables: string[]): Promise<{ serverVersion: string; missing: string[] }> {
  const conn = await openConnection(info);
  try {
    const [{ v }] = await query<Array<{ v: string }>>(conn, "SELECT VERSION() AS v");
    const present = await query<Array<{ name: string }>>(conn, "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", [
      info.database,
    ]);
    const names = new Set(present.map((r) => String(r.name).toLowerCase()));
    return { serverVersion: v, missing: tables.filter((t) => !names.has(t.toLowerCase())) };
  } finally {
    close(conn);
  }
}

export type TQueryOptions = { rowLimit: number; timeoutMs: number };

/**
 * Runs one SELECT the guard lets through, read-only, within the time and row limits. Refusals:
 * sql_refused (the guard), sql_timeout (either limit), sql_failed (connection or server error).
 */
export async function runReadOnlyQuery(source: TConnectionInfo & { tables: string[] }, sql: string, opts: TQueryOptions): Promise<TQueryResult> {
  const scope: TQueryScope = { tables: source.tables, database: source.database };
  assertReadOnlySelect(sql, scope);
  return executeReadOnly(source, sql, opts);
}

/**
 * The execution half, without the guard: what would happen if the parser were fooled. Exported for
 * the tests that prove the limits and the read-only transaction hold on their own.
 */
export async function executeReadOnly(info: TConnectionInfo, sql: string, opts: TQueryOptions): Promise<TQueryResult> {
  const started = Date.now();
  let conn: mysql.Connection;
  try {
    conn = await openConnection(info);
  } catch (err) {
    throw toQueryError(err, info, opts);
  }
  try {
    await limitSession(conn, opts.timeoutMs);
    await query(conn, "START TRANSACTION READ ONLY");
    const result = await streamRows(conn, sql, opts);
    // A truncated read hung up already: the server rolls back on its own.
    if (!result.truncated) {
      await query(conn, "ROLLBACK");
      close(conn);
    }
    return { ...result, elapsed_ms: Date.now() - started };
  } catch (err) {
    conn.destroy();
    throw toQueryError(err, info, opts);
  }
}

/**
 * The sql_mode the guard lexes by: quotes are strings, backslashes escape, `||` is OR, no
 * Oracle/MSSQL dialect (brackets, other comment rules). The customer's default may differ.
 */
export const SESSION_SQL_MODE = "NO_ENGINE_SUBSTITUTION";

const UNKNOWN_SYSTEM_VARIABLE = 1193;

/**
 * The session's sql_mode and the server's own statement time limit, set and read back: MariaDB
 * (its VERSION() says so) counts max_statement_time in seconds, MySQL max_execution_time in
 * milliseconds. A server that refuses or ignores the limit is not queried at all.
 */
export async function limitSession(conn: mysql.Connection, timeoutMs: number): Promise<void> {
  const [{ v }] = await query<Array<{ v: string }>>(conn, "SELECT VERSION() AS v");
  const mariadb = /mariadb/i.test(v);
  const [variable, value] = mariadb
    ? ["max_statement_time", Math.max(0.001, timeoutMs / 1000).toFixed(3)]
    : ["max_execution_time", String(Math.max(1, Math.round(timeoutMs)))];
  try {
    await query(conn, `SET SESSION sql_mode = '${SESSION_SQL_MODE}', SESSION ${variable} = ${value}`);
  } catch (err) {
    if ((err as { errno?: number }).errno === UNKNOWN_SYSTEM_VARIABLE) throw noTimeLimit(v, err);
    throw err;
  }
  const [row] = await query<Array<{ mode: string; limit: string | number }>>(conn, `SELECT @@SESSION.sql_mode AS mode, @@SESSION.${variable} AS \`limit\``);
  if (!(Math.abs(Number(row.limit) - Number(value)) < 0.001) || row.mode !== SESSION_SQL_MODE) throw noTimeLimit(v);
}

function noTimeLimit(version: string, cause?: unknown) {
  return new AppError("sql_failed", {
    params: { reason: "$t:database:sql_failures.time_limit", version },
    data: { reason: "time_limit", params: { version } },
    cause,
  });
}

/** Reads at most rowLimit + 1 rows, then hangs up: the rest is never transferred. */
function streamRows(conn: mysql.Connection, sql: string, opts: TQueryOptions): Promise<Omit<TQueryResult, "elapsed_ms">> {
  return new Promise((resolve, reject) => {
    let columns: string[] = [];
    const rows: unknown[][] = [];
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      finish(() => reject(Object.assign(new Error("client timeout"), { code: "CLIENT_TIMEOUT" })));
      conn.destroy();
    }, opts.timeoutMs + CLIENT_GRACE_MS);
    const q = conn.query({ sql, rowsAsArray: true });
    q.on("fields", (fields: Array<{ name: string }> | undefined) => {
      if (fields) columns = fields.map((f) => f.name);
    });
    q.on("result", (row: unknown) => {
      if (settled) return;
      if (!Array.isArray(row)) return; // an OK packet: not a result set
      if (rows.length >= opts.rowLimit) {
        finish(() => resolve({ columns, rows, truncated: true, row_limit: opts.rowLimit }));
        conn.destroy();
        return;
      }
      rows.push(row.map(toCell));
    });
    q.on("error", (err: Error) => finish(() => reject(err)));
    q.on("end", () => finish(() => resolve({ columns, rows, truncated: false, row_limit: opts.rowLimit })));
  });
}

function toCell(value: unknown): unknown {
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (Buffer.isBuffer(value))
    return value.length > CELL_MAX_CHARS / 2 ? `0x${value.subarray(0, CELL_MAX_CHARS / 2).toString("hex")}…` : `0x${value.toString("hex")}`;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > CELL_MAX_CHARS ? `${text.slice(0, CELL_MAX_CHARS)}…` : text;
}

const TIMEOUT_CODES = new Set(["CLIENT_TIMEOUT", "ER_STATEMENT_TIMEOUT", "ER_QUERY_TIMEOUT", "ER_QUERY_INTERRUPTED"]);

function toQueryError(err: unknown, info: TConnectionInfo, opts: TQueryOptions): AppError {
  if (isAppError(err)) return err;
  const e = err as { code?: string; errno?: number };
  // 1969: MariaDB max_statement_time; 3024: MySQL max_execution_time.
  if (TIMEOUT_CODES.has(e?.code ?? "") || e?.errno === 1969 || e?.errno === 3024) {
    return new AppError("sql_timeout", { params: { seconds: Math.round(opts.timeoutMs / 100) / 10 }, cause: err });
  }
  const { reason, params } = describeDriverError(err, info);
  const key = reason === "server_error" ? "$t:database:sql_failures.server_error" : `$t:database:verify_errors.${reason}`;
  return new AppError("sql_failed", { params: { reason: key, ...params }, data: { reason, params }, cause: err });
}
