// Text out of an uploaded document (chat documents, training documents): what the file is comes
// from its bytes, never its name. Plain text is read here, as UTF-8 or GB18030. DOCX and PDF are
// read in a worker thread of their own (document-text.worker.ts): mammoth and pdf.js do heavy,
// unbounded work on untrusted input, and a thread with a capped heap that is terminated at a time
// limit keeps that from stalling or exhausting the process that asked, the web process for a chat
// document and the job worker for training. A job in the job worker would bound it as well, but the
// chat's upload answers with the document's text at once, and a thread is the simplest way to keep
// that answer while taking the work off the event loop. A file that is none of these is refused;
// one with no text is "empty".
import { Worker } from "node:worker_threads";
import { AppError } from "../errors/app-error";
import { isErrorCode } from "../errors/codes";
import { decodeText, sniffType } from "../uploads/sniff";
import type { TReadAnswer, TReadJob } from "./document-text.worker";

export type TDocumentKind = "pdf" | "docx" | "txt";
export const DOCUMENT_MIME: Record<TDocumentKind, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  txt: "text/plain",
};
/** The most text a document keeps: far more than any prompt takes, bounded for the database. */
export const MAX_DOCUMENT_CHARS = 500_000;
/** One document's reading: its time, and the heap of its thread (the caps on unpacking come first). */
export const READ_LIMITS = { timeMs: 30_000, heapMb: 512 };

const WORKER_URL = new URL("./document-text.worker-entry.mjs", import.meta.url);

/** What the upload service's sniffing says the bytes are, if a readable document. */
export function detectDocumentKind(bytes: Buffer): TDocumentKind | null {
  const kind = sniffType(bytes);
  return kind === "pdf" || kind === "docx" || kind === "txt" ? kind : null;
}

function refusal(answer: Exclude<TReadAnswer, { text: string }>) {
  return isErrorCode(answer.code) ? new AppError(answer.code, { params: answer.params }) : new AppError("document_type_not_readable");
}

/** The raw text of a docx or pdf, read in a thread that is stopped at READ_LIMITS. */
function readInThread(kind: TReadJob["kind"], bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const copy = new Uint8Array(bytes); // the thread's own copy, handed over rather than cloned
    const worker = new Worker(WORKER_URL, {
      workerData: { kind, bytes: copy } satisfies TReadJob,
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: READ_LIMITS.heapMb, maxYoungGenerationSizeMb: 64 },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new AppError("document_too_complex"))), READ_LIMITS.timeMs);
    worker.once("message", (answer: TReadAnswer) => settle(() => ("text" in answer ? resolve(answer.text) : reject(refusal(answer)))));
    worker.once("error", (err: Error & { code?: string }) =>
      settle(() => reject(new AppError(err.code === "ERR_WORKER_OUT_OF_MEMORY" ? "document_too_complex" : "document_type_not_readable", { cause: err }))),
    );
    worker.once("exit", () => settle(() => reject(new AppError("document_type_not_readable"))));
  });
}

export async function extractDocumentText(bytes: Buffer): Promise<{ kind: TDocumentKind; text: string }> {
  const kind = detectDocumentKind(bytes);
  if (!kind) throw new AppError("document_type_not_readable");
  const raw = kind === "txt" ? (decodeText(bytes) ?? "") : await readInThread(kind, bytes);
  const text = raw
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (!text) throw new AppError("file_empty_or_prohibited");
  return { kind, text: text.slice(0, MAX_DOCUMENT_CHARS) };
}
