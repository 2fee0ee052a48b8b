// `npm run bench`: figures, not pass/fail. Loopback only, bounded in count and time.
//  - the embedded database through the loopback socket (what every process pays per query);
//  - server-rendered pages and API calls of the web process on that database.
import fs from "node:fs";
import pg from "pg";
import { ensureBuild } from "../scripts/ensure-build.mjs";
import { startEmbeddedHost } from "../server/db/embedded-host";
import { applyMigrations } from "../server/db/migrate";
import { startWeb } from "../tests/helpers/platform";
import { measure, printRow } from "./lib";
import { runCompositeBench } from "./composite";
import { runLedgerBench } from "./ledger";
import { runMediaBench } from "./media";
import { runMarketRenderBench } from "./market-render";
import { printMobiBundle } from "./mobi-bundle";
import { runRetrievalBench } from "./retrieval";
import { runTtftBench } from "./ttft";
import { runTtftFloorBench } from "./ttft-floor";
import { runWorkshopBench } from "./workshop";

// `npm run bench -- ttft`: only the chat time-to-first-token figures (on DATABASE_URL when set).
// The pages are not measured there, so any existing build will do for the web process.
if (process.argv.includes("ttft")) {
  if (!fs.existsSync(new URL("../build/server/index.js", import.meta.url))) ensureBuild({ quiet: true });
  const host = process.env.DATABASE_URL ? null : await startEmbeddedHost();
  const url = process.env.DATABASE_URL ?? host!.url;
  if (host) process.env.ZELIN_EMBEDDED_DB = "1";
  await applyMigrations(url);
  await runTtftBench(url);
  await host?.close();
  process.exit(0);
}
// `npm run bench -- ttft-floor`: what a bare relay adds on this machine, the floor under the figure above.
if (process.argv.includes("ttft-floor")) {
  await runTtftFloorBench();
  process.exit(0);
}
// `npm run bench -- media`: only the worker's file work (ffmpeg transcodes, sharp derivatives); no database.
if (process.argv.includes("media")) {
  await runMediaBench();
  process.exit(0);
}
// `npm run bench -- composite`: only the digital-human composite's CPU cost (ffmpeg keying and encoding); no database.
if (process.argv.includes("composite")) {
  await runCompositeBench();
  process.exit(0);
}
// `npm run bench -- mobi-bundle`: only the gzipped JavaScript of /mobi/dialogue (builds if needed).
if (process.argv.includes("mobi-bundle")) {
  ensureBuild({ quiet: true });
  printMobiBundle();
  process.exit(0);
}
// `npm run bench -- market`: only the market pages' render times (on DATABASE_URL when set).
if (process.argv.includes("market")) {
  ensureBuild({ quiet: true });
  const host = process.env.DATABASE_URL ? null : await startEmbeddedHost();
  const url = process.env.DATABASE_URL ?? host!.url;
  if (host) process.env.ZELIN_EMBEDDED_DB = "1";
  await applyMigrations(url);
  await runMarketRenderBench(url);
  await host?.close();
  process.exit(0);
}
// `npm run bench -- ledger`: only the ledger's contention figures (on DATABASE_URL when set).
if (process.argv.includes("ledger")) {
  const host = process.env.DATABASE_URL ? null : await startEmbeddedHost();
  const url = process.env.DATABASE_URL ?? host!.url;
  if (host) process.env.ZELIN_EMBEDDED_DB = "1";
  await applyMigrations(url);
  await runLedgerBench(url);
  await host?.close();
  process.exit(0);
}
// `npm run bench -- workshop`: only the workshop engine's figures (on DATABASE_URL when set).
if (process.argv.includes("workshop")) {
  const host = process.env.DATABASE_URL ? null : await startEmbeddedHost();
  const url = process.env.DATABASE_URL ?? host!.url;
  if (host) process.env.ZELIN_EMBEDDED_DB = "1";
  await applyMigrations(url);
  await runWorkshopBench(url);
  await host?.close();
  process.exit(0);
}
// `npm run bench -- retrieval`: only the retrieval figures (on DATABASE_URL when set).
if (process.argv.includes("retrieval")) {
  const host = process.env.DATABASE_URL ? null : await startEmbeddedHost();
  const url = process.env.DATABASE_URL ?? host!.url;
  if (host) process.env.ZELIN_EMBEDDED_DB = "1";
  await applyMigrations(url);
  await runRetrievalBench(url);
  await host?.close();
  process.exit(0);
}
ensureBuild({ quiet: true });
const host = await startEmbeddedHost();
await applyMigrations(host.url);
console.log(`Zelin benchmarks (node ${process.version}, embedded PGlite)\n`);

