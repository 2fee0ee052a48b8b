// The database training sets' tool: when an agent lists verified database sets, the turn
// offers `sql_generate_and_data_query`, whose description carries the table-creation statements.
// The model writes one SELECT; the platform runs it read-only (sql-guard, mysql-runner) and hands
// the rows back. The step shows in the chat as a `function` event with the SQL in its params.
// An agent without database sets pays nothing: set types never change, so which listed ids are
// not database sets is remembered, and a turn whose ids are all known as such reads nothing.
import { isAppError } from "../../errors/app-error";
import { mapError } from "../../errors/map-error";
import { findAgentDatabaseSets, type TAgentDatabaseSet } from "../../knowledge/database/database-sets.service";
import { QUERY_ROW_LIMIT, QUERY_TIMEOUT_MS } from "../../knowledge/database/database-sets.schema";
import { runReadOnlyQuery } from "../../knowledge/database/mysql-runner";
import { toMarkdownTable } from "../../knowledge/database/result-table";
import { defineTurnTool, type TOpenAiTool, type TToolOutcome } from "../../turns/tools";

export const SQL_TOOL_NAME = "sql_generate_and_data_query";
/** Rows the model reads at most (the step keeps the same). */
const MODEL_ROW_LIMIT = 50;

const notDatabase = new Set<string>();
const MAX_REMEMBERED = 50_000;

/** The SQL tool for this turn, or none; synchronous (no read) when no listed set can be a database set. */
export function databaseToolsFor(agentId: string, trainingSetIds: string[]): TOpenAiTool[] | Promise<TOpenAiTool[]> {
  const unknown = trainingSetIds.filter((id) => !notDatabase.has(id));
  if (!unknown.length) return [];
  return resolve(agentId, unknown);
}

async function resolve(agentId: string, ids: string[]): Promise<TOpenAiTool[]> {
  const { types, sets } = await findAgentDatabaseSets(agentId, ids);
  if (notDatabase.size > MAX_REMEMBERED) notDatabase.clear();
  for (const t of types) if (t.type !== "database") notDatabase.add(t.id);
  return sets.length ? [sqlTool(sets)] : [];
}

function sqlTool(sets: TAgentDatabaseSet[]): TOpenAiTool {
  const many = sets.length > 1;
  const schemas = sets
    .map((s, i) =>
      [
        `-- ${many ? `Database ${i + 1}, training_set_id "${s.id}": ` : ""}${s.name} (MySQL database \`${s.database}\`)${s.introduction ? `: ${s.introduction}` : ""}`,
        s.ddl,
      ].join("\n"),
    )
    .join("\n\n");
  const description = [
    "Answer questions from the user's MySQL database: write ONE read-only MySQL SELECT statement (WITH … SELECT allowed) over the tables below; the platform runs it and returns the rows.",
    `Only these tables can be read. No INSERT/UPDATE/DELETE/DDL, no variables, no INTO, no SLEEP/LOAD_FILE. At most ${QUERY_ROW_LIMIT} rows come back: aggregate or use LIMIT.`,
    "Tables:",
    schemas,
  ].join("\n\n");
  const properties: Record<string, unknown> = { sql: { type: "string", description: "One MySQL SELECT statement, without comments" } };
  if (many) properties.training_set_id = { type: "string", enum: sets.map((s) => s.id), description: "Which database to query" };
  const definition: TOpenAiTool = {
    type: "function",
    function: { name: SQL_TOOL_NAME, description, parameters: { type: "object", properties, required: many ? ["sql", "training_set_id"] : ["sql"] } },
  };
  return defineTurnTool(definition, (args, signal) => runSqlTool(sets, args, signal));
}

async function runSqlTool(sets: TAgentDatabaseSet[], args: Record<string, unknown>, signal?: AbortSignal): Promise<TToolOutcome> {
  const sql = typeof args.sql === "string" ? args.sql.trim() : "";
  const set = sets.length === 1 ? sets[0] : sets.find((s) => s.id === args.training_set_id);
  // The SQL is both the call's argument and the step's code (shown like the interpreters' code).
  const params = { arguments: args, code: sql };
  try {
    if (!sql) throw new Error("sql is required");
    if (!set) throw new Error(`training_set_id must be one of ${sets.map((s) => s.id).join(", ")}`);
    if (signal?.aborted) throw signal.reason;
    const result = await runReadOnlyQuery(set.source, sql, { rowLimit: QUERY_ROW_LIMIT, timeoutMs: QUERY_TIMEOUT_MS });
    const rows = result.rows.slice(0, MODEL_ROW_LIMIT);
    const truncated = result.truncated || result.rows.length > rows.length;
    const table = toMarkdownTable(result.columns, rows);
    return {
      step: { name: SQL_TOOL_NAME, type: "response", params: { ...params, result: { table, rows: rows.length, truncated } } },
      forModel: JSON.stringify({ columns: result.columns, rows, row_count: rows.length, truncated }),
    };
  } catch (err) {
    // The model reads why (in English, like the other tools); the stream goes on.
    const message = isAppError(err) ? mapError(err, "en").envelope.description : String((err as Error)?.message ?? err).slice(0, 300);
    return { step: { name: SQL_TOOL_NAME, type: "response", params: { ...params, error: message } }, forModel: `The query failed: ${message}` };
  }
}
