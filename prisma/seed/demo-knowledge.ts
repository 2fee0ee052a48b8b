// The offline channel and a demo agent that uses it, so a fresh install chats with no
// key: the platform's "zelin-offline" model served by the in-process offline channel, and for the
// demo account a Q&A training set about Zelin plus an agent answering from it. Made once: what the
// demo user deletes later stays deleted (the marker in system_setting remembers).
import type { PrismaClient } from "../../server/db/generated/client";
import { createAgent, publishAgent } from "../../server/agents/agents.service";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { sealSecret } from "../../server/lib/secret-box";
import { indexTrainingSet } from "../../server/knowledge/indexing.service";
import { bumpRevision } from "../../server/knowledge/indexing.repository";
import { OFFLINE_MODEL_KEY } from "../../server/knowledge/offline-channel";

const MARKER = "seed.demo_knowledge";

export const DEMO_QA: Array<[string, string]> = [
  ["Zelin 是什么？", "Zelin 是一个智能体平台：开发者搭建智能体，发布成 H5 应用、API 或微信、企业微信、钉钉、飞书机器人，并在市场中出售。"],
  ["如何创建智能体？", "在控制台打开「我的智能体」，点「创建智能体」，填写名称、简介、提示词并选择模型，保存后即可在调试对话中试用。"],
  ["训练集有哪几种？", "标准训练集（问答对）、智能训练集（上传 txt、docx、pdf 文档）和数据库训练集（连接 MySQL 数据库）。"],
  ["Z 币和人民币怎么换算？", "1 Z 币等于 1 元人民币。充值、购买应用和提现都以 Z 币计。"],
  ["离线模型能做什么？", "离线模型不调用大语言模型：它从智能体的问答训练集中找出最相近的问题并给出答案，找不到时回复智能体的超出范围回复。"],
  ["What is Zelin?", "Zelin is a platform for building AI agents, publishing them as H5 pages, APIs and chat bots, and selling them in a market for Z coins."],
  [
    "How do I create an agent?",
    "Open My agents in the console, click Create agent, fill in the name, introduction and prompt, choose a model and save; then try it in the debug chat.",
  ],
  [
    "What does the offline model do?",
    "The offline model uses no language model: it finds the closest question in the agent's Q&A training sets and answers with its answer, or with the agent's out-of-scope reply.",
  ],
];

export async function seedOfflineChannel(db: PrismaClient) {
  if (!(await db.model.findUnique({ where: { key: OFFLINE_MODEL_KEY }, select: { id: true } }))) {
    await db.model.create({ data: { key: OFFLINE_MODEL_KEY, displayName: "离线检索", kind: "text", upstreamModel: OFFLINE_MODEL_KEY, contextWindow: 32_000 } });
  }
  if (!(await db.channel.findFirst({ where: { type: "offline" }, select: { id: true } }))) {
    await db.channel.create({
      data: {
        name: "Offline (retrieval, no LLM)",
        type: "offline",
        baseUrl: "offline:",
        keyEncrypted: sealSecret("offline"),
        keyHint: "—",
        models: [OFFLINE_MODEL_KEY],
        weight: 1,
        priority: -1000,
      },
    });
  }
}

export async function seedDemoKnowledge(db: PrismaClient, accountId: string) {
  if (await db.systemSetting.findUnique({ where: { key: MARKER }, select: { key: true } })) return;
  const set = await db.trainingSet.create({
    data: {
      ownerAccountId: accountId,
      name: "Zelin 新手问答",
      introduction: "平台常见问题（演示数据）",
      type: "standard",
      qaItems: { create: DEMO_QA.map(([question, answer], position) => ({ question, answer, position })) },
    },
  });
  await indexTrainingSet(set.id, await bumpRevision(set.id));
  const actor = { id: accountId, roles: [], enterpriseId: null } as never;
  const agent = await createAgent(
    actor,
    ZAgentInput.parse({
      name: "Zelin 助手",
      introduction: "回答 Zelin 平台常见问题的演示智能体，使用离线检索（无需大模型）。",
      model_key: OFFLINE_MODEL_KEY,
      welcome_message: "你好，我是 Zelin 助手。可以问我：如何创建智能体？训练集有哪几种？",
      out_of_scope_reply: "这个问题超出了我的训练集范围。我可以回答关于 Zelin 平台的常见问题。",
      training_set_ids: [set.id],
    }),
  );
  await publishAgent(actor, { id: agent.id });
  await db.systemSetting.create({ data: { key: MARKER, value: { trainingSetId: set.id, agentId: agent.id } } });
}
