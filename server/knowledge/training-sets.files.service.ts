// What moves through files: Q&A import (a row-by-row report) and export as xlsx or csv, and the
// documents of smart sets (txt, docx, pdf by content; stored privately, read by the indexing job).
import { getT } from "../i18n/translate";
import { AppError, isAppError } from "../errors/app-error";
import type { TDbOrTx } from "../db/transaction";
import { assertFileCount, checkDeclaredType, deleteFiles, storeFile, acceptTextFile, type TAcceptedTextFile } from "../uploads/uploads.service";
import { inspectArchive } from "../uploads/archive-guard";
import { sniffType } from "../uploads/sniff";
import { TRAINING_FILE_LIMITS } from "../uploads/upload-limits";
import { requestIndexing } from "./indexing.service";
import { QA_MIME, readQaFile, writeQaFile, type TQaFileRow } from "./qa-transfer";
import * as repo from "./training-sets.repository";
import { assertCharactersFit, changeOwnedSet, loadOwnedSet, toDocumentView, type TActor } from "./training-sets.service";
import {
  countChars,
  DOCUMENTS_PER_UPLOAD,
  QA_ANSWER_MAX,
  QA_IMPORT_MAX_ROWS,
  QA_QUESTION_MAX,
  questionKey,
  type TDocumentRef,
  type TQaExportFormat,
  type TTrainingSetIdInput,
  type TQaImportReport,
  type TQaImportRow,
  type TTrainingDocumentView,
} from "./training-sets.schema";

// --- Q&A import and export -----------------------------------------------------------------

/** Empty and too-long cells, checked row by row before duplicates. */
function checkRow(r: TQaFileRow): TQaImportRow["reason"] | null {
  const q = r.question.trim();
  const a = r.answer.trim();
  if (!q) return "empty_question";
  if (!a) return "empty_answer";
  if (countChars(q) > QA_QUESTION_MAX) return "question_too_long";
  if (countChars(a) > QA_ANSWER_MAX) return "answer_too_long";
  return null;
}

/**
 * A Q&A file is an xlsx workbook or csv text (never markup), as its name and type say. exceljs
 * unpacks an xlsx whole, so its archive is held to the unpacking caps first.
 */
async function checkQaFile(bytes: Buffer) {
  const kind = sniffType(bytes);
  if (kind !== "xlsx" && kind !== "txt") throw new AppError("qa_import_unreadable");
  checkDeclaredType(bytes, kind);
  if (kind === "xlsx") await inspectArchive(bytes);
}

/**
 * Adds the file's acceptable rows to a standard set and reports every row: added, or refused with
 * the reason (empty, too long, a question repeated in the file or already in the set). A file that
 * cannot be read at all, or rows past the account's free characters, write nothing.
 */
export async function importQaItems(actor: TActor, { id }: TTrainingSetIdInput, bytes: Buffer | undefined): Promise<TQaImportReport> {
  await loadOwnedSet(actor, id); // another account's set is not found before its file is read
  if (!bytes?.length) throw new AppError("file_empty_or_prohibited");
  await checkQaFile(bytes);
  const { rows } = await readQaFile(bytes);
  if (!rows.length) throw new AppError("file_empty_or_prohibited");
  if (rows.length > QA_IMPORT_MAX_ROWS)
    throw new AppError("qa_import_too_many_rows", { params: { max: QA_IMPORT_MAX_ROWS }, data: { max: QA_IMPORT_MAX_ROWS, rows: rows.length } });

  const report = await changeOwnedSet(actor, id, { move: "edit", type: "standard", refuseWhenPaused: true }, async (set, tx) => {
    const out: TQaImportRow[] = [];
    const firstRowOf = new Map<string, number>();
    const candidates: { row: TQaFileRow; key: string; out: TQaImportRow }[] = [];
    for (const r of rows) {
      const entry: TQaImportRow = { row: r.row, question: r.question.trim().slice(0, 200), status: "added" };
      out.push(entry);
      const reason = checkRow(r);
      if (reason) {
        Object.assign(entry, { status: "refused", reason });
        continue;
      }
      const key = questionKey(r.question);
      const earlier = firstRowOf.get(key);
      if (earlier !== undefined) {
        Object.assign(entry, { status: "refused", reason: "duplicate_in_file", duplicate_of: earlier });
        continue;
      }
      firstRowOf.set(key, r.row);
      candidates.push({ row: r, key, out: entry });
    }
    const inSet = new Set(
      (
        await repo.findQuestionsByKey(
          id,
          candidates.map((c) => c.key),
          null,
          tx,
        )
      ).map((m) => m.key),
    );
    const accepted = candidates.filter((c) => {
      if (!inSet.has(c.key)) return true;
      Object.assign(c.out, { status: "refused", reason: "duplicate_in_set" });
      return false;
    });
    const adding = accepted.reduce((n, c) => n + countChars(c.row.question.trim()) + countChars(c.row.answer.trim()), 0);
    await assertCharactersFit(set, await repo.countQaChars(id, tx), adding, tx);
    const start = (await repo.maxQaPosition(id, tx)) + 1;
    await repo.insertQaItems(
      id,
      accepted.map((c, i) => ({ question: c.row.question.trim(), answer: c.row.answer.trim(), position: start + i })),
      tx,
    );
    const added = accepted.length;
    return { added, refused: out.length - added, rows: out };
  });
  if (report.added) await requestIndexing(id);
  return report;
}

