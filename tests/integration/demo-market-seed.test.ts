// The demo market a fresh install starts with (prisma/seed/demo-market.ts), seeded the way `npm
// start` seeds it, in a process of its own on a brand-new database: agents on the shelf and H5 apps
// in several categories by demo developers, with icons stored as files, plans (by count, by days,
// trials), texts in Chinese and English, a carousel, and the four ranking lists filled from real
// purchases and reactions. Seeding again adds nothing. A production configuration gets none of it.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "../../server/db/migrate";
import { createFreshDatabase } from "../helpers/fresh-database";
import { DEMO_CAROUSEL, DEMO_ITEMS } from "../../prisma/seed/demo-market-content";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

let db: Awaited<ReturnType<typeof createFreshDatabase>>;
let dataDir: string;

async function seedOnce(env: Record<string, string> = {}) {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "tests/fixtures/seed-process.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "test", ...env },
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { ms: number };
}

async function query<T = Record<string, unknown>>(sql: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query(sql, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Every row the seed makes, counted: seeding again must leave each count as it was. */
const COUNTS = `SELECT
  (SELECT count(*) FROM account)::int AS accounts,
  (SELECT count(*) FROM agent)::int AS agents,
  (SELECT count(*) FROM agent_version)::int AS versions,
  (SELECT count(*) FROM training_set)::int AS training_sets,
  (SELECT count(*) FROM app)::int AS apps,
  (SELECT count(*) FROM app_plan)::int AS plans,
  (SELECT count(*) FROM carousel)::int AS slides,
  (SELECT count(*) FROM purchase)::int AS purchases,
  (SELECT count(*) FROM ledger_transaction)::int AS ledger,
  (SELECT count(*) FROM market_reaction)::int AS reactions,
  (SELECT count(*) FROM app_category)::int AS categories,
  (SELECT count(*) FROM ranking_entry)::int AS ranking_rows`;

beforeAll(async () => {
  db = await createFreshDatabase();
  await applyMigrations(db.url);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-seed-"));
}, 120_000);

afterAll(async () => {
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the demo market of a fresh install", () => {
  it("fills the market through the real services, fast, and a second start adds nothing", async () => {
    const first = await seedOnce();
    expect(first.ms).toBeLessThan(60_000);
    const counts = (await query(COUNTS))[0];
    await seedOnce();
    expect((await query(COUNTS))[0]).toEqual(counts);
  }, 240_000);

  it("lists agents and apps of several categories by demo developers, each app with an icon file and plans", async () => {
    const apps = await query<{
      name: string;
      name_en: string;
      introduction_en: string;
      icon_url: string;
      slug: string;
      owner: string;
      plans: number;
      kinds: string[];
      trial_days: number;
      free_per_day: number;
    }>(
      `SELECT a.name, a.name_en, a.introduction_en, a.icon_url, c.slug, o.nickname AS owner, a.trial_days, a.free_per_day,
         (SELECT count(*) FROM app_plan p WHERE p.app_id = a.id)::int AS plans, (SELECT array_agg(DISTINCT p.kind::text) FROM app_plan p WHERE p.app_id = a.id) AS kinds
       FROM app a JOIN app_category c ON c.id = a.category_id JOIN account o ON o.id = a.owner_account_id
       WHERE a.state = 'on_shelf' AND a.in_app_centre AND a.is_public AND a.type = 'h5'`,
    );
    const demo = apps.filter((a) => DEMO_ITEMS.some((i) => i.app.name.zh_hans === a.name));
    expect(demo).toHaveLength(DEMO_ITEMS.length);
    expect(new Set(apps.map((a) => a.slug)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(apps.map((a) => a.owner)).size).toBeGreaterThanOrEqual(3);
    for (const a of demo) {
      expect(a.owner).toMatch(/演示/);
      expect(a.name_en).not.toBe("");
      expect(a.introduction_en).not.toBe("");
      expect(a.plans).toBeGreaterThan(0);
      expect(fs.existsSync(path.join(dataDir, "files", a.icon_url.replace(/^\/files\//, "")))).toBe(true);
    }
    expect(demo.some((a) => a.kinds.includes("count"))).toBe(true);
    expect(demo.some((a) => a.kinds.includes("days"))).toBe(true);
    expect(demo.some((a) => a.trial_days > 0)).toBe(true);

    const shelf = await query<{ name: string; model: string; sets: number }>(
      `SELECT ag.name, v.config->>'model_key' AS model, jsonb_array_length(v.config->'training_set_ids')::int AS sets
       FROM agent_version v JOIN agent ag ON ag.id = v.agent_id WHERE v.state = 'on_shelf'`,
    );
    // Every demo agent, and the first start's "Zelin 助手", on the offline model with its own Q&A set.
    expect(shelf).toHaveLength(DEMO_ITEMS.length + 1);
    for (const a of shelf) expect(a).toMatchObject({ model: "zelin-offline", sets: 1 });
    expect(await query(`SELECT name FROM carousel WHERE enabled ORDER BY sort_order`)).toEqual(DEMO_CAROUSEL.map((s) => ({ name: s.name.zh_hans })));
  });

  it("fills the four ranking lists from what the ledger and reactions hold", async () => {
    const lists = await query<{ list: string; rows: number; top: string }>(
      `SELECT list, count(*)::int AS rows, max(score)::text AS top FROM ranking_entry GROUP BY list ORDER BY list`,
    );
    expect(lists.map((l) => l.list)).toEqual(["engineer_earnings", "image_agents", "language_agents", "popularity"]);
    for (const l of lists) expect(Number(l.top)).toBeGreaterThan(0);
    // The earnings list is the developers' share of the demo purchases, to the micro.
    const earned = await query<{ micro: string }>(
      `SELECT sum(e.amount_micro)::text AS micro FROM ledger_transaction t JOIN ledger_entry e ON e.transaction_id = t.id AND e.ledger_account_id = 'spendable:' || (t.memo->>'developerAccountId') WHERE t.kind = 'purchase'`,
    );
    const listed = await query<{ total: string }>(`SELECT sum(score)::text AS total FROM ranking_entry WHERE list = 'engineer_earnings'`);
    expect(listed[0].total).toBe(earned[0].micro);
    const sales = DEMO_ITEMS.flatMap((i) => i.buys.map(([, plan]) => i.app.plans[plan].price_micro)).reduce((a, b) => a + b, 0);
    expect(Number(earned[0].micro)).toBe(sales - sales / 10);
  });

  it("adds no demo account and no demo market on a production configuration (only the lists are rebuilt)", async () => {
    const other = await createFreshDatabase();
    try {
      await applyMigrations(other.url);
      const { stdout } = await run(process.execPath, ["--import", "tsx", "tests/fixtures/seed-process.ts"], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: other.url, DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "production", ZELIN_EMBEDDED_DB: "" },
        timeout: 120_000,
      });
      expect(stdout).toMatch(/"ms"/);
      const c = new pg.Client({ connectionString: other.url });
      await c.connect();
      const rows = (
        await c.query(
          `SELECT (SELECT count(*) FROM carousel)::int AS slides, (SELECT count(*) FROM purchase)::int AS purchases, (SELECT count(*) FROM account WHERE account LIKE 'demo\\_%')::int AS demo_accounts, (SELECT count(*) FROM account WHERE account = 'zelin_demo')::int AS published_login, (SELECT count(*) FROM app_category)::int > 0 AS categories`,
        )
      ).rows[0];
      await c.end();
      // The README prints zelin_demo's password: a production install must not have that account.
      expect(rows).toEqual({ slides: 0, purchases: 0, demo_accounts: 0, published_login: 0, categories: true });
    } finally {
      await other.drop();
    }
  }, 240_000);
});
