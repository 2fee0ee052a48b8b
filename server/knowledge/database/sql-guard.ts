// What SQL a database training set lets through, judged as the server will run it. First the text
// is lexed by the servers' own rules (sql-lexer): no comments of any kind, nothing two readings
// could split differently. Then the statement is parsed (node-sql-parser, MySQL dialect) and must
// be exactly one SELECT (WITH … SELECT and UNION included) that calls only allowed functions
// (sql-functions), reads only the declared tables of the set's own database, by the exact names
// the server would resolve (a WITH name counts only where the server would see it), and has no
// INTO, variables or locking reads. The runner adds what no reading of the text can promise: a
// fixed sql_mode, a read-only transaction, the server's own time limit, a row limit, no LOCAL INFILE.
// The MySQL grammar alone: the package's main module carries every dialect it knows (some 25 MB of heap).
import sqlParser from "node-sql-parser/build/mysql";
import { AppError } from "../../errors/app-error";
import { ALLOWED_FUNCTIONS } from "./sql-functions";
import { lexSql, SqlLexRefusal } from "./sql-lexer";

const parser = new sqlParser.Parser();
const DIALECT = { database: "MySQL" } as const;

/** Databases the server keeps for itself: never read, whatever a set declares. */
const SYSTEM_DATABASES = new Set(["information_schema", "mysql", "performance_schema", "sys"]);

/** A refusal of the query, with the reason as a key of database:sql_refusals. */
function refuse(reason: string, params: Record<string, string | number> = {}): never {
  throw new AppError("sql_refused", { params: { reason: `$t:database:sql_refusals.${reason}`, ...params }, data: { reason, params } });
}

/** "Database verification failed" with its reason, a key of database:verify_errors. */
export function verificationFailed(reason: string, params: Record<string, string | number> = {}, cause?: unknown) {
  return new AppError("database_verification_failed", {
    params: { reason: `$t:database:verify_errors.${reason}`, ...params },
    data: { reason, params },
    cause,
  });
}

function failVerification(reason: string, params: Record<string, string | number> = {}): never {
  throw verificationFailed(reason, params);
}

/**
 * A database name as the server compares it with its own schemas: case and accents folded (its
 * system collation sorts "Í" as "I"), compatibility forms (fullwidth letters) folded too.
 */
