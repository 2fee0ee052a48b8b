// A node's content taken from a file: the text of a txt, docx or pdf (read as chat documents are,
// off the event loop) or of a spreadsheet's cells, sheet by sheet. The editor puts it in the node
// as a content (title and text); the draft's own rules then count it against the workshop's total.
import ExcelJS from "exceljs";
import path from "node:path";
import { extractDocumentText } from "../dialogues/document-text";
import { AppError, isAppError } from "../errors/app-error";
import { TEXT_FILE_LIMITS } from "../uploads/upload-limits";
import { acceptTextOrSheetFile } from "../uploads/uploads.service";
import { WORKSHOP_LIMITS, type TNodeContent } from "./workshops.schema";

export async function readNodeContent(file: { bytes: Buffer | undefined; filename: string }): Promise<TNodeContent> {
  let accepted: ReturnType<typeof acceptTextOrSheetFile>;
  try {
    accepted = acceptTextOrSheetFile(file.bytes, TEXT_FILE_LIMITS);
  } catch (err) {
    if (isAppError(err) && err.code === "text_file_type_not_allowed") throw new AppError("workshop_content_type_not_allowed");
    throw err;
  }
  const text = (accepted.kind === "xlsx" ? await readSheetText(accepted.bytes) : (await extractDocumentText(accepted.bytes)).text).trim();
  if (!text) throw new AppError("file_empty_or_prohibited");
  const max = WORKSHOP_LIMITS.contentChars;
  if (text.length > max) throw new AppError("workshop_content_too_long", { params: { count: text.length, max } });
  const title =
    path
      .parse(file.filename || "")
      .name.trim()
      .slice(0, 60) || "Content";
  return { title, text };
}

/** Every sheet's rows as lines of tab-separated cells, each sheet under its name. */
async function readSheetText(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (err) {
    throw new AppError("workshop_content_unreadable", { cause: err });
  }
  const parts: string[] = [];
  for (const sheet of workbook.worksheets) {
    const lines: string[] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells = (row.values as unknown[]).slice(1).map((v) => cellText(v));
      if (cells.some((c) => c)) lines.push(cells.join("\t"));
    });
    if (lines.length) parts.push(`${sheet.name}\n${lines.join("\n")}`);
  }
  return parts.join("\n\n");
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "object") {
    const o = v as { text?: unknown; result?: unknown; richText?: { text: string }[] };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join("");
    if (o.text !== undefined) return String(o.text);
    if (o.result !== undefined) return String(o.result);
    if (v instanceof Date) return v.toISOString().slice(0, 10);
    return "";
  }
  return String(v).replace(/\s+/g, " ").trim();
}
