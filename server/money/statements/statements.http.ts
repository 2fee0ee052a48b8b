// REST of statements: a page of lines and the totals in the {status, description, data} envelope,
// and the xlsx download of the filtered lines, streamed (GET .../export). Each reads only the
// signed-in account's own wallets.
import express from "express";
import { getT } from "../../i18n/translate";
import { handle, sendError } from "../../http/envelope-response";
import { requireAuth } from "../../http/auth-context";
import { getRequestLanguage } from "../../http/request-context";
import { logger } from "../../lib/logger";
import { assertBook, getStatementTotals, iterateStatement, listStatement } from "./statements.service";
import { ZListStatementInput, ZStatementFilters } from "./statements.schema";
import { streamStatementWorkbook } from "./statements.workbook";

const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export function createStatementsRouter() {
  const router = express.Router();
  router.get(
    "/v1/statements/:book",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { cursor, ...filters } = req.query;
      return listStatement(account.id, req.params.book, ZListStatementInput.parse({ filters, cursor }));
    }),
  );
  router.get(
    "/v1/statements/:book/totals",
    handle(async (req) => getStatementTotals((await requireAuth(req)).account.id, req.params.book)),
  );
  router.get("/v1/statements/:book/export", async (req, res) => {
    let started = false;
    try {
      const { account } = await requireAuth(req);
      const book = assertBook(req.params.book);
      const filters = ZStatementFilters.parse(req.query);
      const t = getT(getRequestLanguage(req), "statements");
      const day = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10).replaceAll("-", "");
      const filename = `${t(`export.file_${book}`)}-${day}.xlsx`;
      const ascii = `${book}-${day}.xlsx`;
      res.setHeader("Content-Type", XLSX_MIME);
      res.setHeader("Content-Disposition", `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`);
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("X-Content-Type-Options", "nosniff");
      started = true;
      await streamStatementWorkbook(res, iterateStatement(account.id, book, filters), t, t(`export.sheet_${book}`));
    } catch (err) {
      if (!started) return sendError(req, res, err);
      // Headers are gone: the only honest answer left is a broken download.
      logger.warn({ err }, "a statement export failed while streaming");
      res.destroy(err instanceof Error ? err : undefined);
    }
  });
  return router;
}
