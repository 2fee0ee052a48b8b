// Time to first token through our SSE endpoint versus straight to the upstream (issue 4): the fake
// upstream on loopback streams 200 chunks 20 ms apart; each of our requests runs the whole debug
// chat path (session, agent, prompt, rows, gateway routing, relay, censor). Direct and proxied
// requests are interleaved in one run, so both see the same machine. Rows: one at a time; 200
// streams of each kind held open together (the issue's "at 200 concurrent streams"); 200 of each
// sent in the same instant.
import crypto from "node:crypto";
import http from "node:http";
import { percentile } from "./lib";
import { startFakeOpenaiProcess } from "../tests/fakes/fake-openai-process";
import { startWeb } from "../tests/helpers/platform";

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 200);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 20);
const EXPECTED = Array.from({ length: CHUNKS }, (_, i) => `word${i} `).join("");

type TRun = { ok: boolean; ttft: number; gaps: number[]; content: string; error?: string };

export async function runTtftBench(databaseUrl: string, opts: { sequential?: number; concurrent?: number } = {}) {
  const sequential = Number(process.env.BENCH_SEQ ?? opts.sequential ?? 30);
  const concurrent = Number(process.env.BENCH_CONC ?? opts.concurrent ?? 200);
  const appSecret = process.env.APP_SECRET ?? "bench-app-secret-0123456789abcdef0123456789";
  Object.assign(process.env, { DATABASE_URL: databaseUrl, APP_SECRET: appSecret, LOG_LEVEL: "warn" });
  // The fake runs in a process of its own: the client here, the fake and the web server each get
  // their own event loop, as an upstream and its callers would.
  const fake = await startFakeOpenaiProcess();
  const key = `sk-bench-${crypto.randomBytes(3).toString("hex")}`;
  await fake.setBehaviour(key, { stream: { chunks: CHUNKS, delayMs: DELAY_MS, noUsage: false } });
  const web = await startWeb({ DATABASE_URL: databaseUrl, APP_SECRET: appSecret, ZELIN_EMBEDDED_DB: process.env.ZELIN_EMBEDDED_DB });
  try {
    const { users, csrf, modelName } = await setUp(web.url, fake.base, key, 5 + sequential + 5 * concurrent + heldCount(concurrent));
    const upstreamBody = JSON.stringify({ model: modelName, stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "hello" }] });
    const direct = () => readDirect(fake.base, key, upstreamBody);
    let turn = 0;
    const ours = () => {
      const u = users[turn++ % users.length];
      return readOurs(web.url, u.cookie, csrf, u.agentId);
    };

    for (let i = 0; i < 5; i++) await Promise.all([direct(), ours()]); // warm up connections and caches

    console.log(`\nchat stream: time to first token, fake upstream ${CHUNKS} chunks ${DELAY_MS} ms apart (${databaseUrl.includes("127.0.0.1:5432") || !process.env.ZELIN_EMBEDDED_DB ? "Postgres" : "embedded PGlite"})`);
    const seq: { d: TRun; o: TRun }[] = [];
    for (let i = 0; i < sequential; i++) {
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
    report(`sequential (${sequential} pairs)`, seq.map((p) => p.d), seq.map((p) => p.o), seq.map((p) => p.o.ttft - p.d.ttft));

    // At 200 concurrent streams: 200 of ours and 200 direct held open together, as a busy
    // server carries them. They start spread over one stream's length (as independent users
    // arrive), and each that ends is replaced by a new one of its kind, so every counted stream
    // starts while the other 399 are relaying chunks. Counted: the streams started after the level
    // was first reached, for a few stream lengths.
    const held = await holdConcurrent(concurrent, heldCount(concurrent), direct, ours);
    report(`${concurrent} concurrent streams held (+${concurrent} direct), ${held.ours.length} counted each`, held.direct, held.ours, null);

    // The harsher case, for comparison: all 200 (and 200 direct) sent in the same instant. Each
    // waits for the ones ahead of it in the one event loop, so this measures the queue of the
    // burst, about (requests ahead) x (CPU per request), more than what one stream adds. A first
    // burst, not counted, leaves every pool as a server under that load keeps it.
    const burst = () => Promise.all(Array.from({ length: concurrent }, () => [direct(), ours()]).flat());
    await burst();
    const jobs: Promise<TRun>[] = [];
    for (let i = 0; i < concurrent; i++) jobs.push(direct(), ours());
    const all = await Promise.all(jobs);
    const d = all.filter((_, i) => i % 2 === 0);
    const o = all.filter((_, i) => i % 2 === 1);
    report(`burst: ${concurrent} sent at once (+${concurrent} direct)`, d, o, null);
  } finally {
    agent.destroy();
    await web.stop();
    await fake.close();
  }
}

/** Streams of each kind counted at the held level: three stream lengths' worth. */
function heldCount(level: number) {
  return Number(process.env.BENCH_HELD ?? 3 * level);
}

/**
 * Keeps `level` streams of each kind in flight: a ramp over one stream's length, then a new one
 * for each that ends. Returns the runs that started once every slot had been filled.
 */
