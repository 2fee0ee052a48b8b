// A brand-new empty database: a new Postgres database next to DATABASE_URL's when it is set,
// otherwise a new in-memory PGlite host.
import crypto from "node:crypto";
import pg from "pg";
import { startEmbeddedHost } from "../../server/db/embedded-host";

export async function createFreshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.ZELIN_EMBEDDED_DB === "1" ? undefined : process.env.DATABASE_URL;
  if (!base) {
    const host = await startEmbeddedHost();
    return { url: host.url, drop: () => host.close() };
  }
  const name = `zelin_t_${crypto.randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Tables, columns, indexes and constraints, as text that two databases can be compared by. */
export async function describeSchema(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const cols = await c.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`,
    );
    const idx = await c.query(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2`);
    const cons = await c.query(
      `SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
    );
    return [
      ...cols.rows.map((r) => `col ${r.table_name}.${r.column_name} ${r.data_type} ${r.is_nullable} ${r.column_default ?? ""}`),
      ...idx.rows.map((r) => `idx ${r.tablename} ${r.indexdef}`),
      ...cons.rows.map((r) => `con ${r.t} ${r.conname} ${r.def}`),
    ];
  } finally {
    await c.end();
  }
}
