// Database training sets (at most 30k characters of statements per database): a TrainingSet of type
// database and its DatabaseSource, written together. Saving verifies first (the statements are
// CREATE TABLE statements, the server answers, the tables exist) and writes nothing when that
// fails; verifying a saved set records done or failed. The password is sealed at rest and never
// leaves the server.
import { withTransaction } from "../../db/transaction";
import { AppError, isAppError } from "../../errors/app-error";
import { assertOwned } from "../../accounts/access";
import type { TSessionAccount } from "../../accounts/accounts.schema";
import { assertWithinLimit } from "../../accounts/entitlements.service";
import { openSecret, sealSecret } from "../../lib/secret-box";
import * as repo from "./database-sets.repository";
import {
  countChars,
  QUERY_ROW_LIMIT,
  QUERY_TIMEOUT_MS,
  type TCreateDatabaseSetInput,
  type TDatabaseSetIdInput,
  type TRunQueryInput,
  type TUpdateDatabaseSetInput,
  type TVerifyDatabaseInput,
  type TDatabaseSetView,
  type TQueryResult,
  type TVerifyFailure,
  type TVerifyResult,
} from "./database-sets.schema";
import { describeDriverError, inspectDatabase, runReadOnlyQuery, type TConnectionInfo } from "./mysql-runner";
import { assertCustomerDatabase, assertReadOnlySelect, parseCreateTables, verificationFailed } from "./sql-guard";
// The limit counts every type of set, under the lock the other set types take too.
import * as sets from "../training-sets.repository";

type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;

const PASSWORD_MASK = "••••••";
/** States verification may move between; a set its owner stopped or disabled keeps that state. */
const VERIFIABLE_STATES: readonly string[] = ["training", "done", "failed"];

function parseFailure(raw: string | null | undefined): TVerifyFailure | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as TVerifyFailure;
  } catch {
    return { reason: "server_error", params: { message: raw } };
  }
}

function tablesOf(ddl: string) {
  try {
    return parseCreateTables(ddl);
  } catch {
    return [];
  }
}

