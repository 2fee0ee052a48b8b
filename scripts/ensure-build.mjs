// Builds the pages when build/ is missing or older than its sources. Used by `npm start` and the
// end-to-end tests, so neither runs yesterday's pages.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const stamp = path.join(root, "build", ".stamp");
const inputs = ["app", "public", "server", "vite.config.ts", "package.json"];

function newest(p) {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const st = fs.statSync(full);
  if (!st.isDirectory()) return st.mtimeMs;
  if (p.endsWith("generated")) return 0;
  return Math.max(st.mtimeMs, ...fs.readdirSync(full).map((e) => newest(path.join(p, e))));
}

export function ensureBuild({ quiet = false } = {}) {
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (fs.existsSync(path.join(root, "build/server/index.js")) && Math.max(...inputs.map(newest)) <= built) return false;
  if (!quiet) console.log("Building the pages (first start, or the sources changed)...");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], {
    cwd: root,
    stdio: quiet ? "pipe" : "inherit",
    // Under vitest, VITEST is set and vite.config.ts would leave the Remix plugin out.
    env: Object.fromEntries(Object.entries({ ...process.env, NODE_ENV: "production" }).filter(([k]) => !k.startsWith("VITEST"))),
  });
  if (r.status !== 0) {
    if (quiet) process.stderr.write(r.stdout?.toString() + r.stderr?.toString());
    throw new Error("the page build failed");
  }
  fs.writeFileSync(stamp, new Date().toISOString());
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();
