// Documents read in chat: one txt/docx/pdf of up to 10 MB, its text kept 3 hours.
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertOwned } from "../accounts/access";
import { findSensitiveWords } from "../content/content.service";
import { AppError } from "../errors/app-error";
import type { TMultipartBody } from "../uploads/multipart";
import { checkDeclaredType } from "../uploads/uploads.service";
import { DOCUMENT_TTL_MS, type TDocumentView } from "./chat.schema";
import { DOCUMENT_MIME, detectDocumentKind, extractDocumentText } from "./document-text";
import * as repo from "./dialogues.repository";

type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;

export async function uploadDocument(actor: TActor, body: TMultipartBody): Promise<TDocumentView> {
  const file = body.files.file;
  if (!file || file.bytes.length === 0) throw new AppError("file_empty_or_prohibited");
  // What it is and what the form says it is are settled before any reading starts.
  const contentKind = detectDocumentKind(file.bytes);
  if (!contentKind) throw new AppError("document_type_not_readable");
  checkDeclaredType(file.bytes, contentKind);
  const { kind, text } = await extractDocumentText(file.bytes);
  // A document is part of the input: the sensitive-word list applies to it as to a message.
  if ((await findSensitiveWords(text)).length) throw new AppError("file_empty_or_prohibited");
  const name = (file.filename || `document.${kind}`).replace(/[\\/]/g, "_").slice(0, 200);
  const doc = await repo.insertDocument({
    accountId: actor.id,
    name,
    mime: DOCUMENT_MIME[kind],
    size: file.bytes.length,
    text,
    chars: text.length,
    expiresAt: new Date(Date.now() + DOCUMENT_TTL_MS),
  });
  return { id: doc.id, name: doc.name, chars: doc.chars, expires_at: doc.expiresAt.toISOString() };
}

export type TReadableDocument = NonNullable<Awaited<ReturnType<typeof repo.findDocumentById>>>;

/** The caller's document with its text, or document_expired once its 3 hours are over. */
export async function loadReadableDocument(actor: TActor, id: string): Promise<TReadableDocument> {
  const doc = assertOwned(await repo.findDocumentById(id), actor);
  if (doc.expiresAt.getTime() <= Date.now()) throw new AppError("document_expired");
  return doc;
}
