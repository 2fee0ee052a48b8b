// Database training sets: connection info and table-creation statements, at most 30k characters
// per database. Shared by the pages and the server:
// both refuse the same input with the same message key.
import { z } from "zod";
import { MAX_DATABASE_SET_CHARS } from "../../accounts/editions";
import { countChars, TRAINING_SET_INTRO_MAX, TRAINING_SET_NAME_MAX } from "../training-sets.schema";

export { countChars };

/** The table-creation statements of one database, at most 30k characters (the editions table's limit). */
export const DDL_MAX_CHARS = MAX_DATABASE_SET_CHARS;
/** Rows a query hands back at most (one more is fetched to tell that there were more). */
export const QUERY_ROW_LIMIT = 100;
/** Seconds a query may run on the customer's server. */
export const QUERY_TIMEOUT_MS = 10_000;

const ZHost = z
  .string()
  .trim()
  .min(1, "validation.required")
  .max(255, "validation.too_long")
  .regex(/^[A-Za-z0-9.\-:[\]]+$/, "validation.database_host");

export const ZDatabaseConnection = z.object({
  host: ZHost,
  port: z.coerce.number().int("validation.database_port").min(1, "validation.database_port").max(65535, "validation.database_port").default(3306),
  username: z.string().trim().min(1, "validation.required").max(80, "validation.too_long"),
  /** Empty when editing: the stored password is kept. */
  password: z.string().max(200, "validation.too_long").default(""),
  database: z
    .string()
    .trim()
    .min(1, "validation.required")
    .max(64, "validation.too_long")
    .regex(/^[^\s/\\.]+$/, "validation.database_name"),
});

export const ZDdl = z
  .string()
  .trim()
  .min(1, "validation.required")
  .refine((s) => countChars(s) <= DDL_MAX_CHARS, "validation.ddl_too_long");

export const ZSetName = z.string().trim().min(1, "validation.training_set_name").max(TRAINING_SET_NAME_MAX, "validation.training_set_name");
export const ZSetIntroduction = z.string().trim().max(TRAINING_SET_INTRO_MAX, "validation.too_long").default("");

const ZSetFields = z.object({
  name: ZSetName,
  introduction: ZSetIntroduction,
  ddl: ZDdl,
});

export const ZCreateDatabaseSetInput = ZSetFields.extend(ZDatabaseConnection.shape).refine((v) => v.password.length > 0, {
  message: "validation.required",
  path: ["password"],
});
export type TCreateDatabaseSetInput = z.infer<typeof ZCreateDatabaseSetInput>;

export const ZDatabaseSetId = z.object({ id: z.string().min(1).max(40) });
export type TDatabaseSetIdInput = z.infer<typeof ZDatabaseSetId>;

export const ZUpdateDatabaseSetInput = ZSetFields.extend(ZDatabaseConnection.shape).extend(ZDatabaseSetId.shape);
export type TUpdateDatabaseSetInput = z.infer<typeof ZUpdateDatabaseSetInput>;

/** "Verify" on the form, before saving: an unsaved connection, or a saved set's with its stored password. */
export const ZVerifyDatabaseInput = ZDatabaseConnection.extend({ ddl: ZDdl, id: z.string().min(1).max(40).optional() });
export type TVerifyDatabaseInput = z.infer<typeof ZVerifyDatabaseInput>;

/** The body of POST /api/v1/training/database/mysql/req/result; ctype and ufids tolerated. */
export const ZRunQueryInput = z
  .object({
    training_set_id: z.string().min(1).max(40).optional(),
    id: z.string().min(1).max(40).optional(),
    sql: z.string().trim().min(1, "validation.required").max(20_000, "validation.too_long"),
    ctype: z.coerce.number().optional(),
    ufids: z.unknown().optional(),
  })
  .refine((v) => v.training_set_id || v.id, { message: "validation.required", path: ["training_set_id"] })
  .transform((v) => ({ trainingSetId: (v.training_set_id ?? v.id)!, sql: v.sql }));
/** The query as the service takes it: which set, and the SQL. */
export type TRunQueryInput = z.output<typeof ZRunQueryInput>;

export const DATABASE_SET_STATES = ["training", "done", "failed", "stopped", "disabled"] as const;

/** Why verification failed: a key of database:verify_errors with its values. */
export const ZVerifyFailure = z.object({ reason: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() });

export const ZDatabaseSetView = z.object({
  id: z.string(),
  name: z.string(),
  introduction: z.string(),
  state: z.enum(DATABASE_SET_STATES),
  failure_reason: z.string().nullable(),
  char_count: z.number(),
  host: z.string(),
  port: z.number(),
  username: z.string(),
  /** Never the password: a mask when one is stored. */
  password_hint: z.string(),
  database: z.string(),
  ddl: z.string(),
  tables: z.array(z.string()),
  verified_at: z.string().nullable(),
  /** Why the last verification failed, as a key of database:verify_errors with its values. */
  verify_error: ZVerifyFailure.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const ZVerifyResult = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), tables: z.array(z.string()), char_count: z.number(), server_version: z.string() }),
  z.object({ ok: z.literal(false), char_count: z.number(), failure: ZVerifyFailure }),
]);
export const ZReverifyResult = z.object({ result: ZVerifyResult, set: ZDatabaseSetView });
export const ZDeletedDatabaseSet = z.object({ id: z.string() });

export type TVerifyFailure = z.infer<typeof ZVerifyFailure>;
export type TDatabaseSetView = z.infer<typeof ZDatabaseSetView>;
export type TVerifyResult = z.infer<typeof ZVerifyResult>;

export type TQueryResult = { columns: string[]; rows: unknown[][]; truncated: boolean; row_limit: number; elapsed_ms: number };
