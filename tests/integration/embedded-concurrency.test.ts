// PGlite is one session shared by the web process, the worker and the bot gateway. This shows that
// transactions from different processes never interleave: no lost update, no rolled-back row
// surviving, no answer delivered to the wrong connection.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedHost, type EmbeddedHost } from "../../server/db/embedded-host";

const run = promisify(execFile);
const HAMMER = path.resolve(import.meta.dirname, "../fixtures/pg-hammer.ts");
const PROCESSES = 3;
const LOOPS = 3;
const ITERATIONS = 25;

describe("embedded database shared by several processes", () => {
  let host: EmbeddedHost;
  beforeAll(async () => {
    host = await startEmbeddedHost();
    const c = new pg.Client({ connectionString: host.url });
    await c.connect();
    await c.query(
      "CREATE TABLE hammer_counter (id int PRIMARY KEY, v int NOT NULL); INSERT INTO hammer_counter VALUES (1, 0); CREATE TABLE hammer_log (proc text, n int)",
    );
    await c.end();
  });
  afterAll(() => host?.close());

  it("serialises whole transactions across processes", async () => {
    const results = await Promise.all(
      Array.from({ length: PROCESSES }, (_, p) =>
        run(process.execPath, ["--import", "tsx", HAMMER, host.url, `p${p}`, String(LOOPS), String(ITERATIONS)], { timeout: 90_000 }),
      ),
    );
    const c = new pg.Client({ connectionString: host.url });
    await c.connect();
    const total = PROCESSES * LOOPS * ITERATIONS;
    const counter = await c.query("SELECT v FROM hammer_counter WHERE id = 1");
    const committed = await c.query("SELECT count(*)::int AS n, count(DISTINCT n)::int AS distinct_n FROM hammer_log WHERE n > 0");
    const rolledBack = await c.query("SELECT count(*)::int AS n FROM hammer_log WHERE proc LIKE '%rolled-back'");
    await c.end();

    expect(counter.rows[0].v).toBe(total); // no lost update
    expect(committed.rows[0]).toEqual({ n: total, distinct_n: total }); // every increment saw its own read
    expect(rolledBack.rows[0].n).toBe(0); // no other process committed a rolled-back insert
    for (const r of results) expect(JSON.parse(r.stdout)).toEqual({ mismatches: 0 });
  });

  it("gives the session back when a connection dies inside a transaction", async () => {
    const a = new pg.Client({ connectionString: host.url });
    await a.connect();
    await a.query("BEGIN");
    await a.query("INSERT INTO hammer_log (proc, n) VALUES ('abandoned', -2)");
    a.on("error", () => {});
    (a as unknown as { connection: { stream: { destroy: () => void } } }).connection.stream.destroy();

    const b = new pg.Client({ connectionString: host.url });
    await b.connect();
    const { rows } = await b.query("SELECT count(*)::int AS n FROM hammer_log WHERE proc = 'abandoned'");
    await b.end();
    expect(rows[0].n).toBe(0);
  });

  it("frees the session from a connection that holds a transaction open and idle", async () => {
    const idleHost = await startEmbeddedHost({ ownerIdleMs: 300 });
    try {
      const a = new pg.Client({ connectionString: idleHost.url });
      a.on("error", () => {});
      await a.connect();
      await a.query("BEGIN");
      const b = new pg.Client({ connectionString: idleHost.url });
      await b.connect();
      const started = Date.now();
      const { rows } = await b.query("SELECT 1 AS one");
      await b.end();
      expect(rows[0].one).toBe(1);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await idleHost.close();
    }
  });
});
