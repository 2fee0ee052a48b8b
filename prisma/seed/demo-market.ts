// The demo market of a fresh install: demo developers' agents (on the offline model, answering from
// their own Q&A sets, so a visitor can try them) and H5 apps with icons, plans and categories, on
// the shelf; a carousel; and activity that makes the ranking lists: demo buyers buy plans through
// the real ledger and like and collect. Everything goes through the services a user's actions go
// through: agents are published, submitted as they are and approved; apps created and approved.
// Made once: a marker in system_setting remembers each step done, so a restart adds nothing and
// what the operator deletes later stays deleted.
import crypto from "node:crypto";
import type { PrismaClient } from "../../server/db/generated/client";
import type { Prisma } from "../../server/db/generated/client";
import type { TLanguage } from "../../app/i18n/config";
import { approveAgentVersion, createAgent, getAgent, publishAgent, submitAgent } from "../../server/agents/agents.service";
import { approveApp, createApp } from "../../server/apps/apps.service";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { ZAppInput } from "../../server/apps/apps.schema";
import { indexTrainingSet } from "../../server/knowledge/indexing.service";
import { bumpRevision } from "../../server/knowledge/indexing.repository";
import { OFFLINE_MODEL_KEY } from "../../server/knowledge/offline-channel";
import { createCarousel } from "../../server/market/market-admin.service";
import { ZCarouselInput } from "../../server/market/market.schema";
import { addReaction } from "../../server/market/social.service";
import { grantExperienceBonus } from "../../server/money/editions/experience-bonus";
import { buyAppPlan } from "../../server/money/purchases/purchases.service";
import { storeFile, toPublicFileUrl } from "../../server/uploads/uploads.service";
import { drawBanner, drawIcon } from "./demo-art";
import { DEMO_BUYERS, DEMO_CAROUSEL, DEMO_DEVELOPERS, DEMO_ITEMS, type TDemoAccount, type TDemoItem } from "./demo-market-content";

const MARKER = "seed.demo_market";
const KNOWLEDGE_MARKER = "seed.demo_knowledge";

/** Approvals made by the seed are recorded as the seed's, not a person's. */
const SEED_REVIEWER = { id: "seed", roles: ["platform_admin"], enterpriseId: null } as never;

type TProgress = { items: Record<string, { agentId: string; appId: string }>; carousel?: boolean; activity?: boolean; starter?: boolean };
type TActor = { id: string; roles: never[]; enterpriseId: null };

async function readProgress(db: PrismaClient): Promise<TProgress> {
  const row = await db.systemSetting.findUnique({ where: { key: MARKER }, select: { value: true } });
  const value = (row?.value ?? {}) as Partial<TProgress>;
  return { ...value, items: value.items ?? {} };
}

async function saveProgress(db: PrismaClient, progress: TProgress) {
  const value = progress as unknown as Prisma.InputJsonValue;
  await db.systemSetting.upsert({ where: { key: MARKER }, create: { key: MARKER, value }, update: { value } });
}

