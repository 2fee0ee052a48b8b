// Time to first token through our SSE endpoint versus straight to the upstream: the fake
// upstream on loopback streams 200 chunks 20 ms apart; each of our requests runs the whole debug
// chat path (session, agent, prompt, rows, gateway routing, relay, censor). Direct and proxied
// requests are interleaved in one run, so both see the same machine. Rows: one at a time; 200
// streams of each kind held open together (the held figure); 200 of each
// sent in the same instant.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { percentile } from "./lib";
import { reportCpu, reportRow } from "./ttft-report";
import { startFakeOpenaiProcess } from "../tests/fakes/fake-openai-process";
import { parseEnv, webWorkerCount } from "../server/env";
import { startWeb } from "../tests/helpers/platform";
import { runTtftClient } from "./ttft-client";
import { reportTrace } from "./ttft-trace-report";
import { WARM_UP_TURNS, warmUp } from "./ttft-warm-up";
import { ZCreateChannelInput, ZCreateModelInput } from "../server/models/models.schema";

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 200);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 20);
const EXPECTED = Array.from({ length: CHUNKS }, (_, i) => `word${i} `).join("");

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
  // The web process as production runs it on this machine: a worker per CPU unless WEB_CONCURRENCY says otherwise.
  const webWorkers = process.env.WEB_CONCURRENCY ?? "auto";
  // BENCH_TRACE=1: stage stamps of every turn inside the web (bench/ttft-trace.ts), summarised at the end.
  const traceDir = process.env.BENCH_TRACE === "1" ? fs.mkdtempSync(path.join(os.tmpdir(), "zelin-ttft-trace-")) : null;
  if (traceDir) process.env.ZELIN_EXTRA_EXEC_ARGV = `${process.env.ZELIN_EXTRA_EXEC_ARGV ?? ""} --import ./bench/ttft-trace.ts`;
  const web = await startWeb({
    DATABASE_URL: databaseUrl,
    APP_SECRET: appSecret,
    ZELIN_EMBEDDED_DB: process.env.ZELIN_EMBEDDED_DB,
    WEB_CONCURRENCY: webWorkers,
    BENCH_TRACE_DIR: traceDir ?? undefined,
  });
  await web.ready;
  try {
    const { users, csrf, modelName } = await setUp(web.url, fake.base, key, WARM_UP_TURNS + 5 + sequential + 5 * concurrent + heldCount(concurrent));
    // The web as a server in service finds it: its per-turn code compiled (bench/ttft-warm-up.ts).
    await warmUp(fake, key, { chunks: CHUNKS, delayMs: DELAY_MS }, async (i) => {
      const u = users[i % users.length];
      const res = await fetch(`${web.url}/api/v1/ai_message/send_message/sse`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: u.cookie, "x-csrf-token": csrf },
        body: JSON.stringify({ agent_id: u.agentId, content: "hello" }),
      });
      const text = await res.text();
      return { ok: res.ok && text.includes("event: close"), text };
    });
    const upstreamBody = JSON.stringify({
      model: modelName,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hello" }],
    });
    const streamMs = CHUNKS * DELAY_MS;
    const r = await runTtftClient({
      webUrl: web.url,
      fakeBase: fake.base,
      key,
      upstreamBody,
      csrf,
      users,
      sequential,
      concurrent,
      held: heldCount(concurrent),
      streamMs,
      serverPid: web.child.pid,
      fakePid: fake.pid,
    });

    const workers = webWorkerCount(parseEnv({ WEB_CONCURRENCY: webWorkers }));
    console.log(
      `\nchat stream: time to first token, fake upstream ${CHUNKS} chunks ${DELAY_MS} ms apart (${databaseUrl.includes("127.0.0.1:5432") || !process.env.ZELIN_EMBEDDED_DB ? "Postgres" : "embedded PGlite"}; web: ${workers} worker${workers === 1 ? "" : "s"}, WEB_CONCURRENCY=${webWorkers}; ${os.availableParallelism()} CPUs shared with the fake and the client)`,
    );
    reportRow(
      EXPECTED,
      `sequential (${sequential} pairs)`,
      r.seq.map((p) => p.d),
      r.seq.map((p) => p.o),
      r.seq.map((p) => p.o.ttft - p.d.ttft),
    );
    // Pairs alternate d,o then o,d: half of our requests follow one of ours (the web process and its
    // database connection busy a moment ago), half follow a direct stream, when they sat idle for a
    // whole stream while the fake worked. On this VM an idle process wakes slowly; both are shown.
    const added = (odd: number) =>
      r.seq
        .filter((_, i) => i % 2 === odd)
        .map((p) => p.o.ttft - p.d.ttft)
        .sort((a, b) => a - b);
    console.log(
      `    added TTFT p50 after one of ours ${percentile(added(1), 50).toFixed(2)} ms; after a direct stream ${percentile(added(0), 50).toFixed(2)} ms`,
    );
    // At 200 concurrent streams: 200 of ours and 200 direct held open together, as a busy
    // server carries them. They start spread over one stream's length (as independent users
    // arrive), and each that ends is replaced by a new one of its kind, so every counted stream
    // starts while the other 399 are relaying chunks. Counted: the streams started after the level
    // was first reached, for a few stream lengths.
    reportRow(EXPECTED, `${concurrent} concurrent streams held (+${concurrent} direct), ${r.held.ours.length} counted each`, r.held.direct, r.held.ours, null);
    reportCpu("web", r.held.cpu);
    // The harsher case, for comparison: all 200 (and 200 direct) sent in the same instant. Each
    // waits for the ones ahead of it in the one event loop, so this measures the queue of the
    // burst, about (requests ahead) x (CPU per request), more than what one stream adds.
    reportRow(EXPECTED, `burst: ${concurrent} sent at once (+${concurrent} direct)`, r.burst.direct, r.burst.ours, null);
    if (traceDir) {
      await new Promise((resolve) => setTimeout(resolve, 2500)); // the processes write what they have every 2 s
      reportTrace(traceDir, { sequential, burst: 2 * concurrent });
    }
  } finally {
    await web.stop();
    await fake.close();
  }
}

