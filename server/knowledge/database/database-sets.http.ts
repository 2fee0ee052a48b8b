// POST /api/v1/training/database/mysql/req/result: the owner's query against a database
// training set, as the chat shows it: a `function` event (sql_generate_and_data_query with the SQL),
// `message` events with the rows as a table, then `close` with the row count. Refusals are one
// `error` event with the envelope (HTTP 200), like the chat streams.
import express, { type Request, type Response } from "express";
import { mapError } from "../../errors/map-error";
import { requireAuth } from "../../http/auth-context";
import { getRequestLanguage } from "../../http/request-context";
import { getT } from "../../i18n/translate";
import { startSse } from "../../turns/sinks/sse-sink";
import { ZRunQueryInput } from "./database-sets.schema";
import { openDatabaseQuery } from "./database-sets.service";
import { toMarkdownTable } from "./result-table";

export const SQL_FUNCTION_NAME = "sql_generate_and_data_query";

async function streamQuery(req: Request, res: Response) {
  const sse = startSse(res);
  const lng = getRequestLanguage(req);
  try {
    const { account } = await requireAuth(req);
    const query = await openDatabaseQuery(account, ZRunQueryInput.parse(req.body ?? {}));
    sse.fn({ name: SQL_FUNCTION_NAME, type: "response", params: { sql: query.sql } });
    const result = await query.run();
    if (sse.closed) return;
    const t = getT(lng, "database");
    const table = result.rows.length ? toMarkdownTable(result.columns, result.rows) : t("no_rows");
    sse.message({ content: table });
    if (result.truncated) sse.message({ content: `\n\n${t("truncated", { limit: result.row_limit })}` });
    sse.close({ retrieve: [], audio: null, rows: result.rows.length, truncated: result.truncated, columns: result.columns, elapsed_ms: result.elapsed_ms });
  } catch (err) {
    sse.error(mapError(err, lng).envelope);
  }
}

export function createDatabaseSetsRouter() {
  const router = express.Router();
  router.post("/v1/training/database/mysql/req/result", (req, res) => void streamQuery(req, res));
  return router;
}
