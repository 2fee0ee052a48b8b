// The measuring client of the time-to-first-token bench (bench/ttft.ts), in a process of its own:
// the parent holds the server's modules (Prisma, services) for its set-up, and a heap that size
// pauses for garbage collection in the middle of a measured request. Forked by `runTtftClient`,
// it gets the run's plan over IPC, makes every request, and sends back what each one saw.
import { fork } from "node:child_process";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { treeCpuSeconds } from "./process-cpu";

export type TRun = { ok: boolean; ttft: number; gaps: number[]; content: string; error?: string };
export type TClientPlan = {
  webUrl: string;
  fakeBase: string;
  key: string;
  upstreamBody: string;
  csrf: string;
  users: { cookie: string; agentId: string }[];
  sequential: number;
  concurrent: number;
  held: number;
  streamMs: number;
  /** Set by the floor bench: "ours" goes through this bare relay, speaking the upstream's protocol. */
  relayUrl?: string;
  /** Leave out the two bursts (the floor bench measures the held level only). */
  noBurst?: boolean;
  /** The relaying server's process (with its workers): its CPU time over the held phase is reported. */
  serverPid?: number;
  /** The fake upstream's process: its CPU time over the held phase is reported beside the client's. */
  fakePid?: number;
};
/**
 * The relaying server's CPU over the held phase, and what our streams delivered in it; and the CPU
 * the harness itself took meanwhile (the fake upstream and this client), on the same machine.
 */
export type THeldCpu = { seconds: number; wallSeconds: number; chunks: number; streams: number; harness: { fake: number | null; client: number } } | null;
export type TClientResults = { seq: { d: TRun; o: TRun }[]; held: { direct: TRun[]; ours: TRun[]; cpu: THeldCpu }; burst: { direct: TRun[]; ours: TRun[] } };

/** Runs the plan in a child process; resolves with its results. */
export function runTtftClient(plan: TClientPlan): Promise<TClientResults> {
  const child = fork(fileURLToPath(import.meta.url), ["--child"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", (m: TClientResults) => {
      child.kill();
      resolve(m);
    });
    child.once("exit", (code) => reject(new Error(`the bench client exited with ${code}`)));
    child.send(plan);
  });
}

async function run(plan: TClientPlan): Promise<TClientResults> {
  const direct = () => readDirect(plan.fakeBase, plan.key, plan.upstreamBody);
  let turn = 0;
  const ours = () => {
    if (plan.relayUrl) return readDirect(plan.relayUrl, plan.key, plan.upstreamBody, "");
    const u = plan.users[turn++ % plan.users.length];
    return readOurs(plan.webUrl, u.cookie, plan.csrf, u.agentId);
  };
  for (let i = 0; i < 5; i++) await Promise.all([direct(), ours()]); // warm up connections and caches

  const seq: TClientResults["seq"] = [];
  for (let i = 0; i < plan.sequential; i++) {
    // Alternate which goes first so neither always meets a warmer machine.
    if (i % 2) {
      const o = await ours();
      const d = await direct();
      seq.push({ d, o });
    } else {
      const d = await direct();
      const o = await ours();
      seq.push({ d, o });
    }
  }
  const cpuBefore = plan.serverPid ? treeCpuSeconds(plan.serverPid) : null;
  const fakeBefore = plan.fakePid ? treeCpuSeconds(plan.fakePid) : null;
  const clientBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const delivered = { chunks: 0, streams: 0 };
  const oursCounted = () =>
    ours().then((run) => {
      delivered.chunks += run.gaps.length + (run.ok ? 1 : 0);
      delivered.streams++;
      return run;
    });
  const heldRuns = await holdConcurrent(plan.concurrent, plan.held, plan.streamMs, direct, oursCounted);
  const cpuAfter = plan.serverPid ? treeCpuSeconds(plan.serverPid) : null;
  const fakeAfter = plan.fakePid ? treeCpuSeconds(plan.fakePid) : null;
  const clientUsed = process.cpuUsage(clientBefore);
  const harness = { fake: fakeBefore !== null && fakeAfter !== null ? fakeAfter - fakeBefore : null, client: (clientUsed.user + clientUsed.system) / 1e6 };
  const cpu =
    cpuBefore !== null && cpuAfter !== null
      ? { seconds: cpuAfter - cpuBefore, wallSeconds: (performance.now() - wallBefore) / 1000, ...delivered, harness }
      : null;
  const held = { ...heldRuns, cpu };

  if (plan.noBurst) return { seq, held, burst: { direct: [], ours: [] } };
  // A first burst, not counted, leaves every pool as a server under that load keeps it.
  const burst = () => Promise.all(Array.from({ length: plan.concurrent }, () => [direct(), ours()]).flat());
  await burst();
  const all = await burst();
  return { seq, held, burst: { direct: all.filter((_, i) => i % 2 === 0), ours: all.filter((_, i) => i % 2 === 1) } };
}