/** Streams of each kind counted at the held level: three stream lengths' worth. */
function heldCount(level: number) {
  return Number(process.env.BENCH_HELD ?? 3 * level);
}

/**
 * Real accounts (registered and logged in over HTTP), a model on the fake channel, an agent each.
 * Every reply costs its channel fee and counts against the edition's chats per day, so
 * each account is flagship (200 a day) with 10 Z of gift credit, and there are enough of them for
 * every request of the run (`chats`): requests take them in turn.
 */
async function setUp(webUrl: string, fakeBase: string, key: string, chats: number) {
  const { createModel } = await import("../server/models/models.service");
  const { createChannel } = await import("../server/models/channels.service");
  const { createAgent } = await import("../server/agents/agents.service");
  const { ZAgentInput } = await import("../server/agents/agents.schema");
  const { post, platform, wallet } = await import("../server/money/ledger.service");
  const { getDb } = await import("../server/db/client");
  const suffix = crypto.randomBytes(3).toString("hex");
  const modelKey = `bench-${suffix}`;
  await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "bench", upstream_model: modelKey }));
  await createChannel(ZCreateChannelInput.parse({ name: `bench ${suffix}`, type: "openai", base_url: fakeBase, key, models: [modelKey], weight: 1 }));

  const csrf = "bench-csrf-token";
  const users: { cookie: string; agentId: string }[] = [];
  const needed = Math.ceil(chats / 150);
  for (let i = 0; i < needed; i++) {
    const account = `bench${suffix}${i}`;
    const headers = {
      "content-type": "application/json",
      cookie: `zl_csrf=${csrf}`,
      "x-csrf-token": csrf,
      "x-forwarded-for": `10.99.${Math.floor(Math.random() * 250)}.${i + 1}`,
    };
    const reg = await fetch(`${webUrl}/api/v1/auth/register`, {
      method: "POST",
      headers,
      body: JSON.stringify({ account, password: "secret123", confirm: "secret123", agreed: true }),
    });
    const regBody = (await reg.json()) as { status: number; data: { account: { id: string } } };
    if (regBody.status !== 200) throw new Error(`register failed: ${JSON.stringify(regBody)}`);
    const login = await fetch(`${webUrl}/api/v1/auth/login`, {
      method: "POST",
      headers,
      body: JSON.stringify({ account, password: "secret123", agreed: true }),
    });
    const session = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("zl_session="))
      ?.split(";")[0];
    if (!session) throw new Error(`login failed: ${await login.text()}`);
    const id = regBody.data.account.id;
    await getDb().account.update({ where: { id }, data: { edition: "flagship", editionExpiresAt: new Date(Date.now() + 30 * 86_400_000) } });
    await post({
      key: `bench-fund:${id}`,
      kind: "bonus",
      accountId: id,
      legs: [
        { account: platform("platform_promotion"), amount: -10_000_000 },
        { account: wallet("gift", id), amount: 10_000_000 },
      ],
    });
    const actor = { id, roles: [], enterpriseId: null };
    const agent = await createAgent(
      actor,
      ZAgentInput.parse({
        name: "基准",
        introduction: "bench agent",
        model_key: modelKey,
        prompt: "You are a benchmark.",
        show_reasoning: false,
        keep_context: 0,
      }),
    );
    users.push({ cookie: `zl_csrf=${csrf}; ${session}`, agentId: agent.id });
  }
  await getDb().$disconnect();
  return { users, csrf, modelName: modelKey };
}