async function holdConcurrent(level: number, counted: number, direct: () => Promise<TRun>, ours: () => Promise<TRun>) {
  const streamMs = CHUNKS * DELAY_MS;
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

function report(label: string, direct: TRun[], ours: TRun[], pairDiffs: number[] | null) {
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
  const identical = [...direct, ...ours].every((r) => !r.ok || r.content === EXPECTED);
  console.log(`  ${label}`);
  console.log(`    TTFT direct  p50 ${f(percentile(dT, 50))}  p99 ${f(percentile(dT, 99))}`);
  console.log(`    TTFT ours    p50 ${f(percentile(oT, 50))}  p99 ${f(percentile(oT, 99))}`);
  console.log(`    added TTFT   p50 ${f(added50)}  p99 ${f(added99)}${pairDiffs ? "  (per pair)" : "  (ours minus direct, same percentile)"}`);
  console.log(`    gap between chunks: direct mean ${f(mean(dGaps))} p99 ${f(percentile(dGaps, 99))}; ours mean ${f(mean(oGaps))} p99 ${f(percentile(oGaps, 99))}; added mean ${f(mean(oGaps) - mean(dGaps))}`);
  console.log(`    errors ${errors.length}${errors.length ? ` (${[...new Set(errors.map((e) => e.error))].slice(0, 3).join("; ")})` : ""}; content identical: ${identical ? "yes" : "NO"}`);
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
    const req = http.request(url, { method: "POST", agent, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      raw.status = res.statusCode ?? 0;
      res.on("data", (chunk: Buffer) => raw.reads.push([performance.now(), chunk]));
      res.on("end", () => resolve(raw));
      res.on("error", (err) => resolve({ ...raw, error: err.message }));
    });
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

async function readDirect(base: string, key: string, body: string): Promise<TRun> {
  const raw = await post(`${base}/chat/completions`, { authorization: `Bearer ${key}` }, body);
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
  const raw = await post(`${base}/api/v1/ai_message/send_message/sse`, { cookie, "x-csrf-token": csrf }, JSON.stringify({ agent_id: agentId, content: "hello" }));
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

/**
 * Real accounts (registered and logged in over HTTP), a model on the fake channel, an agent each.
 * Every reply costs its channel fee and counts against the edition's chats per day (issue 7), so
 * each account is flagship (200 a day) with 10 Z of gift credit, and there are enough of them for
 * every request of the run (`chats`): requests take them in turn.
 */
async function setUp(webUrl: string, fakeBase: string, key: string, chats: number) {
  const { createModel } = await import("../server/models/models.service");
  const { createChannel } = await import("../server/models/channels.service");
  const { createAgent } = await import("../server/agents/agents.service");
  const { post, platform, wallet } = await import("../server/money/ledger.service");
  const { getDb } = await import("../server/db/client");
  const suffix = crypto.randomBytes(3).toString("hex");
  const modelKey = `bench-${suffix}`;
  await createModel({ key: modelKey, display_name: "bench", upstream_model: modelKey });
  await createChannel({ name: `bench ${suffix}`, type: "openai", base_url: fakeBase, key, models: [modelKey], weight: 1 });

  const csrf = "bench-csrf-token";
  const users: { cookie: string; agentId: string }[] = [];
  const needed = Math.ceil(chats / 150);
  for (let i = 0; i < needed; i++) {
    const account = `bench${suffix}${i}`;
    const headers = { "content-type": "application/json", cookie: `zl_csrf=${csrf}`, "x-csrf-token": csrf, "x-forwarded-for": `10.99.${Math.floor(Math.random() * 250)}.${i + 1}` };
    const reg = await fetch(`${webUrl}/api/v1/auth/register`, { method: "POST", headers, body: JSON.stringify({ account, password: "secret123", confirm: "secret123", agreed: true }) });
    const regBody = (await reg.json()) as { status: number; data: { account: { id: string } } };
    if (regBody.status !== 200) throw new Error(`register failed: ${JSON.stringify(regBody)}`);
    const login = await fetch(`${webUrl}/api/v1/auth/login`, { method: "POST", headers, body: JSON.stringify({ account, password: "secret123", agreed: true }) });
    const session = login.headers.getSetCookie().find((c) => c.startsWith("zl_session="))?.split(";")[0];
    if (!session) throw new Error(`login failed: ${await login.text()}`);
    const id = regBody.data.account.id;
    await getDb().account.update({ where: { id }, data: { edition: "flagship", editionExpiresAt: new Date(Date.now() + 30 * 86_400_000) } });
    await post({ key: `bench-fund:${id}`, kind: "bonus", accountId: id, legs: [{ account: platform("platform_promotion"), amount: -10_000_000 }, { account: wallet("gift", id), amount: 10_000_000 }] });
    const actor = { id, roles: [], enterpriseId: null };
    const agent = await createAgent(actor, { name: "基准", introduction: "bench agent", model_key: modelKey, prompt: "You are a benchmark.", show_reasoning: false, keep_context: 0 });
    users.push({ cookie: `zl_csrf=${csrf}; ${session}`, agentId: agent.id });
  }
  await getDb().$disconnect();
  return { users, csrf, modelName: modelKey };
}
