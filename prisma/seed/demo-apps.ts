// Demo apps of a fresh install: an H5 app and an API app on the demo agent "Zelin 助手",
// listed in the app centre, so the market, the H5 page and the API have something to show.
// Idempotent: a marker row records that they were made (deleting them later is the user's right).
import fs from "node:fs";
import path from "node:path";
import type { PrismaClient } from "../../server/db/generated/client";
import { storeFile, toPublicFileUrl } from "../../server/uploads/uploads.service";
import { moveApp } from "../../server/apps/app-lifecycle";
import { createApp } from "../../server/apps/apps.service";
import { ZAppInput } from "../../server/apps/apps.schema";
import * as appsRepo from "../../server/apps/apps.repository";

const MARKER = "seed.demo_apps";
const KNOWLEDGE_MARKER = "seed.demo_knowledge";

export async function seedDemoApps(db: PrismaClient, accountId: string) {
  if (await db.systemSetting.findUnique({ where: { key: MARKER }, select: { key: true } })) return;
  const knowledge = await db.systemSetting.findUnique({ where: { key: KNOWLEDGE_MARKER }, select: { value: true } });
  const agentId = (knowledge?.value as { agentId?: string } | null)?.agentId;
  if (!agentId) return;
  const category = await db.appCategory.findUnique({ where: { slug: "customer_service" }, select: { id: true } });
  if (!category) return;
  // The icon goes through the file store like an upload, so it is served as users' pictures are.
  const iconBytes = fs.readFileSync(path.resolve(import.meta.dirname, "../../public/posters/ocean.png"));
  const iconUrl = toPublicFileUrl(await storeFile("images", { bytes: iconBytes, mime: "image/png", ext: "png" }));
  const actor = { id: accountId, roles: [], enterpriseId: null } as never;
  const common = {
    icon_url: iconUrl,
    category_id: category.id,
    agent_ids: [agentId],
    introduction: "回答 Zelin 平台常见问题的演示应用：如何创建智能体、训练集有哪几种、如何发布应用。使用离线检索，无需大模型。",
    introduction_en: "A demo app that answers common questions about the Zelin platform, with offline retrieval (no language model needed).",
    tags: ["Zelin", "新手", "FAQ", "客服"],
    free_per_day: 20,
  };
  const h5 = await createApp(
    actor,
    ZAppInput.parse({
      ...common,
      type: "h5",
      name: "Zelin 新手助手",
      name_en: "Zelin Starter Assistant",
      welcome_messages: ["你好，我是 Zelin 新手助手，关于平台的问题都可以问我。"],
      recommended_questions: ["如何创建智能体？", "训练集有哪几种？", "What does the offline model do?"],
      menu_items: [{ title: "使用帮助", reply_type: "text", content: "在下方输入问题，或点选推荐问题。" }],
    }),
  );
  const api = await createApp(
    actor,
    ZAppInput.parse({ ...common, type: "api", platform: "api", name: "Zelin 助手 API", name_en: "Zelin Assistant API", in_app_centre: false }),
  );
  await db.$transaction(async (tx) => {
    const now = new Date();
    for (const id of [h5.id, api.id]) await appsRepo.updateAppById(id, { state: moveApp("under_review", "approve").state, reviewedAt: now, listedAt: now }, tx);
    await tx.systemSetting.create({ data: { key: MARKER, value: { h5AppId: h5.id, apiAppId: api.id } } });
  });
}
