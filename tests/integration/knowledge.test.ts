// Knowledge: indexing a set as a job would (revisions, documents, failures, the free
// characters), hybrid retrieval (Q&A matched on the question first, full text, vectors fused by
// rank, only the agent owner's available sets), and the offline channel answering in a chat.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import { indexTrainingSet, setKnowledgePaused } from "../../server/knowledge/indexing.service";
import { bumpRevision } from "../../server/knowledge/indexing.repository";
import { countPassagesOfSet } from "../../server/knowledge/passages.repository";
import { retrieve, QA_MATCH_THRESHOLD } from "../../server/knowledge/retrieval.service";
import { chunkText } from "../../server/knowledge/chunk-text";
import { queryWords, toTsvectorLiteral } from "../../server/knowledge/text-segmenter";
import { seedOfflineChannel } from "../../prisma/seed/demo-knowledge";
import { OFFLINE_MODEL_KEY } from "../../server/knowledge/offline-channel";
import { createAgent, publishAgent } from "../../server/agents/agents.service";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { applyTrainingSetAction } from "../../server/knowledge/training-sets.service";
import { getFileStore } from "../../server/uploads/file-store";
import { FREE_TRAINING_CHARS } from "../../server/accounts/editions";
import { contentOf, dataOf, makeUser, names, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

const h = useChatHarness();
const db = () => getDb();
const uid = () => crypto.randomBytes(4).toString("hex");
let alice: TUser;
let bob: TUser;

const QA: Array<[string, string]> = [
  ["退货政策是什么？", "收到商品 7 天内可无理由退货，请保持包装完好。"],
  ["运费由谁承担？", "质量问题的退货运费由我们承担，其他情况由买家承担。"],
  ["How long does delivery take?", "Orders ship within 24 hours and arrive in 2 to 5 working days."],
  ["What is your refund policy?", "Refunds go back to the original payment method within 3 working days of receiving the return."],
  ["会员有哪些权益？", "会员每月领取 100 Z 币，并享受九折购买应用。"],
];

async function makeQaSet(owner: TUser, items = QA, name = "售后问答") {
  const set = await db().trainingSet.create({
    data: {
      ownerAccountId: owner.id,
      name,
      type: "standard",
      qaItems: { create: items.map(([question, answer], position) => ({ question, answer, position })) },
    },
  });
  expect(await indexTrainingSet(set.id, await bumpRevision(set.id))).toBe("done");
  return set.id;
}

async function makeAgentUsing(owner: TUser, setIds: string[], extra: Record<string, unknown> = {}) {
  const agent = await createAgent(
    owner.actor,
    ZAgentInput.parse({
      name: "客服",
      introduction: "answers from sets",
      model_key: OFFLINE_MODEL_KEY,
      training_set_ids: setIds,
      out_of_scope_reply: "这个我答不了。",
      ...extra,
    }),
  );
  await publishAgent(owner.actor, { id: agent.id });
  return agent.id;
}

const ask = (agentId: string, setIds: string[], query: string, mode?: "hybrid" | "fulltext") =>
  retrieve({ accountId: alice.id, agentId, agentVersionId: "", trainingSetIds: setIds, query, limit: 5, mode });

beforeAll(async () => {
  await seedOfflineChannel(getDb());
  alice = await makeUser(h.api.base);
  bob = await makeUser(h.api.base);
});

describe("segmenting and splitting", () => {
  it("segments Chinese into words and stems English, dropping function words", () => {
    expect(queryWords("怎么退货？")).toEqual(["退货"]);
    expect(queryWords("What are your refund policies?")).toEqual(["refund", "polici"]);
    expect(
      toTsvectorLiteral([
        { text: "退货政策", weight: "A" },
        { text: "It's refunds", weight: "D" },
      ]),
    ).toContain("'退货':");
    expect(toTsvectorLiteral([{ text: "o'brien", weight: "D" }])).toBe("'o':1 'brien':2");
  });

  it("splits long text at sentence ends into overlapping passages of about 500 characters", () => {
    const text = Array.from({ length: 60 }, (_, i) => `这是第${i}句话，用来测试分段。`).join("");
    const pieces = chunkText(text);
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(900);
    expect(pieces[1].startsWith("这是第")).toBe(true);
    expect(chunkText("  \n\n ")).toEqual([]);
  });
});

describe("indexing", () => {
  it("builds one passage per Q&A item, counts characters, and a newer revision supersedes an older run", async () => {
    const setId = await makeQaSet(alice);
    expect(await countPassagesOfSet(setId)).toBe(QA.length);
    const set = await db().trainingSet.findUniqueOrThrow({ where: { id: setId } });
    expect(set).toMatchObject({ state: "done", progress: 100, charCount: QA.reduce((n, [q, a]) => n + [...q].length + [...a].length, 0) });
    expect(set.indexedAt).not.toBeNull();
    // The job merged the set's full-text entries into the index: nothing is left in GIN's pending list for searches to read.
    const [{ merged }] = await db().$queryRawUnsafe<{ merged: number }[]>(
      "SELECT gin_clean_pending_list('knowledge_passage_lexemes_idx'::regclass)::int AS merged",
    );
    expect(merged).toBe(0);

    const old = await bumpRevision(setId);
    const current = await bumpRevision(setId);
    expect(await indexTrainingSet(setId, old)).toBe("superseded");
    expect((await db().trainingSet.findUniqueOrThrow({ where: { id: setId } })).state).toBe("training");
    expect(await indexTrainingSet(setId, current)).toBe("done");
  });

  it("reads documents from the file store: readable ones become passages, an unreadable one fails alone", async () => {
    const set = await db().trainingSet.create({ data: { ownerAccountId: alice.id, name: "手册", type: "smart" } });
    const good = `training/${alice.id}/${uid()}.txt`;
    const bad = `training/${alice.id}/${uid()}.txt`;
    await getFileStore().put(good, Buffer.from("保修条款：整机保修两年，电池保修一年。\n\n维修网点遍布全国三百个城市，预约后上门取件。"), "text/plain");
    await getFileStore().put(bad, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0, 1, 2, 3]), "text/plain");
    await db().trainingDocument.createMany({
      data: [
        { trainingSetId: set.id, name: "保修.txt", fileKey: good, mime: "text/plain", size: 10 },
        { trainingSetId: set.id, name: "bad.txt", fileKey: bad, mime: "text/plain", size: 11 },
      ],
    });
    expect(await indexTrainingSet(set.id, await bumpRevision(set.id))).toBe("done");
    const docs = await db().trainingDocument.findMany({ where: { trainingSetId: set.id }, orderBy: { name: "asc" } });
    expect(docs.map((d) => [d.name, d.state, d.error])).toEqual([
      ["bad.txt", "failed", "document_type_not_readable"],
      ["保修.txt", "done", null],
    ]);
    const after = await db().trainingSet.findUniqueOrThrow({ where: { id: set.id } });
    expect(after.charCount).toBe(docs[1].charCount);
    expect(after.charCount).toBeGreaterThan(30);

    const agentId = await makeAgentUsing(alice, [set.id]);
    const hits = await ask(agentId, [set.id], "电池保修多久");
    expect(hits[0]).toMatchObject({ kind: "text", title: "保修.txt", source: "手册" });
    expect(hits[0].text).toContain("电池保修一年");
  });

  it("fails a set over the free characters and turns the agents using it invalid, then recovers", async () => {
    // Unfunded: past the free million only what the account can pay a day's storage for is kept.
    const carol = await makeUser(h.api.base, { funded: false });
    await db().trainingSet.create({ data: { ownerAccountId: carol.id, name: "big", type: "standard", charCount: FREE_TRAINING_CHARS - 10, state: "done" } });
    const set = await db().trainingSet.create({
      data: { ownerAccountId: carol.id, name: "small", type: "standard", qaItems: { create: [{ question: "一二三四五", answer: "六七八九十一二" }] } },
    });
    const agentId = await makeAgentUsing(carol, [set.id]);
    expect(await indexTrainingSet(set.id, await bumpRevision(set.id))).toBe("failed");
    expect(await db().trainingSet.findUniqueOrThrow({ where: { id: set.id } })).toMatchObject({ state: "failed", failureReason: "characters_insufficient" });
    const agent = await db().agent.findUniqueOrThrow({ where: { id: agentId }, include: { versions: true } });
    expect(agent.invalidReason).toBe("training_set_failed");
    expect(agent.versions.map((v) => v.state)).toEqual(["invalid"]);
    expect(await ask(agentId, [set.id], "一二三四五")).toEqual([]);

    await db().trainingSet.updateMany({ where: { ownerAccountId: carol.id, name: "big" }, data: { charCount: 0 } });
    expect(await indexTrainingSet(set.id, await bumpRevision(set.id))).toBe("done");
    const restored = await db().agent.findUniqueOrThrow({ where: { id: agentId }, include: { versions: true } });
    expect(restored.invalidReason).toBeNull();
    expect(restored.versions.map((v) => v.state)).toEqual(["published"]);
  });
});

