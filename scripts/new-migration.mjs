// Authoring a migration offline (STACK.md): diff the schema of the last migration against
// prisma/schema.prisma and write prisma/migrations/NNNN_<name>/{migration.sql,schema.prisma}.
//   npm run db:migration -- add_accounts
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dir = path.join(root, "prisma/migrations");
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <snake_case_name>");
  process.exit(2);
}
const existing = fs
  .readdirSync(dir)
  .filter((d) => /^\d{4}_/.test(d))
  .sort();
const last = existing.at(-1);
const from = last ? ["--from-schema-datamodel", path.join(dir, last, "schema.prisma")] : ["--from-empty"];
const sql = execFileSync(
  path.join(root, "node_modules/.bin/prisma"),
  ["migrate", "diff", ...from, "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
  { cwd: root },
)
  .toString()
  .replace(/^Loaded Prisma config.*\n/m, "");
if (sql.includes("This is an empty migration")) {
  console.log("prisma/schema.prisma has no changes since the last migration.");
  process.exit(0);
}
const next = String((last ? Number(last.slice(0, 4)) : 0) + 1).padStart(4, "0");
const target = path.join(dir, `${next}_${name}`);
fs.mkdirSync(target);
fs.writeFileSync(path.join(target, "migration.sql"), sql);
fs.copyFileSync(path.join(root, "prisma/schema.prisma"), path.join(target, "schema.prisma"));
console.log(`wrote ${path.relative(root, target)}`);
