// Interactive transactions that PostgreSQL may abort on its own: a deadlock (40P01) or a
// serialization failure (40001) undoes the whole transaction, and nothing of it was written, so
// running it again from the start is safe and answers what the request would have answered had
// it come a moment later. Attempts are few and spaced by a short random pause, so two transactions
// that collided do not collide again in step. Callers keep their work inside the callback free of
// effects outside the database (a retry runs it again).
//
// This module is all of the database a service sees: it opens transactions and hands the
// transaction on to repositories, which alone run queries (the lint config keeps services off the
// client and Prisma's types).
import { getDb, type TTx } from "./client";
import { Prisma } from "./generated/client";

/** A transaction, as a service passes it on to repository methods. */
export type { TDbOrTx, TTx } from "./client";

/** Attempts in all, the first included. */
export const TRANSACTION_ATTEMPTS = 4;
const PAUSE_MS = { min: 5, spread: 20 };
const TRANSIENT_CODES = new Set(["40P01", "40001"]);
/** Prisma's own code for "a write conflict or a deadlock" when the driver's code is not passed on. */
const PRISMA_CONFLICT = "P2034";

type TErrorish = { code?: unknown; meta?: { code?: unknown }; cause?: unknown; message?: unknown };

/**
 * Whether `err` is PostgreSQL aborting a transaction for a deadlock or a serialization failure,
 * as node-postgres reports it (code) or as Prisma wraps it (P2034, or a raw query's meta or message).
 */
export function isTransientConflict(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 3) return false;
  const e = err as TErrorish;
  if (typeof e.code === "string" && (TRANSIENT_CODES.has(e.code) || e.code === PRISMA_CONFLICT)) return true;
  if (typeof e.meta?.code === "string" && TRANSIENT_CODES.has(e.meta.code)) return true;
  if (typeof e.message === "string" && /Code: `(40P01|40001)`|deadlock detected|could not serialize access/.test(e.message)) return true;
  return isTransientConflict(e.cause, depth + 1);
}

function pause(attempt: number) {
  const ms = PAUSE_MS.min * attempt + Math.floor(Math.random() * PAUSE_MS.spread * attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `work` again after a deadlock or serialization failure, up to TRANSACTION_ATTEMPTS in all. */
export async function retryTransient<T>(work: () => Promise<T>, attempts = TRANSACTION_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !isTransientConflict(err)) throw err;
      await pause(attempt);
    }
  }
}

/** Whether `err` is a write refused by a unique constraint (Prisma's P2002): someone else took the name, phone or key first. */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

/** An interactive transaction, run once: a deadlock or serialization failure reaches the caller (runTransaction runs it again). */
export function withTransaction<T>(fn: (tx: TTx) => Promise<T>, opts: { timeout?: number } = {}): Promise<T> {
  return getDb().$transaction(fn, opts);
}

/** An interactive Prisma transaction, run again from the start if PostgreSQL aborts it for a deadlock or a serialization failure. */
export function runTransaction<T>(fn: (tx: TTx) => Promise<T>, opts: { timeout?: number } = {}): Promise<T> {
  return retryTransient(() => getDb().$transaction(fn, opts));
}