describe("pausing the training-set service", () => {
  it("makes the account's sets unavailable and its agents invalid, and resuming restores them", async () => {
    const dave = await makeUser(h.api.base);
    const setId = await makeQaSet(dave);
    const agentId = await makeAgentUsing(dave, [setId]);
    await setKnowledgePaused(dave.id, true);
    const paused = await db().agent.findUniqueOrThrow({ where: { id: agentId }, include: { versions: true } });
    expect(paused.invalidReason).toBe("training_set_unavailable");
    expect(paused.versions.map((v) => v.state)).toEqual(["invalid"]);
    await setKnowledgePaused(dave.id, false);
    const resumed = await db().agent.findUniqueOrThrow({ where: { id: agentId }, include: { versions: true } });
    expect(resumed.invalidReason).toBeNull();
    expect(resumed.versions.map((v) => v.state)).toEqual(["published"]);
  });
});

describe("disabling a set", () => {
  it("turns the agents using it invalid at once, and enabling trains it and restores them", async () => {
    const erin = await makeUser(h.api.base);
    const setId = await makeQaSet(erin);
    const agentId = await makeAgentUsing(erin, [setId]);
    await applyTrainingSetAction(erin.actor, { id: setId, action: "disable" });
    expect((await db().agent.findUniqueOrThrow({ where: { id: agentId } })).invalidReason).toBe("training_set_failed");
    await applyTrainingSetAction(erin.actor, { id: setId, action: "enable" });
    const { revision } = await db().trainingSet.findUniqueOrThrow({ where: { id: setId } });
    expect(await indexTrainingSet(setId, revision)).toBe("done");
    expect((await db().agent.findUniqueOrThrow({ where: { id: agentId } })).invalidReason).toBeNull();
  });
});

