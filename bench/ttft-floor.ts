// `npm run bench -- ttft-floor`: what a bare relay (bench/ttft-floor-relay.ts, clustered as the web
// is) adds to the time to first token on this machine, measured as the TTFT bench measures ours:
// the same fake upstream, the same measuring client, requests straight to it and through the relay
// alternating one at a time, then 200 streams of each kind held open together. The chat endpoint's
// figures are read against these: the part of them that is the extra hop itself (two more process
// wake-ups on loopback, a relay's reads and writes on a shared machine), which no work of ours can remove.
import { fork } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { percentile } from "./lib";
import { startFakeOpenaiProcess } from "../tests/fakes/fake-openai-process";
import { runTtftClient } from "./ttft-client";
import { reportCpu, reportRow } from "./ttft-report";
import { warmUp } from "./ttft-warm-up";

const CHUNKS = 200;
const DELAY_MS = 20;
const EXPECTED = Array.from({ length: CHUNKS }, (_, i) => `word${i} `).join("");

export async function runTtftFloorBench(opts: { sequential?: number; concurrent?: number } = {}) {
  const sequential = Number(process.env.BENCH_SEQ ?? opts.sequential ?? 30);
  const concurrent = Number(process.env.BENCH_CONC ?? opts.concurrent ?? 200);
  const held = Number(process.env.BENCH_HELD ?? 3 * concurrent);
  const fake = await startFakeOpenaiProcess();
  const key = "sk-bench-floor";
  await fake.setBehaviour(key, { stream: { chunks: CHUNKS, delayMs: DELAY_MS, noUsage: false } });
  const relay = fork(fileURLToPath(new URL("./ttft-floor-relay.ts", import.meta.url)), [fake.base], { execArgv: ["--import", "tsx"] });
  const port = await new Promise<number>((resolve) => relay.once("message", (m) => resolve(Number(m))));
  const upstreamBody = JSON.stringify({
    model: "bench",
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "user", content: "hello" }],
  });
  try {
    // Warmed as the web is before its bench (bench/ttft-warm-up.ts).
    await warmUp(fake, key, { chunks: CHUNKS, delayMs: DELAY_MS }, async () => {
      const res = await fetch(`http://127.0.0.1:${port}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: upstreamBody,
      });
      const text = await res.text();
      return { ok: res.ok && text.includes("[DONE]"), text };
    });
    const r = await runTtftClient({
      webUrl: "",
      fakeBase: fake.base,
      key,
      upstreamBody,
      csrf: "",
      users: [],
      sequential,
      concurrent,
      held,
      streamMs: CHUNKS * DELAY_MS,
      relayUrl: `http://127.0.0.1:${port}/`,
      noBurst: true,
      serverPid: relay.pid,
      fakePid: fake.pid,
    });
    console.log(`\nbare relay (node:http in, undici out, no app; ${os.availableParallelism()} workers), fake upstream ${CHUNKS} chunks ${DELAY_MS} ms apart`);
    reportRow(
      EXPECTED,
      `sequential (${sequential} pairs)`,
      r.seq.map((p) => p.d),
      r.seq.map((p) => p.o),
      r.seq.map((p) => p.o.ttft - p.d.ttft),
    );
    const added = (odd: number) =>
      r.seq
        .filter((_, i) => i % 2 === odd)
        .map((p) => p.o.ttft - p.d.ttft)
        .sort((a, b) => a - b);
    console.log(
      `    added TTFT p50 after a relayed stream ${percentile(added(1), 50).toFixed(2)} ms; after a direct stream ${percentile(added(0), 50).toFixed(2)} ms`,
    );
    reportRow(EXPECTED, `${concurrent} concurrent streams held (+${concurrent} direct), ${r.held.ours.length} counted each`, r.held.direct, r.held.ours, null);
    reportCpu("relay", r.held.cpu);
  } finally {
    relay.kill();
    await fake.close();
  }
}
