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