describe("retrieval", () => {
  let setId: string;
  let agentId: string;
  beforeAll(async () => {
    setId = await makeQaSet(alice);
    agentId = await makeAgentUsing(alice, [setId]);
  });

  it("matches a paraphrased question to its Q&A item first, in Chinese and in English", async () => {
    const zh = await ask(agentId, [setId], "我想退货，有什么政策");
    expect(zh[0]).toMatchObject({ kind: "qa", title: "退货政策是什么？", text: QA[0][1], source: "售后问答" });
    expect(zh[0].match).toBeGreaterThanOrEqual(QA_MATCH_THRESHOLD);
    const en = await ask(agentId, [setId], "how do refunds work, what's the policy?");
    expect(en[0]).toMatchObject({ title: "What is your refund policy?" });
    expect(await ask(agentId, [setId], "   ")).toEqual([]);
  });

  it("searches only the agent owner's sets that are available", async () => {
    // Bob's agent names Alice's set (saving refuses that; a row written some other way): it finds nothing.
    const bobsAgent = await makeAgentUsing(bob, []);
    await db()
      .$executeRaw`UPDATE agent_version SET config = jsonb_set(config, '{training_set_ids}', ${JSON.stringify([setId])}::jsonb) WHERE agent_id = ${bobsAgent}`;
    expect(await ask(bobsAgent, [setId], "退货政策是什么")).toEqual([]);
    // Disabled sets and paused storage are not searched; deleted sets neither.
    await db().trainingSet.update({ where: { id: setId }, data: { state: "disabled" } });
    expect(await ask(agentId, [setId], "退货政策是什么")).toEqual([]);
    await db().trainingSet.update({ where: { id: setId }, data: { state: "done" } });
    await db().account.update({ where: { id: alice.id }, data: { knowledgePausedAt: new Date() } });
    expect(await ask(agentId, [setId], "退货政策是什么")).toEqual([]);
    await db().account.update({ where: { id: alice.id }, data: { knowledgePausedAt: null } });
    expect((await ask(agentId, [setId], "退货政策是什么")).length).toBeGreaterThan(0);
  });

  it("of several sets, leaves out only the unavailable one, and still fills the answer from the others", async () => {
    const otherId = await makeQaSet(alice, [["退货要多久到账？", "退货签收后 3 个工作日内退款到账。"]], "退款问答");
    const both = await makeAgentUsing(alice, [setId, otherId]);
    const sources = async () => (await ask(both, [setId, otherId], "退货政策和退款到账")).map((p) => p.source);
    expect(new Set(await sources())).toEqual(new Set(["售后问答", "退款问答"]));
    await db().trainingSet.update({ where: { id: otherId }, data: { state: "stopped" } });
    const left = await sources();
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((s) => s === "售后问答")).toBe(true);
    await db().trainingSet.update({ where: { id: setId }, data: { deletedAt: new Date() } });
    expect(await ask(both, [setId, otherId], "退货政策和退款到账")).toEqual([]);
    await db().trainingSet.update({ where: { id: setId }, data: { deletedAt: null } });
  });

  it("adds vector search when an embedding model is configured, fused by rank", async () => {
    const modelKey = `emb-${uid()}`;
    await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "向量", kind: "embedding" }));
    const channel = await createChannel(
      ZCreateChannelInput.parse({ name: `emb ${modelKey}`, type: "openai", base_url: h.fake.base, key: `sk-emb-${uid()}`, models: [modelKey], weight: 1 }),
    );
    try {
      process.env.KNOWLEDGE_EMBEDDING_MODEL = modelKey;
      const embedded = await makeQaSet(alice, QA, "向量问答");
      const rows = await db().knowledgePassage.findMany({ where: { trainingSetId: embedded }, select: { embedding: true, embeddingModel: true } });
      expect(rows.every((r) => r.embedding.length === 64 && r.embeddingModel === modelKey)).toBe(true);
      const agent2 = await makeAgentUsing(alice, [embedded]);
      // "送货" shares no segmented word with any item, but character pairs tie it to delivery... in
      // English: "shipping time" matches nothing by words, the vectors still rank something.
      const hybrid = await ask(agent2, [embedded], "delivery days");
      expect(hybrid[0]).toMatchObject({ title: "How long does delivery take?" });
      expect((await ask(agent2, [embedded], "qqq zzz", "fulltext")).length).toBe(0);
    } finally {
      delete process.env.KNOWLEDGE_EMBEDDING_MODEL;
      await db().channel.delete({ where: { id: channel.id } });
      await db().model.delete({ where: { key: modelKey } });
    }
  });
});

