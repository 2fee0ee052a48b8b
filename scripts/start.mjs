// `npm start`: builds the pages when the sources are newer than the last build, then runs the
// supervisor (server/supervisor.ts), which starts everything on the embedded defaults.
import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const stamp = path.join(root, "build", ".stamp");
const inputs = ["app", "public", "vite.config.ts", "package.json"];

function newest(p) {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const st = fs.statSync(full);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(full).map((e) => newest(path.join(p, e))));
}

const dev = process.argv.includes("--dev");
if (!dev) {
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (!fs.existsSync(path.join(root, "build/server/index.js")) || Math.max(...inputs.map(newest)) > built) {
    console.log("Building the pages (first start, or the sources changed)...");
    const r = spawnSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], { cwd: root, stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
    fs.writeFileSync(stamp, new Date().toISOString());
  }
}
const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "server/supervisor.ts"), ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
