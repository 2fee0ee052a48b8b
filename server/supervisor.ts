// `npm start`: one command that runs the whole platform. Without DATABASE_URL it hosts the embedded
// PGlite and hands its address to the three processes; then it applies migrations, seeds the demo
// data once, and keeps web, worker and bot gateway running, restarting any that dies.
import { fork, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseEnv } from "./env";
import { logger } from "./lib/logger";
import { applyMigrations } from "./db/migrate";
import { startEmbeddedHost, type EmbeddedHost } from "./db/embedded-host";
import { WEB_V8_FLAGS } from "./web-v8-flags";

const ROOT = path.resolve(import.meta.dirname, "..");
const PROCESSES = [
  { name: "web", file: "server/main.ts" },
  { name: "worker", file: "workers/main.ts" },
  { name: "bot-gateway", file: "bot-gateway/main.ts" },
] as const;

const dev = process.argv.includes("--dev");
let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

ensureAppSecret(env.DATA_DIR);

let host: EmbeddedHost | undefined;
if (!env.DATABASE_URL) {
  host = await startEmbeddedHost({ dataDir: env.DATA_DIR });
  process.env.DATABASE_URL = host.url;
  process.env.ZELIN_EMBEDDED_DB = "1";
  logger.info({ dataDir: env.DATA_DIR }, "embedded database ready (PGlite)");
}
const databaseUrl = process.env.DATABASE_URL!;
const applied = await applyMigrations(databaseUrl);
if (applied.length) logger.info({ applied }, "migrations applied");
const { seedDemoData } = await import("../prisma/seed/seed");
await seedDemoData();

/** Secrets at rest need APP_SECRET; a fresh install makes one and keeps it in DATA_DIR. */
function ensureAppSecret(dataDir: string) {
  if (process.env.APP_SECRET) return;
  const file = path.join(dataDir, "app-secret");
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { mode: 0o600 });
  process.env.APP_SECRET = fs.readFileSync(file, "utf8").trim();
}

const children = new Map<string, ChildProcess>();
let stopping = false;

function launch(spec: (typeof PROCESSES)[number], attempt = 0) {
  const startedAt = Date.now();
  const child = fork(path.join(ROOT, spec.file), dev && spec.name === "web" ? ["--dev"] : [], {
    cwd: ROOT,
    execArgv: ["--import", "tsx", ...(spec.name === "web" ? WEB_V8_FLAGS : [])],
    env: { ...process.env, ZELIN_PROCESS: spec.name, NODE_ENV: dev ? "development" : (process.env.NODE_ENV ?? "production") },
    stdio: "inherit",
  });
  children.set(spec.name, child);
  child.on("exit", (code, signal) => {
    children.delete(spec.name);
    if (stopping) return;
    // Back off when a process keeps dying; a process that ran a minute starts over from 1 s.
    const next = Date.now() - startedAt > 60_000 ? 0 : attempt + 1;
    const delay = Math.min(30_000, 1000 * 2 ** Math.max(0, next - 1));
    logger.error({ process: spec.name, code, signal, restartInMs: delay }, "process exited; restarting");
    setTimeout(() => launch(spec, next), delay).unref();
  });
}

for (const spec of PROCESSES) launch(spec);
logger.info(
  `Zelin is starting on http://localhost:${env.PORT} (${host ? "embedded database" : "DATABASE_URL"}, ${process.env.REDIS_URL ? "Redis queue" : "Postgres queue"})`,
);

async function shutdown() {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    [...children.values()].map(
      (c) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => c.kill("SIGKILL"), 5000);
          c.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          c.kill("SIGTERM");
        }),
    ),
  );
  await host?.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