/**
 * Keeps `level` streams of each kind in flight: a ramp over one stream's length, then a new one
 * for each that ends. Returns the runs that started once every slot had been filled.
 */
async function holdConcurrent(level: number, counted: number, streamMs: number, direct: () => Promise<TRun>, ours: () => Promise<TRun>) {
  const runs = { direct: [] as TRun[], ours: [] as TRun[] };
  let filled = false;
  const lane = async (kind: "direct" | "ours", startAfterMs: number) => {
    await new Promise((r) => setTimeout(r, startAfterMs));
    for (;;) {
      const counting = filled;
      if (counting && runs[kind].length >= counted) return;
      const run = await (kind === "direct" ? direct() : ours());
      if (counting && runs[kind].length < counted) runs[kind].push(run);
    }
  };
  const lanes: Promise<void>[] = [];
  for (let i = 0; i < level; i++) {
    const at = (i * streamMs) / level;
    lanes.push(lane("direct", at), lane("ours", at + streamMs / level / 2));
  }
  setTimeout(() => (filled = true), streamMs + 50);
  await Promise.all(lanes);
  return runs;
}

// One client for both paths: node:http on keep-alive connections, each socket read kept with the
// time it arrived and parsed once the stream has ended. Parsing as the bytes come (fetch, web
// streams, JSON per event) made this process the busiest of the run at 200 streams, and its own
// backlog, not the servers', showed up in both columns. The event a chunk completes is stamped with
// that chunk's arrival, so deferring the parse changes no figure.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
type TRaw = { t0: number; status: number; reads: Array<[number, Buffer]>; error?: string };

function post(url: string, headers: Record<string, string>, body: string): Promise<TRaw> {
  const t0 = performance.now();
  const raw: TRaw = { t0, status: 0, reads: [] };
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: "POST", agent, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        raw.status = res.statusCode ?? 0;
        res.on("data", (chunk: Buffer) => raw.reads.push([performance.now(), chunk]));
        res.on("end", () => resolve(raw));
        res.on("error", (err) => resolve({ ...raw, error: err.message }));
      },
    );
    req.on("error", (err) => resolve({ ...raw, error: err.message }));
    req.end(body);
  });
}

/** The SSE blocks of a stream, each with the arrival time of the read that completed it. */
function* blocksOf(raw: TRaw): Generator<[number, string]> {
  const decoder = new TextDecoder();
  let buffer = "";
  for (const [at, bytes] of raw.reads) {
    buffer += decoder.decode(bytes, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      yield [at, buffer.slice(0, cut)];
      buffer = buffer.slice(cut + 2);
    }
  }
}

function toRun(raw: TRaw, times: number[], content: string, ok: boolean, error?: string): TRun {
  return { ok: ok && times.length > 0, ttft: times[0] - raw.t0, gaps: times.slice(1).map((t, i) => t - times[i]), content, error };
}

async function readDirect(base: string, key: string, body: string, path = "/chat/completions"): Promise<TRun> {
  const raw = await post(`${base}${path}`, { authorization: `Bearer ${key}` }, body);
  if (raw.error || raw.status !== 200) return { ok: false, ttft: NaN, gaps: [], content: "", error: raw.error ?? `direct HTTP ${raw.status}` };
  const times: number[] = [];
  let content = "";
  for (const [at, block] of blocksOf(raw)) {
    if (!block.startsWith("data: ") || block === "data: [DONE]") continue;
    const text = JSON.parse(block.slice(6)).choices?.[0]?.delta?.content;
    if (text) {
      times.push(at);
      content += text;
    }
  }
  return toRun(raw, times, content, true);
}

async function readOurs(base: string, cookie: string, csrf: string, agentId: string): Promise<TRun> {
  const raw = await post(
    `${base}/api/v1/ai_message/send_message/sse`,
    { cookie, "x-csrf-token": csrf },
    JSON.stringify({ agent_id: agentId, content: "hello" }),
  );
  if (raw.error || raw.status !== 200) return { ok: false, ttft: NaN, gaps: [], content: "", error: raw.error ?? `ours HTTP ${raw.status}` };
  const times: number[] = [];
  let content = "";
  let closed = false;
  for (const [at, block] of blocksOf(raw)) {
    if (block.startsWith(":")) continue;
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
    const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null");
    if (event === "error") return { ok: false, ttft: NaN, gaps: [], content, error: JSON.stringify(data).slice(0, 120) };
    if (event === "close") closed = true;
    const text = event === "message" ? data.choices[0].message.content : "";
    if (text) {
      times.push(at);
      content += text;
    }
  }
  return toRun(raw, times, content, closed, closed ? undefined : "no close event");
}

if (process.argv.includes("--child") && process.send) {
  process.once("message", async (plan: TClientPlan) => {
    const results = await run(plan);
    agent.destroy();
    process.send!(results);
  });
}
