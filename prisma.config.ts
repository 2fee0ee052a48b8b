// Prisma 6.19 on the WebAssembly engine: the CLI downloads nothing (STACK.md).
// Migrations are applied by our own runner at boot (server/db/migrate.ts), not by `prisma migrate`.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/postgres";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL });
  },
});