function foldName(name: string) {
  return name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

export function isSystemDatabase(name: string) {
  return SYSTEM_DATABASES.has(foldName(name));
}

/** Throws database_verification_failed when a set names one of the server's own databases. */
export function assertCustomerDatabase(database: string) {
  if (isSystemDatabase(database)) failVerification("system_database", { database });
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

/** The called name as written, qualified when it is (shop.f): only bare names can be allowed. */
function functionName(node: TNode): string {
  const name = node.name as unknown;
  if (typeof name === "string") return name;
  const { name: parts, schema } = (name ?? {}) as { name?: Array<{ value?: string }>; schema?: { value?: string } };
  const written = Array.isArray(parts) ? parts.map((p) => String(p.value ?? "")) : [""];
  return [schema?.value, ...written].filter((p) => p !== undefined && p !== null).join(".");
}

export type TQueryScope = {
  /** Tables the training set declares; anything else is refused. */
  tables: string[];
  /** The set's database: a table may be named with it (shop.orders). */
  database: string;
};

/** The text, lexed by the server's rules; a lexical refusal becomes sql_refused. */
function assertUnambiguousText(sql: string) {
  try {
    lexSql(sql);
  } catch (err) {
    if (err instanceof SqlLexRefusal) refuse(err.reason, err.params);
    throw err;
  }
}

function parseOne(sql: string): { statement: TNode; tableList: string[] } {
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
  return { statement, tableList: parsed.tableList };
}

/** No variables, INTO, locking reads, or function off the list, anywhere in the statement. */
function assertPureExpressions(statement: TNode) {
  for (const node of walk(statement)) {
    if (node.type === "var" || node.type === "assign") refuse("variables");
    if (node.type === "param") refuse("ambiguous", { text: String(node.value ?? "?") });
    if (node.type === "function" || node.type === "aggr_func" || node.type === "window_func") {
      const name = functionName(node);
      if (!ALLOWED_FUNCTIONS.has(name.toUpperCase())) refuse("function", { name });
    }
    const into = node.into as TNode | undefined;
    if (into && (into.position || into.keyword || into.expr || into.type)) refuse("into");
    if (node.locking_read) refuse("locking_read");
  }
}

/** A table the statement names; `cte` when the name is a WITH name in scope there. */
type TTableRef = { db: string | null; table: string; cte?: boolean };

/**
 * Every table the statement reads, with WITH names resolved the way the server resolves them: a
 * WITH name is in scope in the statement it belongs to and, inside the WITH, only in the
 * definitions after it (and in its own under RECURSIVE); elsewhere the same name is a real table.
 * The comparison is exact: MariaDB matches WITH names without case, MySQL with, so a name that
 * differs from a WITH name only in case is read as a table and must be declared.
 */
function collectTables(value: unknown, ctes: ReadonlySet<string>, out: TTableRef[]): void {
  if (Array.isArray(value)) return value.forEach((v) => collectTables(v, ctes, out));
  if (!value || typeof value !== "object") return;
  const node = value as TNode;
  let scope = ctes;
  const withs = Array.isArray(node.with) ? (node.with as TNode[]) : [];
  if (withs.length) {
    const recursive = withs.some((w) => w.recursive);
    const names = withs.map((w) => String((w.name as TNode | undefined)?.value ?? w.name ?? ""));
    withs.forEach((w, i) => collectTables(w.stmt, new Set([...ctes, ...names.slice(0, recursive ? i + 1 : i)]), out));
    scope = new Set([...ctes, ...names]);
  }
  for (const [key, v] of Object.entries(node)) {
    if (key === "with") continue;
    if (key === "from") collectFrom(v, scope, out);
    else collectTables(v, scope, out);
  }
}

/** A FROM clause: a list of tables, or a parenthesized join ({ expr: [tables], joins }) of them. */
function collectFrom(from: unknown, ctes: ReadonlySet<string>, out: TTableRef[]): void {
  if (!from || typeof from !== "object") return;
  if (!Array.isArray(from)) {
    for (const [key, v] of Object.entries(from)) (key === "expr" || key === "joins" ? collectFrom : collectTables)(v, ctes, out);
    return;
  }
  for (const item of from as TNode[]) {
    if (typeof item.table === "string" && !item.expr) {
      const db = typeof item.db === "string" ? item.db : null;
      out.push({ db, table: item.table, cte: db === null && ctes.has(item.table) });
    }
    for (const [key, v] of Object.entries(item)) {
      if (key === "expr" && Array.isArray(v)) collectFrom(v, ctes, out);
      else if (key !== "table" && key !== "db") collectTables(v, ctes, out);
    }
  }
}

/** Only the set's declared tables, in its own database, by exactly the names the set declares. */
function assertDeclaredTables(statement: TNode, tableList: string[], scope: TQueryScope) {
  const refs: TTableRef[] = [];
  collectTables(statement, new Set(), refs);
  // Every table the parser saw must be one the walk judged: a form the walk misses is refused.
  const judged = new Set(refs.map((r) => `select::${r.db ?? "null"}::${r.table}`));
  for (const entry of tableList) if (!judged.has(entry)) refuse("table", { table: entry.replace(/^select::(null::)?/, "").replace("::", ".") });
  if (isSystemDatabase(scope.database)) refuse("system_database", { database: scope.database });
  const declared = new Set(scope.tables);
  for (const ref of refs) {
    if (ref.cte) continue;
    const named = ref.db === null ? ref.table : `${ref.db}.${ref.table}`;
    if (ref.db !== null && ref.db !== scope.database) refuse("table", { table: named });
    if (!declared.has(ref.table)) refuse("table", { table: named });
  }
}

/** Throws sql_refused unless `sql` is one read-only SELECT over the declared tables. */
export function assertReadOnlySelect(sql: string, scope: TQueryScope): void {
  assertUnambiguousText(sql);
  const { statement, tableList } = parseOne(sql);
  assertPureExpressions(statement);
  assertDeclaredTables(statement, tableList, scope);
}

/**
 * The names of the tables the statements create. Throws database_verification_failed unless they
 * parse, and every one is a CREATE TABLE.
 */
export function parseCreateTables(ddl: string): string[] {
  // Statements the customer pastes are never run: comments that only a server would execute are
  // refused so the parser and the tables the set declares read the same.
  if (/\/\*\s*(!|M!|\+)/i.test(ddl)) failVerification("executable_comment");
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
