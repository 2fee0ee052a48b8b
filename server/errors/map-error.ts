// One mapping from what a service threw to what a client sees: the {status, description, data}
// envelope for REST, the same shape inside tRPC errors, and the message on page error boundaries.
import { ZodError } from "zod";
import { logger } from "../lib/logger";
import { getT } from "../i18n/translate";
import { AppError, isAppError } from "./app-error";
import { ERROR_CODES, type TErrorCode } from "./codes";

export type TEnvelope<T = unknown> = { status: number; description: string; data: T };

export type TMappedError = { httpStatus: number; code: TErrorCode; envelope: TEnvelope };

export function mapError(err: unknown, lng?: string): TMappedError {
  const t = getT(lng, "errors");
  if (err instanceof ZodError) {
    const fields = err.issues.map((i) => ({ path: i.path.join("."), message: t(i.message, { defaultValue: i.message, ...i }) }));
    const code = "validation_failed" as const;
    return {
      httpStatus: ERROR_CODES[code].http,
      code,
      envelope: { status: ERROR_CODES[code].status, description: fields[0]?.message ?? t(code), data: { fields } },
    };
  }
  const appError = isAppError(err) ? (err as AppError) : undefined;
  if (!appError) logger.error({ err }, "unexpected error");
  const code: TErrorCode = appError?.code ?? "internal_error";
  return {
    httpStatus: ERROR_CODES[code].http,
    code,
    envelope: { status: ERROR_CODES[code].status, description: t(code, translateParams(appError?.params ?? {}, lng)), data: appError?.data ?? null },
  };
}

/**
 * A parameter written "$t:<ns>:<key>" is itself translated, e.g. an edition's name, with the other
 * parameters as its values (a reason naming a table).
 */
function translateParams(params: Record<string, string | number>, lng?: string) {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => {
      const m = typeof v === "string" ? /^\$t:([a-z_]+):(.+)$/.exec(v) : null;
      return [k, m ? getT(lng, m[1])(m[2], params) : v];
    }),
  );
}

export function okEnvelope<T>(data: T, description = "success"): TEnvelope<T> {
  return { status: 200, description, data };
}
