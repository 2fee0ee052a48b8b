export function percentile(sorted: number[], p: number) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `total` calls of fn with `concurrency` in flight; returns latencies (ms), errors and rate. */
export async function measure(fn: () => Promise<void>, total: number, concurrency: number) {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        try {
          await fn();
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), errors, perSecond: total / seconds };
}

export function printRow(name: string, r: Awaited<ReturnType<typeof measure>>) {
  const f = (n: number) => n.toFixed(2).padStart(8);
  console.log(`${name.padEnd(44)} p50 ${f(r.p50)} ms  p95 ${f(r.p95)} ms  p99 ${f(r.p99)} ms  ${r.perSecond.toFixed(0).padStart(6)}/s  errors ${r.errors}`);
}