describe("the offline channel", () => {
  it("answers a paraphrased question with the Q&A answer and cites it; otherwise the out-of-scope reply", async () => {
    const setId = await makeQaSet(alice);
    const agentId = await makeAgentUsing(alice, [setId]);
    const r = await sendSse(h.api.base, alice, { agent_id: agentId, content: "我想退货，有什么政策？" });
    expect(r.http).toBe(200);
    expect(names(r).at(-1)).toBe("close");
    expect(contentOf(r)).toBe(QA[0][1]);
    const [close] = dataOf(r, "close");
    expect(close.retrieve).toEqual([expect.objectContaining({ title: QA[0][0], text: QA[0][1], source: "售后问答" })]);

    const out = await sendSse(h.api.base, alice, { agent_id: agentId, content: "明天会下雨吗" });
    expect(contentOf(out)).toBe("这个我答不了。");
    expect(dataOf(out, "close")[0].retrieve).toEqual([]);

    // Stored like any reply, with the citation.
    const stored = await db().chatMessage.findFirstOrThrow({ where: { dialogueId: close.dialogue_id, role: "assistant" } });
    expect(stored).toMatchObject({ content: QA[0][1], status: "done" });
  });

  it("needs no key: a channel row sealed under another APP_SECRET still answers", async () => {
    const setId = await makeQaSet(alice);
    const agentId = await makeAgentUsing(alice, [setId]);
    const channel = await db().channel.findFirstOrThrow({ where: { type: "offline" } });
    await db().channel.update({ where: { id: channel.id }, data: { keyEncrypted: "sealed-elsewhere" } });
    try {
      const r = await sendSse(h.api.base, alice, { agent_id: agentId, content: "运费由谁承担？" });
      expect(contentOf(r)).toBe(QA[1][1]);
    } finally {
      await db().channel.update({ where: { id: channel.id }, data: { keyEncrypted: channel.keyEncrypted } });
    }
  });

  it("says so in the reader's language when the agent has no out-of-scope reply", async () => {
    const setId = await makeQaSet(alice);
    const agentId = await makeAgentUsing(alice, [setId], { out_of_scope_reply: "" });
    const r = await sendSse(h.api.base, alice, { agent_id: agentId, content: "weather tomorrow?" });
    expect(contentOf(r)).toBe("That question is not in my training sets, so I can't answer it yet.");
  });
});
