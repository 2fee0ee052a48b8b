import { ERROR_CODES, type TErrorCode } from "./codes";

/** The only error services throw. Transport layers map it once (server/errors/map-error.ts). */
export class AppError extends Error {
  readonly code: TErrorCode;
  /** Interpolation values for the message, e.g. {{retryAfter}}. */
  readonly params: Record<string, string | number>;
  /** Extra data the client needs, e.g. the url of a 494105 redirect or field errors. */
  readonly data: unknown;

  constructor(code: TErrorCode, opts: { params?: Record<string, string | number>; data?: unknown; cause?: unknown; message?: string } = {}) {
    super(opts.message ?? code, { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.params = opts.params ?? {};
    this.data = opts.data ?? null;
  }

  get status() {
    return ERROR_CODES[this.code].status;
  }

  get httpStatus() {
    return ERROR_CODES[this.code].http;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError || (err instanceof Error && err.name === "AppError" && "code" in err);
}
