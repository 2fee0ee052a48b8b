// WEB_CONCURRENCY: one web process keeping several workers on one port (server/web-cluster.ts).
// Connections are spread over the workers, a worker that dies is replaced while the others serve,
// and stopping the web process stops every worker.
import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "../../scripts/ensure-build.mjs";
import { startWeb, type TWebProcess } from "../helpers/platform";

let web: TWebProcess;

beforeAll(async () => {
  ensureBuild({ quiet: true });
  web = await startWeb({ DATABASE_URL: process.env.DATABASE_URL, APP_SECRET: "cluster-test-secret-0123456789abcdefghij", WEB_CONCURRENCY: "2" });
  // Both workers listening (a cold start compiles the app in each).
  await web.ready;
}, 120_000);

afterAll(async () => {
  await web?.stop();
});

/** The web workers of a primary: its children running server/main.ts (tsx may have an esbuild child too). */
function childrenOf(pid: number) {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after its ')'.
        const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== pid) return false;
        return fs.readFileSync(`/proc/${d}/cmdline`, "utf8").includes("server/main.ts");
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Established TCP connections on `port` held by the process `pid`. */
function connectionsOn(pid: number, port: number) {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      // closed while we looked
    }
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return fs
    .readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length > 9 && f[1].endsWith(`:${hexPort}`) && f[3] === "01" && inodes.has(f[9])).length;
}

async function waitFor<T>(fn: () => T | null | undefined | false, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("web workers (WEB_CONCURRENCY=2)", () => {
  it("spreads connections over two workers, replaces one that dies, and stops them all", async () => {
    const primary = web.child.pid!;
    const workers = childrenOf(primary);
    expect(workers).toHaveLength(2);
    // Each worker runs with the web's V8 flags on its command line (web-v8-flags.ts).
    for (const pid of workers)
      expect(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toEqual(expect.arrayContaining(["--no-memory-reducer", "--no-flush-bytecode"]));

    // Eight connections held open at once: the primary hands them out in turn. (Counted over what
    // the workers already hold: the start-up's readiness check is kept alive too.)
    const before = workers.map((pid) => connectionsOn(pid, web.port));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get(`${web.url}${path}`, { agent, signal: AbortSignal.timeout(5_000) }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          })
          .on("error", reject);
      });
    expect(await Promise.all(Array.from({ length: 8 }, () => get("/healthz")))).toEqual(Array(8).fill(200));
    const held = await waitFor(
      () => {
        const counts = workers.map((pid, i) => connectionsOn(pid, web.port) - before[i]);
        return counts.reduce((a, b) => a + b, 0) === 8 ? counts : null;
      },
      5_000,
      "the eight connections",
    );
    expect(Math.min(...held)).toBeGreaterThan(0);
    agent.destroy();

    // A worker killed outright is replaced, and the two serve again. (A connection handed to a
    // worker in the instant it dies is lost, as with any cluster: only new ones are asked for here.)
    process.kill(workers[0], "SIGKILL");
    const replaced = await waitFor(
      () => {
        const now = childrenOf(primary);
        return now.length === 2 && !now.includes(workers[0]) ? now : null;
      },
      10_000,
      "a new worker",
    );
    expect(replaced).toContain(workers[1]);
    const statuses = await Promise.all(
      Array.from({ length: 4 }, () => fetch(`${web.url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status)),
    );
    expect(statuses).toEqual([200, 200, 200, 200]);

    // Stopping the web process stops its workers with it.
    await web.stop();
    await waitFor(() => replaced.every((pid) => !fs.existsSync(`/proc/${pid}`)), 10_000, "the workers to exit");
  }, 90_000);
});
