// A loader that loads one thing by an id from the address: a missing id, another account's, or a
// malformed one all answer as "not found", so a page never tells which ids exist elsewhere. The
// AppError("not_found") it throws becomes the 404 page through the one mapping of page refusals
// (server/http/page-errors.ts), exactly as a missing id does.
import { AppError, isAppError } from "../../server/errors/app-error";
import { asZodError } from "../../server/errors/map-error";
import type { TErrorCode } from "../../server/errors/codes";

/** What a lookup by id may answer that must not be told apart from "there is no such thing". */
const HIDDEN: readonly TErrorCode[] = ["not_found", "no_permission", "validation_failed"];

export async function orNotFound<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if ((isAppError(err) && HIDDEN.includes(err.code)) || asZodError(err)) throw new AppError("not_found", { cause: err });
    throw err;
  }
}
