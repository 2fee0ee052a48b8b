// Applies prisma/migrations/*/migration.sql in order, once each, recorded in _zelin_migrations.
// The same runner serves PGlite and Postgres (STACK.md: `prisma migrate` cannot run here).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");
const LOCK_ID = 727_001;

export type Migration = { name: string; sql: string; checksum: string };

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

export async function applyMigrations(databaseUrl: string, migrations = readMigrations()): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS _zelin_migrations (name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    for (const m of migrations) {
      await client.query("BEGIN");
      try {
        // Two instances booting together: the second waits here, then sees the row and skips.
        await client.query("SELECT pg_advisory_xact_lock($1)", [LOCK_ID]);
        const { rows } = await client.query<{ checksum: string }>("SELECT checksum FROM _zelin_migrations WHERE name = $1", [m.name]);
        if (rows[0]) {
          if (rows[0].checksum !== m.checksum) {
            throw new Error(`Migration ${m.name} was changed after it was applied. Add a new migration instead of editing an old one.`);
          }
          await client.query("COMMIT");
          continue;
        }
        await client.query(m.sql);
        await client.query("INSERT INTO _zelin_migrations (name, checksum) VALUES ($1, $2)", [m.name, m.checksum]);
        await client.query("COMMIT");
        applied.push(m.name);
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      }
    }
  } finally {
    await client.end();
  }
  return applied;
}
