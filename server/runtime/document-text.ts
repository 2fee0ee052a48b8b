// Text out of an uploaded document (document reading, SPEC 5): what the file is comes from its
// bytes (DESIGN 9), never its name. PDF through unpdf (pdf.js), DOCX through mammoth, plain text as
// UTF-8 or GB18030. A file that is none of these is refused; one with no text is "empty".
import mammoth from "mammoth";
import { extractText, getDocumentProxy } from "unpdf";
import { AppError } from "../errors/app-error";
import { sniffType } from "../uploads/sniff";

export type TDocumentKind = "pdf" | "docx" | "txt";
export const DOCUMENT_MIME: Record<TDocumentKind, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  txt: "text/plain",
};
/** The most text a document keeps: far more than any prompt takes, bounded for the database. */
export const MAX_DOCUMENT_CHARS = 500_000;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export function detectDocumentKind(bytes: Buffer): TDocumentKind | null {
  if (sniffType(bytes) === "pdf") return "pdf";
  if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) return bytes.includes("word/") ? "docx" : null;
  return decodePlainText(bytes) === null ? null : "txt";
}

/** Text if the bytes are readable text (no NULs, few control characters), else null. */
function decodePlainText(bytes: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    try {
      text = new TextDecoder("gb18030", { fatal: true }).decode(bytes);
    } catch {
      return null;
    }
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return null;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) control++;
  }
  return control > text.length / 100 ? null : text.replace(/^\uFEFF/, "");
}

export async function extractDocumentText(bytes: Buffer): Promise<{ kind: TDocumentKind; text: string }> {
  const kind = detectDocumentKind(bytes);
  if (!kind) throw new AppError("document_type_not_readable");
  let text = "";
  try {
    if (kind === "txt") text = decodePlainText(bytes) ?? "";
    else if (kind === "docx") text = (await mammoth.extractRawText({ buffer: bytes })).value;
    else {
      const pdf = await getDocumentProxy(new Uint8Array(bytes));
      text = (await extractText(pdf, { mergePages: true })).text as string;
      await pdf.destroy?.();
    }
  } catch (err) {
    throw new AppError("document_type_not_readable", { cause: err });
  }
  text = text.replace(/\r\n?/g, "\n").replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
  if (!text) throw new AppError("file_empty_or_prohibited");
  return { kind, text: text.slice(0, MAX_DOCUMENT_CHARS) };
}