export function toView(row: repo.TDatabaseSetRow): TDatabaseSetView {
  const src = row.database!;
  return {
    id: row.id,
    name: row.name,
    introduction: row.introduction,
    state: row.state,
    failure_reason: row.failureReason,
    char_count: row.charCount,
    host: src.host,
    port: src.port,
    username: src.username,
    password_hint: src.passwordEncrypted ? PASSWORD_MASK : "",
    database: src.database,
    ddl: src.ddl,
    tables: tablesOf(src.ddl),
    verified_at: src.verifiedAt?.toISOString() ?? null,
    verify_error: parseFailure(src.verifyError),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function loadOwned(actor: TActor, id: string) {
  const row = await repo.findDatabaseSetById(id);
  return assertOwned(row && row.database ? { ...row, accountId: row.ownerAccountId } : null, actor, { enterpriseWide: true });
}

function connectionOf(row: repo.TDatabaseSetRow): TConnectionInfo {
  const src = row.database!;
  return { host: src.host, port: src.port, username: src.username, password: openSecret(src.passwordEncrypted), database: src.database };
}

/**
 * Checks the statements, then the server: throws database_verification_failed with the reason,
 * or answers the tables and the server's version.
 */
export async function verifyDatabase(info: TConnectionInfo, ddl: string): Promise<{ tables: string[]; serverVersion: string }> {
  assertCustomerDatabase(info.database);
  const tables = parseCreateTables(ddl);
  let inspected: Awaited<ReturnType<typeof inspectDatabase>>;
  try {
    inspected = await inspectDatabase(info, tables);
  } catch (err) {
    const { reason, params } = describeDriverError(err, info);
    throw verificationFailed(reason, params, err);
  }
  if (inspected.missing.length) throw verificationFailed("missing_tables", { tables: inspected.missing.join(", ") });
  return { tables, serverVersion: inspected.serverVersion };
}

/** A verification refusal as data (the "verify" buttons show it rather than fail). */
async function verifyToResult(info: TConnectionInfo, ddl: string): Promise<TVerifyResult> {
  const char_count = countChars(ddl);
  try {
    const { tables, serverVersion } = await verifyDatabase(info, ddl);
    return { ok: true, tables, char_count, server_version: serverVersion };
  } catch (err) {
    if (!isAppError(err) || err.code !== "database_verification_failed") throw err;
    return { ok: false, char_count, failure: err.data as TVerifyFailure };
  }
}

export async function listDatabaseSets(actor: TActor): Promise<TDatabaseSetView[]> {
  return (await repo.listDatabaseSetsOf(actor.id)).map(toView);
}

export async function getDatabaseSet(actor: TActor, { id }: TDatabaseSetIdInput): Promise<TDatabaseSetView> {
  return toView(await loadOwned(actor, id));
}

export async function createDatabaseSet(actor: TActor, input: TCreateDatabaseSetInput, now = new Date()): Promise<TDatabaseSetView> {
  // The cheap refusals first: the edition's room, then the statements, then the server.
  await assertWithinLimit(actor.id, "trainingSets", await sets.countSetsOf(actor.id), now);
  const info: TConnectionInfo = { host: input.host, port: input.port, username: input.username, password: input.password, database: input.database };
  await verifyDatabase(info, input.ddl);
  const row = await withTransaction(async (tx) => {
    await sets.lockAccountSets(actor.id, tx);
    await assertWithinLimit(actor.id, "trainingSets", await sets.countSetsOf(actor.id, tx), now, tx);
    return repo.insertDatabaseSet(
      {
        ownerAccountId: actor.id,
        enterpriseId: actor.enterpriseId,
        name: input.name,
        introduction: input.introduction,
        charCount: countChars(input.ddl),
        state: "done",
        failureReason: null,
        source: {
          host: input.host,
          port: input.port,
          username: input.username,
          passwordEncrypted: sealSecret(input.password),
          database: input.database,
          ddl: input.ddl,
          verifiedAt: now,
          verifyError: null,
        },
      },
      tx,
    );
  });
  return toView(row);
}

/** Saves the form; an empty password keeps the stored one. Verified before anything is written. */
export async function updateDatabaseSet(actor: TActor, input: TUpdateDatabaseSetInput, now = new Date()): Promise<TDatabaseSetView> {
  const existing = await loadOwned(actor, input.id);
  const password = input.password || openSecret(existing.database!.passwordEncrypted);
  const info: TConnectionInfo = { host: input.host, port: input.port, username: input.username, password, database: input.database };
  await verifyDatabase(info, input.ddl);
  const state = VERIFIABLE_STATES.includes(existing.state) ? "done" : existing.state;
  const row = await repo.updateDatabaseSet(input.id, {
    name: input.name,
    introduction: input.introduction,
    charCount: countChars(input.ddl),
    state,
    failureReason: null,
    source: {
      host: input.host,
      port: input.port,
      username: input.username,
      passwordEncrypted: input.password ? sealSecret(input.password) : existing.database!.passwordEncrypted,
      database: input.database,
      ddl: input.ddl,
      verifiedAt: now,
      verifyError: null,
    },
  });
  return toView(row);
}

export async function deleteDatabaseSet(actor: TActor, { id }: TDatabaseSetIdInput, now = new Date()) {
  await loadOwned(actor, id);
  await repo.softDeleteDatabaseSet(id, now);
  return { id };
}

/** The form's "verify": an unsaved connection (with a saved set's password when left empty); writes nothing. */
export async function verifyDatabaseInput(actor: TActor, input: TVerifyDatabaseInput): Promise<TVerifyResult> {
  let password = input.password;
  if (!password && input.id) password = openSecret((await loadOwned(actor, input.id)).database!.passwordEncrypted);
  return verifyToResult({ host: input.host, port: input.port, username: input.username, password, database: input.database }, input.ddl);
}

/** "Verify again" on a saved set: the outcome is recorded (done, or failed with the reason). */
export async function reverifyDatabaseSet(
  actor: TActor,
  { id }: TDatabaseSetIdInput,
  now = new Date(),
): Promise<{ result: TVerifyResult; set: TDatabaseSetView }> {
  const row = await loadOwned(actor, id);
  const result = await verifyToResult(connectionOf(row), row.database!.ddl);
  const keep = !VERIFIABLE_STATES.includes(row.state);
  const updated = await repo.recordVerification(
    id,
    result.ok
      ? { state: keep ? row.state : "done", failureReason: null, verifiedAt: now, verifyError: null }
      : {
          state: keep ? row.state : "failed",
          failureReason: `database:verify_errors.${result.failure.reason}`,
          verifiedAt: row.database!.verifiedAt,
          verifyError: JSON.stringify(result.failure),
        },
  );
  return { result, set: toView(updated) };
}

/** A verified set's connection and the tables its queries may read. */
export function sourceOf(row: repo.TDatabaseSetRow) {
  return { ...connectionOf(row), tables: tablesOf(row.database!.ddl) };
}

export function assertQueryable(row: repo.TDatabaseSetRow) {
  if (row.state !== "done")
    throw new AppError("sql_failed", { params: { reason: "$t:database:sql_failures.not_verified" }, data: { reason: "not_verified", params: {} } });
}

/**
 * The owner's "try a query" (POST /api/v1/training/database/mysql/req/result): the refusals that
 * need no server (input, not found, not verified, the SQL itself) now, the query when `run` is called.
 */
export async function openDatabaseQuery(actor: TActor, { trainingSetId, sql }: TRunQueryInput): Promise<{ sql: string; run: () => Promise<TQueryResult> }> {
  const row = await loadOwned(actor, trainingSetId);
  assertQueryable(row);
  const source = sourceOf(row);
  assertReadOnlySelect(sql, { tables: source.tables, database: source.database });
  return { sql, run: () => runReadOnlyQuery(source, sql, { rowLimit: QUERY_ROW_LIMIT, timeoutMs: QUERY_TIMEOUT_MS }) };
}

export type TAgentDatabaseSet = { id: string; name: string; introduction: string; database: string; ddl: string; source: ReturnType<typeof sourceOf> };

/**
 * For a chat turn: the types of the listed sets that belong to the agent's owner, and those that
 * are verified database sets with their connection (the password opened only here).
 */
export async function findAgentDatabaseSets(
  agentId: string,
  ids: string[],
): Promise<{ types: Array<{ id: string; type: string }>; sets: TAgentDatabaseSet[] }> {
  const rows = await repo.findSetsForAgent(agentId, ids);
  const sets = rows
    .filter((r) => r.type === "database" && r.database && r.state === "done")
    .map((r) => ({ id: r.id, name: r.name, introduction: r.introduction, database: r.database!.database, ddl: r.database!.ddl, source: sourceOf(r) }));
  return { types: rows.map((r) => ({ id: r.id, type: r.type })), sets };
}
