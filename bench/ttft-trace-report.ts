// The summary of BENCH_TRACE=1 (bench/ttft-trace.ts): where a turn's time to first text goes inside
// the web, one at a time and at the held level of streams. In order, the web serves: the bench's
// warm-up (bench/ttft-warm-up.ts), the client's 5 warm-up turns, the sequential ones, the held ones,
// then two bursts; the phases are told apart by that order.
import fs from "node:fs";
import path from "node:path";
import { percentile } from "./lib";
import type { TTraceFile, TTurnTrace } from "./ttft-trace";
import { WARM_UP_TURNS } from "./ttft-warm-up";

const STAGES = ["upstream_request", "connect_begin", "connected", "upstream_sent", "upstream_headers", "ids", "first_text"];

export function reportTrace(dir: string, counts: { sequential: number; burst: number }) {
  // A cluster's primary writes a file too, with no turns.
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith("trace-"))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as TTraceFile)
    .filter((f) => f.turns.length > 0);
  const turns = files.flatMap((f) => f.turns).sort((a, b) => a.at - b.at);
  const first = WARM_UP_TURNS + 5;
  const phases = { sequential: turns.slice(first, first + counts.sequential), held: turns.slice(first + counts.sequential, turns.length - counts.burst) };
  for (const [phase, traced] of Object.entries(phases)) summarise(phase, traced, files);
}

function summarise(phase: string, traced: TTurnTrace[], files: TTraceFile[]) {
  if (!traced.length) return console.log(`  trace: no ${phase} turns recorded`);
  const [from, to] = [traced[0].at, traced[traced.length - 1].at];
  const row = (label: string, xs: number[], unit = " ms") => {
    const s = [...xs].sort((a, b) => a - b);
    console.log(`    ${label.padEnd(18)} p50 ${percentile(s, 50).toFixed(2)}  p90 ${percentile(s, 90).toFixed(2)}  p99 ${percentile(s, 99).toFixed(2)}${unit}`);
  };
  console.log(
    `  trace of the ${traced.length} turns of the ${phase} phase (${files.length} web process${files.length === 1 ? "" : "es"}), ms after the request reached the route:`,
  );
  for (const stage of STAGES)
    row(
      `${stage} (${traced.filter((t) => stage in t.marks).length})`,
      traced.flatMap((t) => (stage in t.marks ? [t.marks[stage]] : [])),
    );
  row(
    "database trips",
    traced.map((t) => t.queries),
    "",
  );
  const delay = files.flatMap((f) => f.loopDelay.filter((d) => d.at >= from && d.at <= to));
  row(
    "loop delay p99/s",
    delay.map((d) => d.p99),
  );
}
