// The REST side of training sets from the browser: files go up as multipart forms.
import { postFormData } from "../../lib/post-form-data";
import type { TQaImportReport, TTrainingDocumentView } from "../../../server/knowledge/training-sets.schema";

const base = (setId: string) => `/api/v1/training/sets/${encodeURIComponent(setId)}`;

export function importQaFile(setId: string, file: File, fallbackError: string) {
  const form = new FormData();
  form.append("file", file, file.name);
  return postFormData<TQaImportReport>(`${base(setId)}/qa/import`, form, { fallbackError });
}

export function uploadDocumentFiles(setId: string, files: File[], fallbackError: string) {
  const form = new FormData();
  files.forEach((f, i) => form.append(`file${i}`, f, f.name));
  return postFormData<TTrainingDocumentView[]>(`${base(setId)}/documents`, form, { fallbackError });
}

export const exportQaUrl = (setId: string, format: "xlsx" | "csv") => `${base(setId)}/qa/export?format=${format}`;
