// Q&A items in and out of spreadsheets (xlsx and csv) with exceljs (its csv is fast-csv). Reading
// gives the file's rows as text with their row numbers; what to accept is the service's call.
// The format comes from the bytes (a ZIP holding xl/workbook.xml, or readable text), never the name.
import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { AppError } from "../errors/app-error";
import { decodeText } from "../uploads/sniff";

export type TQaFileRow = { row: number; question: string; answer: string };
export type TQaFileFormat = "xlsx" | "csv";

/** Header names recognised in any of our languages; a first row made of them is not data. */
const HEADERS = {
  question: ["question", "questions", "q", "问题", "問題", "pergunta", "perguntas"],
  answer: ["answer", "answers", "a", "答案", "回答", "resposta", "respostas"],
};

export const QA_MIME: Record<TQaFileFormat, string> = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv; charset=utf-8",
};

export function detectQaFileFormat(bytes: Buffer): TQaFileFormat | null {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x504b0304) return bytes.includes("xl/workbook") ? "xlsx" : null;
  return decodeText(bytes) === null ? null : "csv";
}

// A csv opened in a spreadsheet runs cells starting with = + - @ as formulas (CSV injection): such
// cells are written with a leading apostrophe, and one apostrophe is taken off when read back, so
// the round trip keeps the text exactly ("'=x" is written "''=x").
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
const escapeCsvCell = (text: string) => (FORMULA_LIKE.test(text) ? `'${text}` : text);
const unescapeCsvCell = (text: string) => (/^'+[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

/** The delimiter of a csv: the most frequent of , ; and tab in its first line, outside quotes. */
function guessDelimiter(text: string) {
  const counts: Record<string, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  const [best, n] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
  return n > 0 ? best : ",";
}

function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  return cell.text ?? String(v);
}

const isHeader = (cells: string[], names: string[]) => cells.findIndex((c) => names.includes(c.trim().toLowerCase()));

/** The rows of the first sheet; fully blank rows are left out. Throws qa_import_unreadable. */
export async function readQaFile(bytes: Buffer): Promise<{ format: TQaFileFormat; rows: TQaFileRow[] }> {
  const format = detectQaFileFormat(bytes);
  if (!format) throw new AppError("qa_import_unreadable");
  const workbook = new ExcelJS.Workbook();
  let sheet: ExcelJS.Worksheet | undefined;
  try {
    if (format === "xlsx") {
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      sheet = workbook.worksheets[0];
    } else {
      const text = decodeText(bytes)!;
      sheet = await workbook.csv.read(Readable.from([text]), { map: (v: unknown) => v, parserOptions: { delimiter: guessDelimiter(text) } } as never);
    }
  } catch (err) {
    throw new AppError("qa_import_unreadable", { cause: err });
  }
  if (!sheet) throw new AppError("qa_import_unreadable");

  const raw: { row: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let c = 1; c <= Math.max(2, row.cellCount); c++) cells.push(cellText(row.getCell(c)));
    raw.push({ row: rowNumber, cells: format === "csv" ? cells.map(unescapeCsvCell) : cells });
  });

  // A header row names the columns; without one, the first two columns are question and answer.
  let qCol = 0;
  let aCol = 1;
  const first = raw[0];
  if (first) {
    const q = isHeader(first.cells, HEADERS.question);
    const a = isHeader(first.cells, HEADERS.answer);
    if (q >= 0 && a >= 0 && q !== a) {
      qCol = q;
      aCol = a;
      raw.shift();
    }
  }
  const rows = raw.map((r) => ({ row: r.row, question: r.cells[qCol] ?? "", answer: r.cells[aCol] ?? "" })).filter((r) => r.question.trim() || r.answer.trim());
  return { format, rows };
}

/** A file with a header row in the reader's language and one row per item. */
export async function writeQaFile(
  items: { question: string; answer: string }[],
  format: TQaFileFormat,
  headers: { question: string; answer: string },
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("QA");
  if (format === "xlsx") {
    sheet.columns = [
      { header: headers.question, key: "question", width: 40 },
      { header: headers.answer, key: "answer", width: 80 },
    ];
    sheet.getRow(1).font = { bold: true };
    for (const item of items) sheet.addRow({ question: item.question, answer: item.answer });
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }
  sheet.addRow([headers.question, headers.answer]);
  for (const item of items) sheet.addRow([escapeCsvCell(item.question), escapeCsvCell(item.answer)]);
  // A byte-order mark, so spreadsheet programs read Chinese text as UTF-8.
  return Buffer.from(await workbook.csv.writeBuffer({ formatterOptions: { writeBOM: true } } as never));
}
