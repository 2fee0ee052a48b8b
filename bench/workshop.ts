// The workshop engine's cost. Against the loopback fake model (answering at once), one turn of a
// workshop run (read the run, decide the speaker, write the turn's message, the chat pipeline, the
// reply written back) beside one plain chat turn of the same agent through the console's path (read
// the session and agent, the pipeline, the dialogue's rows): the difference is what the engine
// adds per turn (goal: at most 5 ms at p50). Then the host model calls per turn in each speech mode
// (goal: none in sequential and in free speech without @mentions, at most one in on-demand).
import crypto from "node:crypto";
import os from "node:os";
import { percentile } from "./lib";
import { startFakeOpenai } from "../tests/fakes/fake-openai";
import { ZCreateChannelInput, ZCreateModelInput } from "../server/models/models.schema";

// Under the flagship edition's 200 chat replies a day, which the plain chat turns count against.
const TURNS = Number(process.env.BENCH_WORKSHOP_TURNS ?? 150);

export async function runWorkshopBench(databaseUrl: string) {
  const appSecret = process.env.APP_SECRET ?? "bench-app-secret-0123456789abcdef0123456789";
  Object.assign(process.env, { DATABASE_URL: databaseUrl, APP_SECRET: appSecret, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  const { getDb } = await import("../server/db/client");
  const { createModel } = await import("../server/models/models.service");
  const { createChannel } = await import("../server/models/channels.service");
  const { createAgent, publishAgent } = await import("../server/agents/agents.service");
  const { ZAgentInput } = await import("../server/agents/agents.schema");
  const { startSession } = await import("../server/auth/session.service");
  const { post, wallet } = await import("../server/money/ledger.service");
  const { readConsoleTurn, buildTurn, runTurn } = await import("../server/turns/index");
  const { wireTurnDependencies } = await import("../server/wiring/turn-dependencies");
  const { createWorkshop, saveDefinition } = await import("../server/workshops/workshops.service");
  const { startDebugRun } = await import("../server/workshops/runs.service");
  const { newCarry, stepRun } = await import("../server/workshops/engine/run-engine");
  const { ZDefinition } = await import("../server/workshops/workshops.schema");
  wireTurnDependencies();
  const db = getDb();
  const fake = await startFakeOpenai({ record: false });
  const run = crypto.randomBytes(3).toString("hex");
  const where = process.env.ZELIN_EMBEDDED_DB === "1" ? "embedded PGlite" : "PostgreSQL";
  console.log(`\nworkshop: ${TURNS} turns each way (${where}; ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)} at start)`);

  const { id: accountId } = await db.account.create({
    data: { account: `wb${run}`, nickname: "Workshop bench", edition: "flagship", editionExpiresAt: new Date(Date.now() + 86_400_000) },
    select: { id: true },
  });
  const actor = { id: accountId, roles: [] as never[], enterpriseId: null };
  await post({
    key: `bench:${run}:fund`,
    kind: "topup",
    accountId,
    legs: [
      { account: "payment_clearing", amount: -1_000_000_000 },
      { account: wallet("spendable", accountId), amount: 1_000_000_000 },
    ],
  });
  const modelKey = `bench-ws-${run}`;
  await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "bench" }));
  const agentOf = async (name: string, key: string, reply: (body: { stream?: boolean }) => string) => {
    await createChannel(ZCreateChannelInput.parse({ name: `bench ${key}`, type: "openai", base_url: fake.base, key, models: [modelKey], weight: 1 }));
    fake.setBehaviour(key, { reply, stream: { chunks: 3 } });
    const agent = await createAgent(actor, ZAgentInput.parse({ name, introduction: "bench", model_key: modelKey }));
    await publishAgent(actor, { id: agent.id });
    return agent.id;
  };
  // One channel serves the model: every agent answers through it, the host with its JSON.
  const alice = await agentOf("Alice", `sk-wb-${run}`, (body) =>
    // Each contribution its own words: alike ones would end the run as a loop.
    body.stream ? `Point ${crypto.randomBytes(12).toString("hex")}` : JSON.stringify({ next: "Alice", instruction: "Go on" }),
  );
  const bob = await createAgent(actor, ZAgentInput.parse({ name: "Bob", introduction: "bench", model_key: modelKey }));
  await publishAgent(actor, { id: bob.id });
  const host = await createAgent(actor, ZAgentInput.parse({ name: "Host", introduction: "bench", model_key: modelKey }));
  await publishAgent(actor, { id: host.id });

  const workshopOf = async (node: Record<string, unknown>) => {
    const { id } = await createWorkshop(actor, { name: `bench ${run}`, description: "", icon_url: "" });
    const definition = ZDefinition.parse({
      roles: [
        { name: "Host", type: "agent", agent_id: host.id },
        { name: "Alice", type: "agent", agent_id: alice },
        { name: "Bob", type: "agent", agent_id: bob.id },
      ],
      nodes: [{ name: "n", roles: ["Alice", "Bob"], ...node }],
      limits: { max_turns: 200, max_minutes: 120 },
    });
    await saveDefinition(actor, { id, revision: 1, definition });
    return id;
  };
  /** Steps a run of the workshop to its end; each step that gave a turn is a sample. */
  const stepThrough = async (workshopId: string, samples: number[] | null) => {
    const { id } = await startDebugRun(actor, workshopId, { topic: "Bench topic" }, "en");
    let turns = 0;
    // As a worker carries it: what one step read is kept for the next.
    const carried = newCarry();
    for (;;) {
      const t0 = performance.now();
      const result = await stepRun(id, carried);
      if (result !== "continue") break;
      samples?.push(performance.now() - t0);
      turns++;
    }
    const row = await db.workshopRun.findUniqueOrThrow({ where: { id }, select: { hostCalls: true } });
    return { turns, hostCalls: row.hostCalls };
  };

  // Warm both paths first (module caches, routing, prepared statements).
  const sequential = await workshopOf({ speech_mode: "sequential", max_rounds: 10, max_cycles: 5 });
  await stepThrough(sequential, null);
  const token = (await startSession(accountId)).token;
  const chatOnce = async () => {
    const input = { agent_id: alice, content: "Bench question", variables: {}, ctype: 0, ufids: [], images: [] };
    const { account, ctx } = await readConsoleTurn(token, input, "debug");
    const turn = await buildTurn(account, input, ctx);
    await new Promise<void>((resolve) => {
      const controller = new AbortController();
      void runTurn(
        turn,
        {
          signal: controller.signal,
          begin: () => undefined,
          delta: () => undefined,
          tool: () => undefined,
          finish: () => resolve(),
          censor: () => resolve(),
          fail: (e) => {
            console.log("chat turn failed", e.description);
            resolve();
          },
        },
        "en",
      );
    });
  };
  await chatOnce();

  const chat: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const t0 = performance.now();
    await chatOnce();
    chat.push(performance.now() - t0);
  }
  const engine: number[] = [];
  while (engine.length < TURNS) await stepThrough(sequential, engine);

  const p = (xs: number[], q: number) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      q,
    );
  console.log(`  plain chat turn (console path)   p50 ${p(chat, 50).toFixed(2)} ms  p95 ${p(chat, 95).toFixed(2)} ms`);
  console.log(`  workshop turn (engine step)      p50 ${p(engine, 50).toFixed(2)} ms  p95 ${p(engine, 95).toFixed(2)} ms`);
  console.log(`  engine's added time per turn     p50 ${(p(engine, 50) - p(chat, 50)).toFixed(2)} ms  (goal: at most 5 ms)`);

  const modes: Array<[string, Record<string, unknown>]> = [
    ["sequential", { speech_mode: "sequential", max_rounds: 10, max_cycles: 5 }],
    ["free, no @mentions", { speech_mode: "free", max_rounds: 10, max_cycles: 5 }],
    ["on-demand", { speech_mode: "on_demand", host: "Host", max_rounds: 10, max_cycles: 10, allow_repeat: true }],
  ];
  for (const [label, node] of modes) {
    const r = await stepThrough(await workshopOf(node), null);
    console.log(`  host calls per turn, ${label.padEnd(20)} ${(r.hostCalls / Math.max(1, r.turns)).toFixed(2)}  (${r.hostCalls} calls in ${r.turns} turns)`);
  }
  await fake.close();
}
