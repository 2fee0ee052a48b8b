// Opaque page cursors: the last row's sort key and id, so the next page starts right after it.
import { AppError } from "../errors/app-error";

export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** A cursor the client altered answers validation_failed rather than a database error. */
export function decodeCursor<T>(cursor: string | undefined, check: (v: unknown) => v is T): T | undefined {
  if (!cursor) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new AppError("validation_failed");
  }
  if (!check(value)) throw new AppError("validation_failed");
  return value;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/;
export const isKeyCursor = (v: unknown): v is { k: string; id: string } =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as { k: unknown }).k === "string" &&
  TIMESTAMP.test((v as { k: string }).k) &&
  typeof (v as { id: unknown }).id === "string";
export const isScoreCursor = (v: unknown): v is { p: number; id: string } =>
  typeof v === "object" && v !== null && Number.isInteger((v as { p: unknown }).p) && typeof (v as { id: unknown }).id === "string";
export const isOffsetCursor = (v: unknown): v is { o: number } =>
  typeof v === "object" && v !== null && Number.isInteger((v as { o: unknown }).o) && (v as { o: number }).o >= 0 && (v as { o: number }).o <= 10_000;
