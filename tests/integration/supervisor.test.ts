// The README's run command on the embedded defaults: no DATABASE_URL, no REDIS_URL, no key. It must
// come up with all three processes, serve pages, and stop cleanly, releasing its data directory.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBuild } from "../../scripts/ensure-build.mjs";
import { freePort } from "../helpers/platform";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("npm start on embedded defaults", () => {
  it("runs web, worker and bot gateway on one PGlite, seeds demo data, and stops cleanly", async () => {
    ensureBuild({ quiet: true });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-start-"));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    for (const k of ["DATABASE_URL", "REDIS_URL", "ZELIN_EMBEDDED_DB", "LICENCE_FILE"]) delete env[k];
    const child = spawn(process.execPath, ["scripts/start.mjs"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    try {
      let health: { status: string; processes: Record<string, string>; queue_backend: string } | undefined;
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline) {
        health = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => (r.ok ? r.json() : undefined),
          () => undefined,
        );
        if (health?.processes.worker === "up" && health.processes.bot_gateway === "up") break;
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(health, output).toMatchObject({
        status: "ok",
        database: "ok",
        queue: "ok",
        queue_backend: "postgres",
        processes: { worker: "up", bot_gateway: "up" },
      });
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, "pg", "PG_VERSION"))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, "embedded.lock"))).toBe(true);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    expect(fs.existsSync(path.join(dataDir, "embedded.lock"))).toBe(false);
  }, 150_000);

  it("refuses to start with a bad setting, saying which", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/supervisor.ts"], {
      cwd: ROOT,
      env: { ...process.env, PORT: "eighty" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    const code = await new Promise((r) => child.once("exit", r));
    expect(code).toBe(1);
    expect(err).toMatch(/Zelin cannot start: bad settings[\s\S]*PORT/);
  });
});
