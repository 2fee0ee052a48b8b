// `npm run db:migrate`: applies pending migrations to DATABASE_URL (production deploys; `npm start` does it itself).
import { applyMigrations } from "../server/db/migrate";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set.");
  process.exit(2);
}
const applied = await applyMigrations(url);
console.log(applied.length ? `applied: ${applied.join(", ")}` : "nothing to apply");
