import pg from "pg";
import { inject } from "vitest";

/** End-to-end tests set up their data straight in the run's database. */
export async function sql(text: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: inject("databaseUrl") });
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** A ledger account's kept balance in micro-Z (0 for an account not yet made). */
export async function ledgerBalance(id: string): Promise<number> {
  return Number((await sql("SELECT balance_micro::text AS b FROM ledger_account WHERE id = $1", [id]))[0]?.b ?? 0);
}
