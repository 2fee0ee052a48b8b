// Time to first token through our SSE endpoint versus straight to the upstream (issue 4): the fake
// upstream on loopback streams 200 chunks 20 ms apart; each of our requests runs the whole debug
// chat path (session, agent, prompt, rows, gateway routing, relay, censor). Direct and proxied
// requests are interleaved in one run, so both see the same machine.
import crypto from "node:crypto";
import { percentile } from "./lib";
import { startFakeOpenai } from "../tests/fakes/fake-openai";
import { startWeb } from "../tests/helpers/platform";
import { readSseEvents } from "../server/runtime/sse-writer";

const CHUNKS = 200;
const DELAY_MS = 20;
const EXPECTED = Array.from({ length: CHUNKS }, (_, i) => `word${i} `).join("");

type TRun = { ok: boolean; ttft: number; gaps: number[]; content: string; error?: string };

export async function runTtftBench(databaseUrl: string, opts: { sequential?: number; concurrent?: number } = {}) {
  const sequential = Number(process.env.BENCH_SEQ ?? opts.sequential ?? 30);
  const concurrent = Number(process.env.BENCH_CONC ?? opts.concurrent ?? 200);
  const appSecret = process.env.APP_SECRET ?? "bench-app-secret-0123456789abcdef0123456789";
  Object.assign(process.env, { DATABASE_URL: databaseUrl, APP_SECRET: appSecret, LOG_LEVEL: "warn" });
  const fake = await startFakeOpenai();
  const key = `sk-bench-${crypto.randomBytes(3).toString("hex")}`;
  fake.setBehaviour(key, { stream: { chunks: CHUNKS, delayMs: DELAY_MS, noUsage: false } });
  const web = await startWeb({ DATABASE_URL: databaseUrl, APP_SECRET: appSecret, ZELIN_EMBEDDED_DB: process.env.ZELIN_EMBEDDED_DB });
  try {
    const { cookie, csrf, agentId, modelName } = await setUp(web.url, fake.base, key);
    const upstreamBody = JSON.stringify({ model: modelName, stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "hello" }] });
    const direct = () => readDirect(fake.base, key, upstreamBody);
    const ours = () => readOurs(web.url, cookie, csrf, agentId);

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

    // All at once, interleaved: direct, ours, direct, ours...
    const jobs: Promise<TRun>[] = [];
    for (let i = 0; i < concurrent; i++) jobs.push(direct(), ours());
    const all = await Promise.all(jobs);
    const d = all.filter((_, i) => i % 2 === 0);
    const o = all.filter((_, i) => i % 2 === 1);
    report(`${concurrent} concurrent streams (+${concurrent} direct)`, d, o, null);
  } finally {
    await web.stop();
    await fake.close();
  }
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

async function readDirect(base: string, key: string, body: string): Promise<TRun> {
  const t0 = performance.now();
  const times: number[] = [];
  let content = "";
  try {
    const res = await fetch(`${base}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body });
    if (!res.ok || !res.body) return { ok: false, ttft: NaN, gaps: [], content, error: `direct HTTP ${res.status}` };
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
        const text = JSON.parse(line.slice(6)).choices?.[0]?.delta?.content;
        if (text) {
          times.push(performance.now());
          content += text;
        }
      }
    }
  } catch (err) {
    return { ok: false, ttft: NaN, gaps: [], content, error: String((err as Error).message) };
  }
  return { ok: times.length > 0, ttft: times[0] - t0, gaps: times.slice(1).map((t, i) => t - times[i]), content };
}

async function readOurs(base: string, cookie: string, csrf: string, agentId: string): Promise<TRun> {
  const t0 = performance.now();
  const times: number[] = [];
  let content = "";
  let closed = false;
  try {
    const res = await fetch(`${base}/api/v1/ai_message/send_message/sse`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, "x-csrf-token": csrf },
      body: JSON.stringify({ agent_id: agentId, content: "hello" }),
    });
    if (!res.ok || !res.body) return { ok: false, ttft: NaN, gaps: [], content, error: `ours HTTP ${res.status}` };
    for await (const e of readSseEvents(res.body)) {
      if (e.event === "error") return { ok: false, ttft: NaN, gaps: [], content, error: JSON.stringify(e.data).slice(0, 120) };
      if (e.event === "close") closed = true;
      const text = e.event === "message" ? (e.data as any).choices[0].message.content : "";
      if (text) {
        times.push(performance.now());
        content += text;
      }
    }
  } catch (err) {
    return { ok: false, ttft: NaN, gaps: [], content, error: String((err as Error).message) };
  }
  return { ok: closed && times.length > 0, ttft: times[0] - t0, gaps: times.slice(1).map((t, i) => t - times[i]), content, error: closed ? undefined : "no close event" };
}

/** A real account (registered and logged in over HTTP), a model on the fake channel, an agent. */
async function setUp(webUrl: string, fakeBase: string, key: string) {
  const { createModel } = await import("../server/models/models.service");
  const { createChannel } = await import("../server/models/channels.service");
  const { createAgent } = await import("../server/agents/agents.service");
  const { getDb } = await import("../server/db/client");
  const suffix = crypto.randomBytes(3).toString("hex");
  const modelKey = `bench-${suffix}`;
  await createModel({ key: modelKey, display_name: "bench", upstream_model: modelKey });
  await createChannel({ name: `bench ${suffix}`, type: "openai", base_url: fakeBase, key, models: [modelKey], weight: 1 });

  const csrf = "bench-csrf-token";
  const account = `bench${suffix}`;
  const headers = { "content-type": "application/json", cookie: `zl_csrf=${csrf}`, "x-csrf-token": csrf, "x-forwarded-for": `10.99.${Math.floor(Math.random() * 250)}.1` };
  const reg = await fetch(`${webUrl}/api/v1/auth/register`, { method: "POST", headers, body: JSON.stringify({ account, password: "secret123", confirm: "secret123", agreed: true }) });
  const regBody = (await reg.json()) as { status: number; data: { account: { id: string } } };
  if (regBody.status !== 200) throw new Error(`register failed: ${JSON.stringify(regBody)}`);
  const login = await fetch(`${webUrl}/api/v1/auth/login`, { method: "POST", headers, body: JSON.stringify({ account, password: "secret123", agreed: true }) });
  const session = login.headers.getSetCookie().find((c) => c.startsWith("zl_session="))?.split(";")[0];
  if (!session) throw new Error(`login failed: ${await login.text()}`);
  const id = regBody.data.account.id;
  const actor = { id, roles: [], enterpriseId: null };
  const agent = await createAgent(actor, { name: "基准", introduction: "bench agent", model_key: modelKey, prompt: "You are a benchmark.", show_reasoning: false, keep_context: 0 });
  await getDb().$disconnect();
  return { cookie: `zl_csrf=${csrf}; ${session}`, csrf, agentId: agent.id, modelName: modelKey };
}
