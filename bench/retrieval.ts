// Retrieval over 100,000 passages: one account with ten training sets of 10,000 passages
// (four Q&A sets, six document sets) used by one agent. The hand-written labelled targets hide
// among generated filler (bench/data/retrieval-corpus.ts). Passages load through the indexing
// code path (segmenting, insertPassages, vectors from the embedding channel, here the fake
// upstream's hashed bag of words), then 8 concurrent callers ask the labelled questions through
// retrieve(): Q&A (the Q&A sets only), full text alone, and hybrid; p50/p95 and hit@5.
import crypto from "node:crypto";
import os from "node:os";
import { measure, printRow } from "./lib";
import { listTargets, makeFiller, seededRandom, type TCorpusPassage, type TLabelledQuestion } from "./data/retrieval-corpus";
import { startFakeOpenaiProcess } from "../tests/fakes/fake-openai-process";
import { ZCreateChannelInput, ZCreateModelInput } from "../server/models/models.schema";

const SETS = 10;
const QA_SETS = 4;
const CONCURRENCY = 8;

export async function runRetrievalBench(databaseUrl: string, opts: { passages?: number } = {}) {
  const total = Number(process.env.BENCH_RETRIEVAL_PASSAGES ?? opts.passages ?? 100_000);
  const perSet = Math.ceil(total / SETS);
  const appSecret = process.env.APP_SECRET ?? "bench-app-secret-0123456789abcdef0123456789";
  Object.assign(process.env, { DATABASE_URL: databaseUrl, APP_SECRET: appSecret, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  const { getDb } = await import("../server/db/client");
  const passages = await import("../server/knowledge/passages.repository");
  const { toTsvectorLiteral } = await import("../server/knowledge/text-segmenter");
  const { retrieve, searchVectorsInApp, settleVectorIndexes } = await import("../server/knowledge/retrieval.service");
  const { listRetrievableSets } = await import("../server/knowledge/indexing.repository");
  const { getEmbedder } = await import("../server/models/embeddings.service");
  const { createModel } = await import("../server/models/models.service");
  const { createChannel } = await import("../server/models/channels.service");
  const { createAgent } = await import("../server/agents/agents.service");
  const { ZAgentInput } = await import("../server/agents/agents.schema");
  const db = getDb();
  // The embedding provider in a process of its own, as a real one is not on our event loop.
  const fake = await startFakeOpenaiProcess();
  const suffix = crypto.randomBytes(3).toString("hex");
  const chatModel = `bench-chat-${suffix}`;
  const embeddingModel = `bench-emb-${suffix}`;
  const previousEmbeddingModel = process.env.KNOWLEDGE_EMBEDDING_MODEL;
  let accountId: string | null = null;
  let channelId: string | null = null;

  const where = process.env.ZELIN_EMBEDDED_DB === "1" ? "embedded PGlite" : "PostgreSQL";
  console.log(
    `\nretrieval: ${total.toLocaleString("en")} passages in ${SETS} sets, ${CONCURRENCY} concurrent queries (${where}; ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)} at start)`,
  );
  try {
    // The embedding channel, as an operator would configure it, and a chat model for the agent.
    await createModel(ZCreateModelInput.parse({ key: chatModel, display_name: "bench chat", upstream_model: chatModel }));
    await createModel(ZCreateModelInput.parse({ key: embeddingModel, display_name: "bench embedding", kind: "embedding", upstream_model: embeddingModel }));
    const channel = await createChannel(
      ZCreateChannelInput.parse({
        name: `bench emb ${suffix}`,
        type: "openai",
        base_url: fake.base,
        key: `sk-bench-${suffix}`,
        models: [chatModel, embeddingModel],
        weight: 1,
      }),
    );
    channelId = channel.id;
    process.env.KNOWLEDGE_EMBEDDING_MODEL = embeddingModel;
    const embedder = await getEmbedder();
    if (!embedder) throw new Error("the bench embedding model is not configured");

    const account = await db.account.create({
      data: { account: `bench${suffix}`, nickname: "Bench", edition: "flagship", editionExpiresAt: new Date(Date.now() + 86_400_000) },
      select: { id: true },
    });
    accountId = account.id;
    const sets = [];
    for (let s = 0; s < SETS; s++) {
      const type = s < QA_SETS ? "standard" : "smart";
      sets.push(
        await db.trainingSet.create({
          data: { ownerAccountId: account.id, name: `${type === "standard" ? "问答" : "文档"} ${s + 1}`, type, state: "training", progress: 0 },
          select: { id: true, type: true },
        }),
      );
    }

    // The corpus: targets spread over the sets of their kind at random places among the filler.
    const { passages: targets, questions } = listTargets();
    const random = seededRandom(20260514);
    const bySet: TCorpusPassage[][] = sets.map(() => []);
    const qaTargets = targets.filter((t) => t.kind === "qa");
    const docTargets = targets.filter((t) => t.kind === "doc");
    qaTargets.forEach((t, i) => bySet[i % QA_SETS].push(t));
    docTargets.forEach((t, i) => bySet[QA_SETS + (i % (SETS - QA_SETS))].push(t));
    let n = 0;
    for (let s = 0; s < SETS; s++) {
      const kind = s < QA_SETS ? "qa" : "doc";
      while (bySet[s].length < perSet) bySet[s].push(makeFiller(random, n++, kind));
      shuffle(bySet[s], random);
    }
    const targetKeyOf = new Map(targets.map((t) => [`${t.title}\u0000${t.content}`, t.key]));

    // Load as the indexing job does: segment, insert, embed (the fake channel over loopback).
    let segmentMs = 0;
    let insertMs = 0;
    let embedMs = 0;
    let chars = 0;
    for (const [s, set] of sets.entries()) {
      let t0 = performance.now();
      let doc = "";
      const rows = bySet[s].map((p, ordinal) => {
        chars += [...p.title].length + [...p.content].length;
        if (p.kind === "qa")
          return {
            qaItemId: crypto.randomUUID(),
            ordinal,
            title: p.title,
            content: p.content,
            lexemes: toTsvectorLiteral([
              { text: p.title, weight: "A" },
              { text: p.content, weight: "D" },
            ]),
          };
        // A document of a few passages in a row, as chunkText splits an upload.
        if (ordinal % 5 === 0) doc = crypto.randomUUID();
        return { documentId: doc, ordinal, title: p.title, content: p.content, lexemes: toTsvectorLiteral([{ text: p.content, weight: "D" }]) };
      });
      segmentMs += performance.now() - t0;
      t0 = performance.now();
      await db.$transaction(
        async (tx) => {
          await passages.deletePassagesOfSet(set.id, tx);
          await passages.insertPassages(set.id, rows, tx);
        },
        { timeout: 300_000 },
      );
      insertMs += performance.now() - t0;
      t0 = performance.now();
      for (;;) {
        const todo = await passages.listPassagesWithoutEmbedding(set.id, embedder.modelKey, 1000);
        if (!todo.length) break;
        const vectors = await embedder.embed(todo.map((r) => `${r.title}\n${r.content}`));
        await passages.setEmbeddings(
          todo.map((r, i) => ({ id: r.id, embedding: vectors[i] })),
          embedder.modelKey,
        );
      }
      embedMs += performance.now() - t0;
      await db.trainingSet.update({ where: { id: set.id }, data: { state: "done", progress: 100, charCount: 0, indexedAt: new Date() } });
    }
    // What the indexing job does after a set is trained (the full-text index's pending entries
    // merged) and what autovacuum does shortly after a bulk load: the dead row versions that
    // storing the vectors left removed (a server's autovacuum starts once a fifth of a table's
    // rows are dead), and the statistics the planner and the ranking read.
    const t0 = performance.now();
    await passages.mergePendingFullTextEntries();
    await db.$executeRawUnsafe(process.env.ZELIN_EMBEDDED_DB === "1" ? "ANALYZE knowledge_passage" : "VACUUM (ANALYZE) knowledge_passage");
    // The load's dirty pages written out now rather than by a checkpoint in the middle of the timings.
    if (process.env.ZELIN_EMBEDDED_DB !== "1") await db.$executeRawUnsafe("CHECKPOINT");
    const analyzeMs = performance.now() - t0;
    const count = Number(
      (await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM knowledge_passage WHERE training_set_id = ANY(${sets.map((s) => s.id)}::text[])`)[0].n,
    );
    const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `  loaded ${count.toLocaleString("en")} passages (${(chars / 1e6).toFixed(1)} M characters): segmenting ${sec(segmentMs)}, inserting ${sec(insertMs)}, embedding ${sec(embedMs)} (${(count / (embedMs / 1000)).toFixed(0)}/s), merge, vacuum and analyze ${sec(analyzeMs)}`,
    );

    const agent = await createAgent(
      { id: account.id, roles: [], enterpriseId: null },
      ZAgentInput.parse({
        name: "检索基准",
        introduction: "retrieval bench",
        model_key: chatModel,
        prompt: "Answer from the training sets.",
        show_reasoning: false,
        keep_context: 0,
        training_set_ids: sets.map((s) => s.id),
      }),
    );
    const qaSetIds = sets.filter((s) => s.type === "standard").map((s) => s.id);
    const allSetIds = sets.map((s) => s.id);

    type TRun = { label: string; setIds: string[]; mode: "hybrid" | "fulltext"; questions: TLabelledQuestion[] };
    const runs: TRun[] = [
      { label: "Q&A (4 Q&A sets, hybrid)", setIds: qaSetIds, mode: "hybrid", questions: questions.filter((q) => q.targetKind === "qa") },
      { label: "full text (10 sets)", setIds: allSetIds, mode: "fulltext", questions },
      { label: "hybrid: full text + vectors (10 sets)", setIds: allSetIds, mode: "hybrid", questions },
    ];
    const ask = (run: TRun, q: TLabelledQuestion) =>
      retrieve({ accountId: account.id, agentId: agent.id, agentVersionId: "", trainingSetIds: run.setIds, query: q.text, limit: 5, mode: run.mode });
    // Warm up: the segmenter's dictionary, connections, plans.
    for (const run of runs) for (const q of run.questions.slice(0, 10)) await ask(run, q);
    // Without pgvector each set's vector index builds in the background after its first search.
    let t1 = performance.now();
    await settleVectorIndexes();
    const builtMs = performance.now() - t1;
    // Then one untimed pass of every row at the same concurrency, so the timings are of a process
    // that has served such questions before (compiled code, pooled connections, cached pages), as a
    // server answering chats has; nothing a question returns is kept between passes.
    for (const run of runs) {
      let next = 0;
      await measure(async () => void (await ask(run, run.questions[next++])), run.questions.length, CONCURRENCY);
    }
    if (!(await passages.searchesVectorsInSql())) console.log(`  vector indexes (in the app) built ${sec(builtMs)} after the first searches`);

    console.log(
      `  ${questions.length} labelled questions (${questions.filter((q) => q.lang === "zh").length} Chinese, ${questions.filter((q) => q.lang === "en").length} English), each asked once per row after an untimed pass`,
    );
    const quality: Array<{ label: string; byLang: Record<string, { hit1: number; hit5: number; n: number }> }> = [];
    for (const run of runs) {
      let next = 0;
      const byLang: Record<string, { hit1: number; hit5: number; n: number }> = { zh: { hit1: 0, hit5: 0, n: 0 }, en: { hit1: 0, hit5: 0, n: 0 } };
      const r = await measure(
        async () => {
          const q = run.questions[next++];
          const hits = await ask(run, q);
          const rank = hits.findIndex((h) => targetKeyOf.get(`${h.title}\u0000${h.text}`) === q.targetKey);
          if (rank < 0 && process.env.BENCH_RETRIEVAL_MISSES)
            console.log(
              `    miss [${run.mode}] ${q.text} -> want ${q.targetKey}; got ${hits.map((h) => `${h.title.slice(0, 40)} (${h.match?.toFixed(2) ?? "-"})`).join(" | ")}`,
            );
          const tally = byLang[q.lang];
          tally.n++;
          if (rank === 0) tally.hit1++;
          if (rank >= 0 && rank < 5) tally.hit5++;
        },
        run.questions.length,
        CONCURRENCY,
      );
      printRow(`  ${run.label}`, r);
      quality.push({ label: run.label, byLang });
    }
    console.log("  answer quality: the labelled target among the first 5 (hit@5) and first (hit@1)");
    const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`.padStart(6);
    for (const { label, byLang } of quality) {
      const all = { hit1: byLang.zh.hit1 + byLang.en.hit1, hit5: byLang.zh.hit5 + byLang.en.hit5, n: byLang.zh.n + byLang.en.n };
      console.log(
        `  ${`  ${label}`.padEnd(44)} hit@5 ${pct(all.hit5, all.n)} (zh ${pct(byLang.zh.hit5, byLang.zh.n)}, en ${pct(byLang.en.hit5, byLang.en.n)})  hit@1 ${pct(all.hit1, all.n)}  of ${all.n}`,
      );
    }
    // What the in-app vector index gives up: its 20 nearest against an exact scan's.
    if (!(await passages.searchesVectorsInSql())) {
      const retrievable = await listRetrievableSets(agent.id, allSetIds);
      let found = 0;
      let wanted = 0;
      t1 = performance.now();
      let exactMs = 0;
      for (const q of questions) {
        const [vector] = await embedder.embed([q.text]);
        const t2 = performance.now();
        const exact = (await searchVectorsInApp(retrievable, vector, embedder.modelKey, { exact: true })).map((h) => h.id);
        exactMs += performance.now() - t2;
        const approx = new Set((await searchVectorsInApp(retrievable, vector, embedder.modelKey)).map((h) => h.id));
        found += exact.filter((id) => approx.has(id)).length;
        wanted += exact.length;
      }
      console.log(
        `  vector index: ${pct(found, wanted)} of an exact scan's 20 nearest (recall@20); an exact scan alone takes ${(exactMs / questions.length).toFixed(1)} ms a query`,
      );
    }
  } finally {
    // Leave a real database as it was: the account's sets and passages go with it
    // (BENCH_RETRIEVAL_KEEP=1 keeps them, to look at plans afterwards).
    if (process.env.BENCH_RETRIEVAL_KEEP) accountId = channelId = null;
    if (accountId) await db.account.delete({ where: { id: accountId } }).catch(() => {});
    if (channelId) await db.channel.delete({ where: { id: channelId } }).catch(() => {});
    if (!process.env.BENCH_RETRIEVAL_KEEP) await db.model.deleteMany({ where: { key: { in: [chatModel, embeddingModel] } } }).catch(() => {});
    if (previousEmbeddingModel === undefined) delete process.env.KNOWLEDGE_EMBEDDING_MODEL;
    else process.env.KNOWLEDGE_EMBEDDING_MODEL = previousEmbeddingModel;
    await fake.close();
    await db.$disconnect();
  }
}

function shuffle<T>(xs: T[], random: () => number) {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
}
