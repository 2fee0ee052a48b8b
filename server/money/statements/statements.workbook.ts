// A statement as xlsx, streamed as it is read: one sheet, a header row in the reader's language, a
// row per line. Amounts are numbers in Z (exact to the micro, shown with 2 or 3 decimals); text
// cells are strings, never formulas.
import type { Writable } from "node:stream";
import ExcelJS from "exceljs";
import type { TFunction } from "i18next";
import { formatChinaTime } from "../../lib/china-time";
import { MICRO } from "../money.constants";
import { describeLine } from "./statements.format";
import type { TStatementLine } from "./statements.schema";

export const STATEMENT_COLUMNS = ["time", "type", "detail", "app", "amount"] as const;

export async function streamStatementWorkbook(out: Writable, pages: AsyncIterable<TStatementLine[]>, t: TFunction, sheetName: string): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  const widths = { time: 20, type: 16, detail: 48, app: 24, amount: 14 };
  sheet.columns = STATEMENT_COLUMNS.map((key) => ({ header: t(`export.columns.${key}`), key, width: widths[key] }));
  sheet.getRow(1).font = { bold: true };
  sheet.getColumn("amount").numFmt = "#,##0.00#;-#,##0.00#";
  let count = 0;
  for await (const page of pages) {
    for (const line of page) {
      sheet
        .addRow({
          time: formatChinaTime(new Date(line.at)),
          type: t(`types.${line.type}`),
          detail: describeLine(line, t),
          app: line.app_name ?? "",
          amount: line.amount_micro / MICRO,
        })
        .commit();
      count++;
    }
  }
  sheet.commit();
  await workbook.commit();
  return count;
}
