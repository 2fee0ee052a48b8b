// `npm run bench -- ttft-floor`: what a bare relay (bench/ttft-floor-relay.ts, its own process)
// adds to the time to first token on this machine, measured as the TTFT bench's sequential row
// is: the same fake upstream, requests straight to it and through the relay alternating, one at a
// time. The chat endpoint's sequential figure is read against this one: the part of it that is the
// extra hop itself (two more process wake-ups on loopback), which no work of ours can remove.
import { fork } from "node:child_process";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { percentile } from "./lib";
import { startFakeOpenaiProcess } from "../tests/fakes/fake-openai-process";

const CHUNKS = 200;
const DELAY_MS = 20;

export async function runTtftFloorBench(pairs = Number(process.env.BENCH_SEQ ?? 30)) {
  const fake = await startFakeOpenaiProcess();
  const key = "sk-bench-floor";
  await fake.setBehaviour(key, { stream: { chunks: CHUNKS, delayMs: DELAY_MS, noUsage: false } });
  const relay = fork(fileURLToPath(new URL("./ttft-floor-relay.ts", import.meta.url)), [fake.base], { execArgv: ["--import", "tsx"] });
  const port = await new Promise<number>((resolve) => relay.once("message", (m) => resolve(Number(m))));
  const agent = new http.Agent({ keepAlive: true });
  const body = JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "hello" }] });
  const ttft = (url: string) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      let first = NaN;
      let seen = "";
      const req = http.request(url, { method: "POST", agent, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
        res.on("data", (c: Buffer) => {
          const at = performance.now();
          if (Number.isNaN(first) && (seen += c).includes("word0")) first = at - t0;
        });
        res.on("end", () => (Number.isNaN(first) ? reject(new Error("no first word")) : resolve(first)));
      });
      req.on("error", reject);
      req.end(body);
    });
  const direct = `${fake.base}/chat/completions`;
  const relayed = `http://127.0.0.1:${port}/`;
  try {
    for (let i = 0; i < 3; i++) await Promise.all([ttft(direct), ttft(relayed)]); // warm up
    const added: number[][] = [[], []];
    for (let i = 0; i < pairs; i++) {
      // Alternating as the TTFT bench does: half follow a relayed stream, half a direct one.
      if (i % 2) {
        const o = await ttft(relayed);
        added[1].push(o - (await ttft(direct)));
      } else {
        const d = await ttft(direct);
        added[0].push((await ttft(relayed)) - d);
      }
    }
    const p50 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50).toFixed(2);
    console.log(`\nbare relay (node:http in, undici out, no app), fake upstream ${CHUNKS} chunks ${DELAY_MS} ms apart, ${pairs} sequential pairs`);
    console.log(`    added TTFT p50 ${p50(added.flat())} ms; after a relayed stream ${p50(added[1])} ms; after a direct stream ${p50(added[0])} ms`);
  } finally {
    agent.destroy();
    relay.kill();
    await fake.close();
  }
}