/** Every item of a standard set, with a header row in the reader's language. */
export async function exportQaItems(actor: TActor, { id }: TTrainingSetIdInput, format: TQaExportFormat, lng?: string) {
  const set = await loadOwnedSet(actor, id);
  if (set.type !== "standard") throw new AppError("training_set_wrong_type", { data: { type: set.type } });
  const items = await repo.listAllQaItems(id);
  const t = getT(lng, "train");
  const bytes = await writeQaFile(items, format, { question: t("qa.question"), answer: t("qa.answer") });
  return { bytes, mime: QA_MIME[format], filename: `${set.name}.${format}` };
}

// --- Documents of smart sets ---------------------------------------------------------------

/**
 * multipart file names arrive as latin1 (busboy's default): read them as the UTF-8 browsers send.
 * Path parts and control characters are dropped; the name is only ever shown.
 */
export function cleanFileName(raw: string, fallback: string) {
  let name = raw;
  if (!/[^\u0000-\u00ff]/.test(raw)) {
    const utf8 = Buffer.from(raw, "latin1").toString("utf8");
    if (!utf8.includes("\uFFFD")) name = utf8;
  }
  name = name
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  return (name || fallback).slice(0, 200);
}

type TUpload = { bytes: Buffer; filename: string };

/** Checks every file first: one refused file refuses the form, naming the file. */
function acceptAll(files: TUpload[]): (TAcceptedTextFile & { name: string })[] {
  return files.map((f, i) => {
    const name = cleanFileName(f.filename, `document-${i + 1}`);
    try {
      return { ...acceptTextFile(f.bytes, TRAINING_FILE_LIMITS), name };
    } catch (err) {
      if (!isAppError(err)) throw err;
      throw new AppError(err.code, { params: err.params, data: { ...((err.data as object | null) ?? {}), name }, cause: err });
    }
  });
}

/** Up to 10 txt/docx/pdf files into a smart set; the job reads and counts them. */
export async function uploadDocuments(actor: TActor, { id }: TTrainingSetIdInput, files: TUpload[]): Promise<TTrainingDocumentView[]> {
  await loadOwnedSet(actor, id);
  if (!files.length) throw new AppError("file_empty_or_prohibited");
  assertFileCount(files.length, DOCUMENTS_PER_UPLOAD);
  const accepted = acceptAll(files);
  // Refusals that need no file are found before anything is stored.
  const precheck = (set: repo.TTrainingSetRow, tx: TDbOrTx) => assertCharactersFit(set, set.charCount, 1, tx);
  await changeOwnedSet(actor, id, { move: "edit", type: "smart", refuseWhenPaused: true }, precheck);

  const keys: string[] = [];
  let docs: repo.TTrainingDocumentRow[];
  try {
    for (const file of accepted) keys.push(await storeFile(`training/${actor.id}`, file));
    docs = await changeOwnedSet(actor, id, { move: "edit", type: "smart", refuseWhenPaused: true }, async (set, tx) => {
      await precheck(set, tx);
      return repo.insertDocuments(
        id,
        accepted.map((f, i) => ({ name: f.name, fileKey: keys[i], mime: f.mime, size: f.size })),
        tx,
      );
    });
  } catch (err) {
    // Nothing was recorded: the files stored so far are waste.
    await deleteFiles(keys);
    throw err;
  }
  await requestIndexing(id);
  return docs.map(toDocumentView);
}

export async function deleteDocument(actor: TActor, { id, documentId }: TDocumentRef) {
  const fileKey = await changeOwnedSet(actor, id, { move: "edit", type: "smart", refuseWhenPaused: false }, async (_set, tx) => {
    const doc = await repo.findDocument(id, documentId, tx);
    if (!doc) throw new AppError("not_found");
    await repo.deleteDocumentById(documentId, tx);
    return doc.fileKey;
  });
  await deleteFiles([fileKey]);
  await requestIndexing(id);
  return { id: documentId };
}
