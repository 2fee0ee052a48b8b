// Reads one document's text in a worker thread (document-text.ts starts it, caps its heap and
// terminates it at its time limit). The archive or PDF is inspected first, with its caps on what
// it may unpack, and only then given to mammoth (docx, through JSZip) or unpdf (pdf.js).
import { parentPort, workerData } from "node:worker_threads";
import mammoth from "mammoth";
import { extractText, getDocumentProxy } from "unpdf";
import { isAppError } from "../errors/app-error";
import { inspectArchive } from "../uploads/archive-guard";
import { inspectPdf } from "../uploads/pdf-guard";

export type TReadJob = { kind: "docx" | "pdf"; bytes: Uint8Array };
export type TReadAnswer = { text: string } | { code: string; params?: Record<string, string | number> };

async function readText({ kind, bytes: view }: TReadJob): Promise<string> {
  const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  if (kind === "docx") {
    await inspectArchive(bytes);
    return (await mammoth.extractRawText({ buffer: bytes })).value;
  }
  await inspectPdf(bytes);
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    return (await extractText(pdf, { mergePages: true })).text as string;
  } finally {
    await pdf.destroy?.();
  }
}

function answer(message: TReadAnswer) {
  parentPort!.postMessage(message);
}

readText(workerData as TReadJob).then(
  (text) => answer({ text }),
  (err) => answer(isAppError(err) ? { code: err.code, params: err.params } : { code: "document_type_not_readable" }),
);
