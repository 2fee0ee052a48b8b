// The first page, totals and app filter options of a statement book, for its page's loader.
import { getStatementTotals, listStatement, listStatementApps } from "../../../../server/money/statements/statements.service";
import type { TBook } from "../../../../server/money/statements/statements.schema";

export async function loadStatement(accountId: string, book: TBook) {
  const [initial, totals, apps] = await Promise.all([
    listStatement(accountId, book, {}),
    getStatementTotals(accountId, book),
    listStatementApps(accountId, book),
  ]);
  return { initial, totals, apps };
}
