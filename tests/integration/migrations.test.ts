import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS_DIR, readMigrations } from "../../server/db/migrate";
import { createFreshDatabase, describeSchema } from "../helpers/fresh-database";

const run = promisify(execFile);

describe("migrations", () => {
  it("a fresh database and one upgraded step by step end identical", async () => {
    const all = readMigrations();
    const fresh = await createFreshDatabase();
    const stepwise = await createFreshDatabase();
    try {
      expect(await applyMigrations(fresh.url, all)).toEqual(all.map((m) => m.name));
      for (let i = 1; i <= all.length; i++) await applyMigrations(stepwise.url, all.slice(0, i));
      expect(await describeSchema(stepwise.url)).toEqual(await describeSchema(fresh.url));
      expect((await describeSchema(fresh.url)).length).toBeGreaterThan(10);
    } finally {
      await fresh.drop();
      await stepwise.drop();
    }
  });

  it("applies each migration once", async () => {
    const db = await createFreshDatabase();
    try {
      await applyMigrations(db.url);
      expect(await applyMigrations(db.url)).toEqual([]);
    } finally {
      await db.drop();
    }
  });

  it("refuses a migration edited after it was applied, and changes nothing", async () => {
    const db = await createFreshDatabase();
    try {
      const all = readMigrations();
      await applyMigrations(db.url, all);
      const edited = all.map((m, i) => (i === 0 ? { ...m, checksum: "edited" } : m));
      await expect(applyMigrations(db.url, edited)).rejects.toThrow(/was changed after it was applied/);
    } finally {
      await db.drop();
    }
  });

  it("rolls back a migration that fails half way", async () => {
    const db = await createFreshDatabase();
    try {
      const broken = [...readMigrations(), { name: "9999_broken", checksum: "x", sql: "CREATE TABLE half_done (id int); SELECT no_such_function();" }];
      await expect(applyMigrations(db.url, broken)).rejects.toThrow();
      const tables = (await describeSchema(db.url)).filter((l) => l.includes("half_done"));
      expect(tables).toEqual([]);
      expect(await applyMigrations(db.url)).toEqual([]);
    } finally {
      await db.drop();
    }
  });

  it("the schema has no change that a migration does not carry", async () => {
    const dirs = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((d) => fs.existsSync(path.join(MIGRATIONS_DIR, d, "schema.prisma")))
      .sort();
    const snapshot = path.join(MIGRATIONS_DIR, dirs.at(-1)!, "schema.prisma");
    const prisma = path.resolve(import.meta.dirname, "../../node_modules/.bin/prisma");
    const { stdout } = await run(
      prisma,
      ["migrate", "diff", "--from-schema-datamodel", snapshot, "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
      {
        cwd: path.resolve(import.meta.dirname, "../.."),
      },
    );
    expect(stdout.replace(/^Loaded Prisma config.*$/m, "").trim()).toBe("-- This is an empty migration.");
  });
});
