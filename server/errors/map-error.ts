// One mapping from what a service threw to what a client sees: the {status, description, data}
// envelope for REST, the same shape inside tRPC errors, and the message on page error boundaries.
import { ZodError } from "zod";
import { logger } from "../lib/logger";
import { getT } from "../i18n/translate";
import { AppError, isAppError } from "./app-error";
import { ERROR_CODES, type TErrorCode } from "./codes";

export type TEnvelope<T = unknown> = { status: number; description: string; data: T };

export type TMappedError = { httpStatus: number; code: TErrorCode; envelope: TEnvelope };

/**
 * A schema's refusal, also when a layer copied it into an error of its own: a ZodError is not an
 * Error subclass, so tRPC keeps only its enumerable fields, its name and its message (the issues as
 * JSON).
 */
export function asZodError(err: unknown): ZodError | null {
  if (err instanceof ZodError) return err;
  const e = err as { name?: unknown; issues?: unknown; message?: unknown } | null;
  if (!e || e.name !== "ZodError") return null;
  if (Array.isArray(e.issues)) return new ZodError(e.issues as ZodError["issues"]);
  try {
    const issues = JSON.parse(String(e.message));
    return Array.isArray(issues) ? new ZodError(issues) : null;
  } catch {
    return null;
  }
}

export function mapError(err: unknown, lng?: string): TMappedError {
  const t = getT(lng, "errors");
  const zodError = asZodError(err);
  if (zodError) {
    const fields = zodError.issues.map((i) => ({ path: i.path.join("."), message: t(i.message, { defaultValue: i.message, ...i }) }));
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
  const params = translateParams(appError?.params ?? {}, lng);
  // A field refusal reads as its first field's message, as a schema's does: "fill in “city”", not "something is wrong".
  const field = code === "validation_failed" ? firstFieldMessage(appError?.data) : null;
  return {
    httpStatus: ERROR_CODES[code].http,
    code,
    envelope: {
      status: ERROR_CODES[code].status,
      description: field ? t(field, { ...params, defaultValue: t(code, params) }) : t(code, params),
      data: appError?.data ?? null,
    },
  };
}

function firstFieldMessage(data: unknown): string | null {
  const fields = (data as { fields?: unknown } | null)?.fields;
  const first = Array.isArray(fields) ? (fields[0] as { message?: unknown } | undefined) : undefined;
  return typeof first?.message === "string" && first.message ? first.message : null;
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
