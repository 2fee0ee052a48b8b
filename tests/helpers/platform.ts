// Starts Zelin processes for a test run, each a real child process on its own port, pointed at
// the run's database, and waits until they answer.
import { fork, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type TProcess = { url: string; port: number; child: ChildProcess; stop: () => Promise<void> };
/** A web process also says when it listens: with WEB_CONCURRENCY, once every worker does. */
export type TWebProcess = TProcess & { ready: Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * ZELIN_CPU_PROF_DIR=/tmp/prof profiles the spawned processes (--cpu-prof is refused in NODE_OPTIONS);
 * ZELIN_EXTRA_EXEC_ARGV adds flags of any kind to them (a tracing --import, V8 flags).
 */
function spawnProcess(file: string, env: Record<string, string | undefined>) {
  return fork(path.join(ROOT, file), [], {
    cwd: ROOT,
    execArgv: [
      "--import",
      "tsx",
      ...(process.env.ZELIN_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.ZELIN_CPU_PROF_DIR}`] : []),
      ...(process.env.ZELIN_EXTRA_EXEC_ARGV?.split(" ").filter(Boolean) ?? []),
    ],
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
}

export async function startWeb(env: Record<string, string | undefined>): Promise<TWebProcess> {
  // A caller may fix the port (its own URL must be known before it starts, e.g. for payment notify URLs).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawnProcess("server/main.ts", { ...env, PORT: String(port), HOST: "127.0.0.1" });
  const ready = new Promise<void>((resolve) => child.on("message", (m: { type?: string }) => m?.type === "ready" && resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`web process exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, port, child, stop: stopper(child), ready };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error("web process did not become healthy within 60 s");
}

export async function startWorker(env: Record<string, string | undefined>) {
  const child = spawnProcess("workers/main.ts", env);
  return { child, stop: stopper(child) };
}

/** The bot gateway process (bot-gateway/main.ts): it takes the bots of the run's database. */
export async function startBotGateway(env: Record<string, string | undefined>) {
  const child = spawnProcess("bot-gateway/main.ts", env);
  return { child, stop: stopper(child) };
}
