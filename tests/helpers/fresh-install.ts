// A fresh install as the README's `npm start` makes it: the supervisor (server/supervisor.ts) on the
// embedded defaults, in a new DATA_DIR, with none of the test run's settings (no DATABASE_URL, no
// REDIS_URL, no payment or SMS provider, no admin token): only what a shell on a new machine has.
// The pages must already be built (the end-to-end global setup does it; `npm start` would).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { TReconciliation } from "../../server/money/reconciliation.service";
import { freePort } from "./platform";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** What an operator's shell passes on; every Zelin setting of the test run stays behind. */
const KEPT_ENV = ["PATH", "HOME", "USER", "SHELL", "LANG", "LC_ALL", "TZ", "TMPDIR", "TERM"];
const SETUP_LINE = /SETUP: no administrator yet\. Open (\S+) and enter code ([2-9A-Z]{4}-[2-9A-Z]{4})/;

export type TFreshInstall = {
  url: string;
  dataDir: string;
  /** Everything the supervisor and its processes printed so far. */
  output: () => string;
  /** The one-time setup code from the log line the web process prints at start. */
  setupCode: () => Promise<string>;
  /** The embedded database's loopback address, as `npm run admin` finds it. */
  databaseUrl: () => string;
  /** server/money/reconciliation.service.ts on the install's database, in a process of its own. */
  reconcileLedger: () => Promise<TReconciliation>;
  stop: () => Promise<void>;
};

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the supervisor exited with ${child.exitCode} before ${what}:\n${output()}`);
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no ${what} within ${timeoutMs / 1000} s:\n${output()}`);
}

/**
 * Runs the ledger reconciliation against `databaseUrl` in a child process, so this process's own
 * database client (the test run's) is left alone.
 */
async function reconcileLedgerAt(databaseUrl: string): Promise<TReconciliation> {
  const script = [
    'const { reconcileLedger } = await import("./server/money/reconciliation.service.ts");',
    'const { getDb } = await import("./server/db/client.ts");',
    "process.stdout.write(JSON.stringify(await reconcileLedger()));",
    "await getDb().$disconnect();",
  ].join("\n");
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    ZELIN_EMBEDDED_DB: "1",
    LOG_LEVEL: "silent",
  } as const;
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    env,
    timeout: 120_000,
  });
  return JSON.parse(stdout) as TReconciliation;
}

export async function startFreshInstall(opts: { timeoutMs?: number } = {}): Promise<TFreshInstall> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-fresh-"));
  const port = await freePort();
  // NODE_ENV as a shell without it leaves it: the settings' default, production.
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(KEPT_ENV.map((k) => [k, process.env[k]])),
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
  };
  const child = spawn(process.execPath, ["--import", "tsx", "server/supervisor.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const output = () => log;
  const databaseUrl = () => (JSON.parse(fs.readFileSync(path.join(dataDir, "embedded-host.json"), "utf8")) as { url: string }).url;
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // Healthy once the database and queue answer and the worker is up (it trains the Q&A sets).
    await waitFor(
      "healthy platform",
      async () => {
        const health = await fetch(`${url}/healthz`).then(
          (r) => (r.ok ? (r.json() as Promise<{ processes?: Record<string, string> }>) : undefined),
          () => undefined,
        );
        return health?.processes?.worker === "up" ? true : undefined;
      },
      child,
      output,
      opts.timeoutMs ?? 150_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    dataDir,
    output,
    setupCode: () => waitFor("SETUP line in the log", () => SETUP_LINE.exec(log)?.[2], child, output, 30_000),
    databaseUrl,
    reconcileLedger: () => reconcileLedgerAt(databaseUrl()),
    stop,
  };
}
