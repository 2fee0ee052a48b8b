// CPU time of a process and its descendants (a clustered web: the primary and its workers), from
// Linux's /proc; null elsewhere. The TTFT benches read it around the held phase to print what the
// relay costs per chunk, a figure that does not move with the machine's load as latencies do.
import fs from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux Node runs on

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" ").filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** CPU seconds (user and system) used so far by `pid` and every process under it. */
export function treeCpuSeconds(pid: number): number | null {
  if (!fs.existsSync("/proc/self/stat")) return null;
  let ticks = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      // Fields after the command (which may hold spaces) start after its closing parenthesis.
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      continue;
    }
    stack.push(...childrenOf(p));
  }
  return ticks / TICKS_PER_SECOND;
}
