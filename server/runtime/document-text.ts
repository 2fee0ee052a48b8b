// Text out of an uploaded document (document reading, SPEC 5): what the file is comes from its
// bytes (DESIGN 9), never its name. PDF through unpdf (pdf.js), DOCX through mammoth, plain text as
// UTF-8 or GB18030. A file that is none of these is refused; one with no text is "empty".
import mammoth from "mammoth";
import { extractText, getDocumentProxy } from "unpdf";
import { AppError } from "../errors/app-error";
import { decodeText, sniffType } from "../uploads/sniff";

export type TDocumentKind = "pdf" | "docx" | "txt";
export const DOCUMENT_MIME: Record<TDocumentKind, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  txt: "text/plain",
};
/** The most text a document keeps: far more than any prompt takes, bounded for the database. */
export const MAX_DOCUMENT_CHARS = 500_000;

/** What the upload service's sniffing says the bytes are, if a readable document. */
export function detectDocumentKind(bytes: Buffer): TDocumentKind | null {
  const kind = sniffType(bytes);
  return kind === "pdf" || kind === "docx" || kind === "txt" ? kind : null;
}

export async function extractDocumentText(bytes: Buffer): Promise<{ kind: TDocumentKind; text: string }> {
  const kind = detectDocumentKind(bytes);
  if (!kind) throw new AppError("document_type_not_readable");
  let text = "";
  try {
    if (kind === "txt") text = decodeText(bytes) ?? "";
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
