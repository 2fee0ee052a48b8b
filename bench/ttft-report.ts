// One row of the time-to-first-token figures (bench/ttft.ts, bench/ttft-floor.ts): both columns'
// TTFT, what ours adds (per pair when the runs were paired, else at the same percentile), the gaps
// between chunks, errors, and whether every stream carried exactly the expected text.
import os from "node:os";
import { percentile } from "./lib";
import type { THeldCpu, TRun } from "./ttft-client";

export function reportRow(expected: string, label: string, direct: TRun[], ours: TRun[], pairDiffs: number[] | null) {
  const ok = (runs: TRun[]) => runs.filter((r) => r.ok);
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const dT = sorted(ok(direct).map((r) => r.ttft));
  const oT = sorted(ok(ours).map((r) => r.ttft));
  const f = (n: number) => `${n.toFixed(2)} ms`;
  const added50 = pairDiffs ? percentile(sorted(pairDiffs), 50) : percentile(oT, 50) - percentile(dT, 50);
  const added99 = pairDiffs ? percentile(sorted(pairDiffs), 99) : percentile(oT, 99) - percentile(dT, 99);
  const dGaps = sorted(ok(direct).flatMap((r) => r.gaps));
  const oGaps = sorted(ok(ours).flatMap((r) => r.gaps));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const errors = [...direct, ...ours].filter((r) => !r.ok);
  const identical = [...direct, ...ours].every((r) => !r.ok || r.content === expected);
  console.log(`  ${label}`);
  console.log(`    TTFT direct  p50 ${f(percentile(dT, 50))}  p99 ${f(percentile(dT, 99))}`);
  console.log(`    TTFT ours    p50 ${f(percentile(oT, 50))}  p99 ${f(percentile(oT, 99))}`);
  console.log(`    added TTFT   p50 ${f(added50)}  p99 ${f(added99)}${pairDiffs ? "  (per pair)" : "  (ours minus direct, same percentile)"}`);
  console.log(
    `    gap between chunks: direct mean ${f(mean(dGaps))} p99 ${f(percentile(dGaps, 99))}; ours mean ${f(mean(oGaps))} p99 ${f(percentile(oGaps, 99))}; added mean ${f(mean(oGaps) - mean(dGaps))}`,
  );
  console.log(
    `    errors ${errors.length}${errors.length ? ` (${[...new Set(errors.map((e) => e.error))].slice(0, 3).join("; ")})` : ""}; content identical: ${identical ? "yes" : "NO"}`,
  );
}

/**
 * What relaying cost the server in CPU over the held phase (its turns' own work included), and what
 * the harness took of the same CPUs meanwhile: when the fake and the client leave the server less
 * than it needs, the held row measures that queue as much as the server.
 */
export function reportCpu(who: string, cpu: THeldCpu) {
  if (!cpu || cpu.chunks === 0) return;
  const perChunk = (cpu.seconds / cpu.chunks) * 1e6;
  const share = (seconds: number) => `${(seconds / cpu.wallSeconds).toFixed(2)} CPUs`;
  console.log(
    `    ${who} CPU over the held phase: ${cpu.seconds.toFixed(1)} s in ${cpu.wallSeconds.toFixed(1)} s (${share(cpu.seconds)}) for ${cpu.chunks} chunks of ${cpu.streams} streams: ${perChunk.toFixed(0)} us per chunk relayed`,
  );
  const { fake, client } = cpu.harness;
  console.log(
    `    harness meanwhile, on the same ${os.availableParallelism()} CPUs: fake upstream ${fake === null ? "unknown" : share(fake)}, client ${share(client)}`,
  );
}