/** A request id that is the same at every start: a purchase retried after a crash is the first one again. */
function stableUuid(seed: string) {
  const h = crypto.createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function storePng(folder: string, bytes: Buffer) {
  return toPublicFileUrl(await storeFile(folder, { bytes, mime: "image/png", ext: "png" }));
}

/** The account, made once with no password (nobody signs in as it) and the bonus every account gets. */
async function ensureAccount(db: PrismaClient, who: TDemoAccount, lng: TLanguage, developer: boolean): Promise<TActor> {
  const found = await db.account.findUnique({ where: { account: who.account }, select: { id: true } });
  const id =
    found?.id ??
    (
      await db.account.create({
        data: {
          account: who.account,
          nickname: who.nickname[lng],
          avatarUrl: developer ? await storePng("avatars", drawIcon("spark", [56, 189, 248], [99, 102, 241])) : null,
          roles: ["individual_developer"],
          edition: developer ? "professional" : "basic",
          editionExpiresAt: developer ? new Date(Date.now() + 365 * 86_400_000) : null,
          language: lng,
        },
        select: { id: true },
      })
    ).id;
  await grantExperienceBonus(id);
  return { id, roles: [], enterpriseId: null };
}

/** One demo agent and its app: a Q&A set, the agent published, submitted as it is and approved, the app approved. */
async function seedItem(db: PrismaClient, item: TDemoItem, owner: TActor, lng: TLanguage) {
  const iconUrl = await storePng("images", drawIcon(item.emblem, item.colors[0], item.colors[1]));
  const set = await db.trainingSet.create({
    data: {
      ownerAccountId: owner.id,
      name: item.agent.name[lng],
      introduction: item.agent.introduction[lng].slice(0, 200),
      type: "standard",
      qaItems: { create: item.agent.qa.map(([question, answer], position) => ({ question, answer, position })) },
    },
    select: { id: true },
  });
  await indexTrainingSet(set.id, await bumpRevision(set.id));
  const agent = await createAgent(
    owner,
    ZAgentInput.parse({
      name: item.agent.name[lng],
      avatar_url: iconUrl,
      introduction: item.agent.introduction[lng],
      model_key: OFFLINE_MODEL_KEY,
      welcome_message: item.agent.welcome[lng],
      out_of_scope_reply: item.agent.outOfScope[lng],
      training_set_ids: [set.id],
    }),
  );
  await publishAgent(owner, { id: agent.id });
  const submitted = await submitAgent(owner, { id: agent.id, source: "published" });
  await approveAgentVersion(SEED_REVIEWER, { versionId: submitted.under_review!.id });

  const category = await db.appCategory.findUnique({ where: { slug: item.category }, select: { id: true } });
  if (!category) throw new Error(`the demo category ${item.category} is missing`);
  const app = await createApp(
    owner,
    ZAppInput.parse({
      type: "h5",
      name: item.app.name[lng],
      name_en: item.app.name.en,
      icon_url: iconUrl,
      introduction: item.app.introduction[lng],
      introduction_en: item.app.introduction.en,
      category_id: category.id,
      tags: item.app.tags,
      agent_ids: [agent.id],
      welcome_messages: [item.agent.welcome[lng]],
      recommended_questions: [...new Set(item.app.questions.map((q) => q[lng]))],
      plans: item.app.plans,
      trial_days: item.app.trialDays,
      free_per_day: item.app.freePerDay,
      share_ratio: item.app.shareRatio,
    }),
  );
  await approveApp(SEED_REVIEWER, { id: app.id });
  return { agentId: agent.id, appId: app.id };
}

/** Demo buyers buy plans (gift credit from their bonus, through the ledger) and like and collect. */
async function seedActivity(db: PrismaClient, progress: TProgress, buyers: TActor[]) {
  for (const item of DEMO_ITEMS) {
    const ids = progress.items[item.key];
    if (!ids) continue;
    const plans = await db.appPlan.findMany({ where: { appId: ids.appId }, orderBy: { sortOrder: "asc" }, select: { id: true } });
    for (const [buyer, plan] of item.buys) {
      if (!plans[plan]) continue;
      await buyAppPlan(buyers[buyer], { app_id: ids.appId, plan_id: plans[plan].id, request_id: stableUuid(`${MARKER}:${item.key}:${buyer}:${plan}`) });
    }
    const reactions = [...item.likes.map((b) => [b, "like"] as const), ...item.collects.map((b) => [b, "collect"] as const)];
    for (const [buyer, kind] of reactions) {
      for (const [targetType, targetId] of [
        ["app", ids.appId],
        ["agent", ids.agentId],
      ] as const) {
        await addReaction(buyers[buyer], { targetType, targetId, kind }).catch((err: { code?: string }) => {
          // Done before a crash cut the step short: the reaction stands.
          if (err?.code !== "already_liked" && err?.code !== "already_collected") throw err;
        });
      }
    }
  }
}

/** The demo agent of the first start ("Zelin 助手", published for the demo account) goes on the shelf as it is. */
async function listStarterAgent(db: PrismaClient) {
  const knowledge = await db.systemSetting.findUnique({ where: { key: KNOWLEDGE_MARKER }, select: { value: true } });
  const agentId = (knowledge?.value as { agentId?: string } | null)?.agentId;
  const agent = agentId ? await db.agent.findFirst({ where: { id: agentId, deletedAt: null }, select: { ownerAccountId: true } }) : null;
  if (!agentId || !agent) return;
  const owner = { id: agent.ownerAccountId, roles: [], enterpriseId: null } as never;
  const detail = await getAgent(owner, { id: agentId });
  if (detail.live?.state !== "published" || detail.under_review) return;
  const submitted = await submitAgent(owner, { id: agentId, source: "published" });
  await approveAgentVersion(SEED_REVIEWER, { versionId: submitted.under_review!.id });
}

export async function seedDemoMarket(db: PrismaClient, lng: TLanguage) {
  const progress = await readProgress(db);
  if (progress.carousel && progress.activity && progress.starter && DEMO_ITEMS.every((i) => progress.items[i.key])) return;

  const developers = Object.fromEntries(
    await Promise.all(Object.entries(DEMO_DEVELOPERS).map(async ([k, who]) => [k, await ensureAccount(db, who, lng, true)] as const)),
  );
  for (const item of DEMO_ITEMS) {
    if (progress.items[item.key]) continue;
    progress.items[item.key] = await seedItem(db, item, developers[item.developer], lng);
    await saveProgress(db, progress);
  }

  if (!progress.starter) {
    await listStarterAgent(db);
    progress.starter = true;
    await saveProgress(db, progress);
  }

  // Slides an operator already made are theirs: the demo adds its own only to an empty carousel.
  if (!progress.carousel) {
    if ((await db.carousel.count()) === 0) {
      for (const [i, slide] of DEMO_CAROUSEL.entries()) {
        const imageUrl = await storePng("images", drawBanner(slide.motif, slide.colors[0], slide.colors[1]));
        await createCarousel(SEED_REVIEWER, ZCarouselInput.parse({ name: slide.name[lng], imageUrl, link: slide.link, sortOrder: (i + 1) * 10 }));
      }
    }
    progress.carousel = true;
    await saveProgress(db, progress);
  }

  if (!progress.activity) {
    const buyers: TActor[] = [];
    for (const who of DEMO_BUYERS) buyers.push(await ensureAccount(db, who, lng, false));
    await seedActivity(db, progress, buyers);
    progress.activity = true;
    await saveProgress(db, progress);
  }
}
