// Demo data for a fresh install. Idempotent: it runs at every start and only fills what is missing.
import { getDb } from "../../server/db/client";
import { DEMO_CATEGORIES } from "./demo-data";

export async function seedDemoData() {
  const db = getDb();
  for (const c of DEMO_CATEGORIES) {
    await db.appCategory.upsert({ where: { slug: c.slug }, create: c, update: {} });
  }
}
