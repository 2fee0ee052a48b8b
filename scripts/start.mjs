// `npm start`: builds the pages when the sources are newer than the last build, then runs the
// supervisor (server/supervisor.ts), which starts everything on the embedded defaults.
import { spawn } from "node:child_process";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
if (!dev) {
  try {
    ensureBuild();
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "server/supervisor.ts"), ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
