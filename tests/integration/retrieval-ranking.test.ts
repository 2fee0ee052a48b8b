// Retrieval at scale (the benchmark's optimisations): full text ranked by how rare each
// word is, with candidates picked in capped stages once the table's statistics know the common
// words; and, without pgvector, the sets' vectors cached in the app per revision.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { createAgent } from "../../server/agents/agents.service";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import { bumpRevision } from "../../server/knowledge/indexing.repository";
import { indexTrainingSet } from "../../server/knowledge/indexing.service";
import { forgetLexemeStats, getLexemeStats, insertPassages, searchFullText, searchesVectorsInSql } from "../../server/knowledge/passages.repository";
import { retrieve } from "../../server/knowledge/retrieval.service";
import { queryWords, toTsvectorLiteral } from "../../server/knowledge/text-segmenter";
import { OFFLINE_MODEL_KEY } from "../../server/knowledge/offline-channel";
import { seedOfflineChannel } from "../../prisma/seed/demo-knowledge";
import { makeUser, useChatHarness, type TUser } from "../helpers/chat-runtime";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

const h = useChatHarness();
const db = () => getDb();
const uid = () => crypto.randomBytes(4).toString("hex");
let owner: TUser;

beforeAll(async () => {
  await seedOfflineChannel(getDb());
  owner = await makeUser(h.api.base);
});

async function makeSet(rows: Array<{ question: string; answer: string }>) {
  const set = await db().trainingSet.create({ data: { ownerAccountId: owner.id, name: `set ${uid()}`, type: "standard", state: "done" } });
  await insertPassages(
    set.id,
    rows.map((r, ordinal) => ({
      qaItemId: `qa-${uid()}`,
      ordinal,
      title: r.question,
      content: r.answer,
      lexemes: toTsvectorLiteral([
        { text: r.question, weight: "A" },
        { text: r.answer, weight: "D" },
      ]),
    })),
  );
  return set.id;
}

describe("full text on a large table", () => {
  let setId: string;
  beforeAll(async () => {
    // 400 passages all about 蓝鲸 (a common word), half also about 灯塔; one about a rare 珊瑚礁.
    const filler = Array.from({ length: 400 }, (_, i) => ({
      question: `蓝鲸 ${i} 号${i % 2 ? "灯塔" : "航线"}的开放时间是什么？`,
      answer: `蓝鲸 ${i} 号${i % 2 ? "灯塔" : "航线"}每天开放，节假日照常。`,
    }));
    setId = await makeSet([...filler, { question: "珊瑚礁浮潜需要预约吗？", answer: "蓝鲸湾的珊瑚礁浮潜需提前一天预约，每天限 50 人。" }]);
    await db().$executeRawUnsafe("ANALYZE knowledge_passage");
    forgetLexemeStats();
  });

  it("knows the common words from the statistics", async () => {
    const stats = await getLexemeStats();
    expect(stats).not.toBeNull();
    expect((stats!.shares.get("蓝鲸") ?? 0) * stats!.passages).toBeGreaterThanOrEqual(300);
    expect(stats!.shares.get("珊瑚礁") ?? 0).toBeLessThan(0.01);
  });

  it("ranks the passage with the rare word first, though common words match hundreds", async () => {
    const hits = await searchFullText([setId], queryWords("蓝鲸 灯塔 珊瑚礁 开放时间"), 5);
    expect(hits[0].title).toBe("珊瑚礁浮潜需要预约吗？");
    expect(hits.length).toBe(5);
  });

  it("with common words only, finds passages holding two of them, and still answers with one", async () => {
    const both = await searchFullText([setId], queryWords("蓝鲸灯塔"), 20);
    expect(both.length).toBe(20);
    for (const hit of both) expect(hit.title).toContain("灯塔");
    const one = await searchFullText([setId], ["蓝鲸"], 5);
    expect(one.length).toBe(5);
    // Words no passage holds find nothing, however they are staged.
    expect(await searchFullText([setId], ["不存在的词"], 5)).toEqual([]);
    expect(await searchFullText([setId], [], 5)).toEqual([]);
  });

  it("searches only the given sets", async () => {
    const other = await makeSet([{ question: "珊瑚礁门票多少钱？", answer: "珊瑚礁门票 80 元。" }]);
    const hits = await searchFullText([other], queryWords("珊瑚礁浮潜"), 5);
    expect(hits.map((h) => h.trainingSetId)).toEqual([other]);
  });
});

describe("vectors compared in the app (no pgvector on this server)", () => {
  it("uses the vectors of the set's current revision, re-read after it is trained again", async () => {
    expect(await searchesVectorsInSql()).toBe(false);
    const modelKey = `emb-${uid()}`;
    await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "向量", kind: "embedding" }));
    const channel = await createChannel(
      ZCreateChannelInput.parse({ name: `emb ${modelKey}`, type: "openai", base_url: h.fake.base, key: `sk-emb-${uid()}`, models: [modelKey], weight: 1 }),
    );
    process.env.KNOWLEDGE_EMBEDDING_MODEL = modelKey;
    try {
      const set = await db().trainingSet.create({
        data: {
          ownerAccountId: owner.id,
          name: "向量缓存",
          type: "standard",
          qaItems: { create: [{ question: "How long does delivery take?", answer: "Two to five working days.", position: 0 }] },
        },
      });
      expect(await indexTrainingSet(set.id, await bumpRevision(set.id))).toBe("done");
      const agent = await createAgent(
        owner.actor,
        ZAgentInput.parse({ name: "缓存", introduction: "vectors", model_key: OFFLINE_MODEL_KEY, training_set_ids: [set.id] }),
      );
      const ask = (query: string) => retrieve({ accountId: owner.id, agentId: agent.id, agentVersionId: "", trainingSetIds: [set.id], query, limit: 3 });
      // "qqq zzz" shares no word with any item: only the vectors rank something.
      expect((await ask("qqq zzz")).map((p) => p.title)).toEqual(["How long does delivery take?"]);
      expect(
        await retrieve({ accountId: owner.id, agentId: agent.id, agentVersionId: "", trainingSetIds: [set.id], query: "qqq zzz", limit: 3, mode: "fulltext" }),
      ).toEqual([]);

      await db().qaItem.deleteMany({ where: { trainingSetId: set.id } });
      await db().qaItem.create({ data: { trainingSetId: set.id, question: "Can I pay by card?", answer: "Visa and Mastercard.", position: 0 } });
      expect(await indexTrainingSet(set.id, await bumpRevision(set.id))).toBe("done");
      // Vectors of the passages the new revision replaced would find nothing.
      expect((await ask("qqq zzz")).map((p) => p.title)).toEqual(["Can I pay by card?"]);
    } finally {
      delete process.env.KNOWLEDGE_EMBEDDING_MODEL;
      await db().channel.delete({ where: { id: channel.id } });
      await db().model.delete({ where: { key: modelKey } });
    }
  });
});

describe("segmenting English contractions", () => {
  it("drops the tails of what's, can't and don't rather than searching for s and t", () => {
    expect(queryWords("What's the weight limit? I can't find it, don't know")).toEqual(["weight", "limit", "find", "know"]);
    expect(queryWords("O'Brien")).toEqual(["o", "brien"]);
  });
});
