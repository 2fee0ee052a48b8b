// What SQL a database training set lets through (issue 5), decided on the parsed statement
// (node-sql-parser, MySQL dialect), never on the text: exactly one SELECT (WITH … SELECT and UNION
// included) reading only the tables the set declares; no INTO OUTFILE/DUMPFILE/variables, no user
// or system variables, no functions that read files, wait or take locks, no locking reads. Comments
// the server would execute (/*! … */, /*M! … */) or read as optimizer hints (/*+ … */) are refused
// before parsing: the parser skips them as comments, the server does not. The runner adds what a
// parser cannot promise (a read-only transaction, time and row limits, no LOCAL INFILE).
// The MySQL grammar alone: the package's main module carries every dialect it knows (some 25 MB of heap).
import sqlParser from "node-sql-parser/build/mysql";
import { AppError } from "../../errors/app-error";

const parser = new sqlParser.Parser();
const DIALECT = { database: "MySQL" } as const;

/** Functions that read the server's files, sleep, wait, take locks, or change state. */
const DENIED_FUNCTIONS = new Set([
  "LOAD_FILE",
  "SLEEP",
  "BENCHMARK",
  "GET_LOCK",
  "RELEASE_LOCK",
  "RELEASE_ALL_LOCKS",
  "IS_FREE_LOCK",
  "IS_USED_LOCK",
  "MASTER_POS_WAIT",
  "SOURCE_POS_WAIT",
  "MASTER_GTID_WAIT",
  "WAIT_FOR_EXECUTED_GTID_SET",
  "WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS",
  "LAST_INSERT_ID",
  "NEXTVAL",
  "SETVAL",
  "LASTVAL",
  "SYS_EXEC",
  "SYS_EVAL",
  "SYS_GET",
  "SYS_SET",
]);

/** A refusal of the query, with the reason as a key of database:sql_refusals. */
function refuse(reason: string, params: Record<string, string | number> = {}): never {
  throw new AppError("sql_refused", { params: { reason: `$t:database:sql_refusals.${reason}`, ...params }, data: { reason, params } });
}

/** "Database verification failed" with its reason, a key of database:verify_errors. */
export function verificationFailed(reason: string, params: Record<string, string | number> = {}, cause?: unknown) {
  return new AppError("database_verification_failed", { params: { reason: `$t:database:verify_errors.${reason}`, ...params }, data: { reason, params }, cause });
}

function failVerification(reason: string, params: Record<string, string | number> = {}): never {
  throw verificationFailed(reason, params);
}

type TNode = Record<string, unknown>;

function* walk(value: unknown): Generator<TNode> {
  if (Array.isArray(value)) {
    for (const v of value) yield* walk(v);
    return;
  }
  if (!value || typeof value !== "object") return;
  const node = value as TNode;
  yield node;
  for (const v of Object.values(node)) yield* walk(v);
}

function functionName(node: TNode): string {
  const name = node.name as unknown;
  if (typeof name === "string") return name;
  const parts = (name as { name?: Array<{ value?: string }> } | undefined)?.name;
  return Array.isArray(parts) ? parts.map((p) => String(p.value ?? "")).join(".") : "";
}

const EXECUTABLE_COMMENT = /\/\*\s*(!|M!|\+)/i;

export type TQueryScope = {
  /** Tables the training set declares; anything else is refused. */
  tables: string[];
  /** The set's database: a table may be named with it (shop.orders). */
  database: string;
};

/** Throws sql_refused unless `sql` is one read-only SELECT over the declared tables. */
export function assertReadOnlySelect(sql: string, scope: TQueryScope): void {
  if (EXECUTABLE_COMMENT.test(sql)) refuse("executable_comment");
  let parsed: { ast: unknown; tableList: string[] };
  try {
    parsed = parser.parse(sql, DIALECT) as { ast: unknown; tableList: string[] };
  } catch (err) {
    const at = (err as { location?: { start?: { line: number; column: number } } }).location?.start;
    refuse("unparsable", { line: at?.line ?? 1, column: at?.column ?? 1 });
  }
  const statements = (Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast]).filter(Boolean) as TNode[];
  if (statements.length !== 1) refuse("one_statement");
  const [statement] = statements;
  if (statement.type !== "select") refuse("not_select", { type: String(statement.type ?? "").toUpperCase() });

  // Only the statement's own WITH names are exempt: they are in scope everywhere in it. A name made
  // by a WITH inside a subquery is not in scope outside it, where the same name is a real table.
  const cteNames = new Set(((statement.with as TNode[] | null) ?? []).map((w) => String((w.name as TNode | undefined)?.value ?? w.name ?? "").toLowerCase()));
  for (const node of walk(statement)) {
    if (node.type === "var" || node.type === "assign") refuse("variables");
    if (node.type === "function" || node.type === "aggr_func") {
      const name = functionName(node).split(".").pop()!.toUpperCase();
      if (DENIED_FUNCTIONS.has(name)) refuse("function", { name });
    }
    const into = node.into as TNode | undefined;
    if (into && (into.position || into.keyword || into.expr)) refuse("into");
    if (node.locking_read) refuse("locking_read");
  }

  const declared = new Set(scope.tables.map((t) => t.toLowerCase()));
  for (const entry of parsed.tableList) {
    const [action, db, table] = entry.split("::");
    if (action !== "select") refuse("not_select", { type: action.toUpperCase() });
    const name = table.toLowerCase();
    const inOwnDatabase = db === "null" || db.toLowerCase() === scope.database.toLowerCase();
    if (db === "null" && cteNames.has(name)) continue;
    if (!inOwnDatabase || !declared.has(name)) refuse("table", { table: db === "null" ? table : `${db}.${table}` });
  }
}

/**
 * The names of the tables the statements create. Throws database_verification_failed unless they
 * parse, and every one is a CREATE TABLE.
 */
export function parseCreateTables(ddl: string): string[] {
  if (EXECUTABLE_COMMENT.test(ddl)) failVerification("executable_comment");
  let ast: unknown;
  try {
    ast = parser.astify(ddl, DIALECT);
  } catch (err) {
    const at = (err as { location?: { start?: { line: number; column: number } } }).location?.start;
    failVerification("ddl_unparsable", { line: at?.line ?? 1, column: at?.column ?? 1 });
  }
  const statements = (Array.isArray(ast) ? ast : [ast]).filter(Boolean) as TNode[];
  if (!statements.length) failVerification("ddl_empty");
  const tables: string[] = [];
  statements.forEach((s, i) => {
    if (s.type !== "create" || s.keyword !== "table") failVerification("not_create_table", { index: i + 1 });
    const table = (s.table as Array<{ table?: string }> | undefined)?.[0]?.table;
    if (!table) failVerification("not_create_table", { index: i + 1 });
    if (!tables.some((t) => t.toLowerCase() === table.toLowerCase())) tables.push(table);
  });
  return tables;
}
