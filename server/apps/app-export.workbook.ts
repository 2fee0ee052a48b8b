// The export's spreadsheet: one sheet, a header row in the owner's language, a row per message.
// Cells are written as strings (never formulas), so text starting with "=" stays text.
import ExcelJS from "exceljs";
import type { TFunction } from "i18next";
import { formatChinaTime } from "../lib/china-time";

export type TExportRow = {
  dialogueId: string;
  title: string;
  source: string;
  user: { kind: "account" | "visitor"; label: string };
  at: Date;
  role: string;
  content: string;
  feedback: string;
};

export const EXPORT_COLUMNS = ["dialogue_id", "title", "source", "user", "time", "role", "content", "feedback"] as const;

export async function writeExportWorkbook(rows: TExportRow[], t: TFunction): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(t("export.sheet"));
  const widths: Record<(typeof EXPORT_COLUMNS)[number], number> = {
    dialogue_id: 28,
    title: 30,
    source: 8,
    user: 18,
    time: 20,
    role: 10,
    content: 80,
    feedback: 10,
  };
  sheet.columns = EXPORT_COLUMNS.map((key) => ({ header: t(`export.columns.${key}`), key, width: widths[key] }));
  sheet.getRow(1).font = { bold: true };
  for (const r of rows) {
    sheet.addRow({
      dialogue_id: r.dialogueId,
      title: r.title,
      source: r.source ? t(`sources.${r.source}`, { defaultValue: r.source }) : "",
      user: r.user.kind === "account" ? r.user.label : t("user.visitor", { id: r.user.label }),
      time: formatChinaTime(r.at),
      role: t(`roles.${r.role}`),
      content: r.content,
      feedback: r.feedback === "none" ? "" : t(`feedback.${r.feedback}`),
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