console.log("embedded database over the loopback socket");
const pool = new pg.Pool({ connectionString: host.url, max: 4 });
await pool.query("SELECT 1");
printRow("SELECT $1 (1 connection)", await measure(async () => void (await pool.query("SELECT $1::int", [1])), 2000, 1));
printRow("SELECT $1 (4 connections)", await measure(async () => void (await pool.query("SELECT $1::int", [1])), 4000, 4));
printRow(
  "transaction: read + update (4 connections)",
  await measure(
    async () => {
      const c = await pool.connect();
      try {
        await c.query("BEGIN");
        await c.query("SELECT value FROM system_setting WHERE key = $1", ["bench"]);
        await c.query(
          `INSERT INTO system_setting (key, value, updated_at) VALUES ($1, $2, now()) ON CONFLICT (key) DO UPDATE SET value = $2, updated_at = now()`,
          ["bench", JSON.stringify({ n: Math.random() })],
        );
        await c.query("COMMIT");
      } finally {
        c.release();
      }
    },
    1000,
    4,
  ),
);
await pool.end();

console.log("\nweb process (production build, server-side rendering with antd styles)");
const web = await startWeb({ DATABASE_URL: host.url, ZELIN_EMBEDDED_DB: "1" });
const get = (path: string) => async () => {
  const res = await fetch(`${web.url}${path}`);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(String(res.status));
};
for (const path of ["/", "/mobi"]) await get(path)(); // warm up
printRow("GET /healthz (concurrency 10)", await measure(get("/healthz"), 500, 10));
printRow("GET /api/v1/system/config (concurrency 10)", await measure(get("/api/v1/system/config"), 500, 10));
printRow("GET / landing page (sequential)", await measure(get("/"), 100, 1));
printRow("GET / landing page (concurrency 10)", await measure(get("/"), 200, 10));
printRow("GET /mobi phone landing (sequential)", await measure(get("/mobi"), 100, 1));
const html = await (await fetch(`${web.url}/`)).text();
printMobiBundle();
console.log(`\nlanding page HTML: ${(html.length / 1024).toFixed(0)} KiB (styles inlined for first paint)`);
await web.stop();

// The chat stream's added latency, on real Postgres when DATABASE_URL is set (what production runs).
if (process.env.DATABASE_URL) {
  await applyMigrations(process.env.DATABASE_URL);
  await runTtftBench(process.env.DATABASE_URL);
} else {
  process.env.ZELIN_EMBEDDED_DB = "1";
  await runTtftBench(host.url);
}
// What a bare relay adds on this machine: the floor under the sequential figure above.
await runTtftFloorBench();

// The market's pages over 10,000 apps and 1,000 agents, on the same database.
await runMarketRenderBench(process.env.DATABASE_URL ?? host.url);

// Retrieval over 100,000 passages, on the same database as the chat stream above.
await runRetrievalBench(process.env.DATABASE_URL ?? host.url);

// 32 concurrent debits on one wallet, and on 32 wallets.
await runLedgerBench(process.env.DATABASE_URL ?? host.url);
await host.close();

// The worker's file work: ffmpeg transcodes and sharp's picture derivatives.
await runMediaBench();
// A digital human's composite: the figure keyed over a background under a minute of speech.
await runCompositeBench();
