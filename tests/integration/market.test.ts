// The market: what the app centre and search list (only listed apps), search in Chinese and
// English by name, introduction and tags, categories with a unique sort order, the carousel's
// rules, the social actions and each refusal (with its code, and nothing changed), the counters,
// and the ranking job's lists.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import { writeSearchLexemes } from "../../server/apps/apps.repository";
import { setSensitiveWords, getSensitiveWords } from "../../server/content/content.service";
import * as admin from "../../server/market/market-admin.service";
import * as catalog from "../../server/market/catalog.service";
import * as social from "../../server/market/social.service";
import { rebuildRankings, readRankings } from "../../server/market/ranking.service";
import { countWords, ZCarouselInput, ZCategoryInput, ZCommentInput, ZListAppsInput, ZUpdateCategoryInput } from "../../server/market/market.schema";
import { buyAppPlan } from "../../server/money/purchases/purchases.service";
import { fundAccount } from "../helpers/money";

const run = crypto.randomBytes(3).toString("hex");
let n = 0;
type TActor = { id: string; roles: string[]; enterpriseId: string | null };

async function makeAccount(roles: string[] = ["individual_developer"], enterpriseId: string | null = null): Promise<TActor> {
  const row = await getDb().account.create({
    data: { account: `mk${run}${++n}`, nickname: `Market ${n}`, roles: roles as never, enterpriseId },
    select: { id: true },
  });
  return { id: row.id, roles, enterpriseId };
}

type TAppOpts = {
  name: string;
  intro?: string;
  tags?: string[];
  state?: "on_shelf" | "off_shelf" | "removed" | "under_review";
  isPublic?: boolean;
  inAppCentre?: boolean;
  mode?: "general" | "sub_account";
  nameEn?: string;
  listedAt?: Date;
};
async function makeApp(owner: TActor, categoryId: number, o: TAppOpts) {
  const app = await getDb().app.create({
    data: {
      ownerAccountId: owner.id,
      enterpriseId: owner.enterpriseId,
      type: "h5",
      state: o.state ?? "on_shelf",
      name: o.name,
      nameEn: o.nameEn ?? "",
      iconUrl: "/files/images/icon.png",
      introduction: o.intro ?? "",
      categoryId,
      tags: o.tags ?? [],
      inputModes: ["text"],
      outputModes: ["text"],
      isPublic: o.isPublic ?? true,
      inAppCentre: o.inAppCentre ?? true,
      mode: o.mode ?? "general",
      listedAt: (o.state ?? "on_shelf") === "on_shelf" ? (o.listedAt ?? new Date()) : null,
    },
    select: { id: true, name: true, tags: true, introduction: true, nameEn: true, introductionEn: true },
  });
  await writeSearchLexemes(app, getDb());
  return app.id;
}

async function makeShelvedAgent(owner: TActor, name: string, modelKey: string, intro = "An agent of the market") {
  const agent = await getDb().agent.create({ data: { ownerAccountId: owner.id, name }, select: { id: true } });
  await getDb().agentVersion.create({
    data: {
      agentId: agent.id,
      version: "1.0.0",
      state: "upgraded",
      config: { name, introduction: intro, model_key: modelKey },
      updateNote: "First",
      publishedAt: new Date(Date.now() - 60_000),
    },
  });
  await getDb().agentVersion.create({
    data: {
      agentId: agent.id,
      version: "1.1.0",
      state: "on_shelf",
      config: { name, introduction: intro, model_key: modelKey },
      updateNote: "Faster answers",
      publishedAt: new Date(),
    },
  });
  return agent.id;
}

async function refusal(p: Promise<unknown>, lng = "en") {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err, "expected a refusal").toBeTruthy();
  return mapError(err, lng);
}

/** What the procedure's input schema answers before any service runs. */
function schemaRefusal(schema: z.ZodType, raw: unknown, lng = "en") {
  const parsed = schema.safeParse(raw);
  expect(parsed.success, "expected the schema to refuse").toBe(false);
  return mapError(parsed.error, lng);
}

async function allPages<T extends { id: string }>(load: (cursor?: string) => Promise<{ items: T[]; nextCursor: string | null }>) {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await load(cursor);
    out.push(...page.items);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return out;
}

const appRow = (id: string) =>
  getDb().app.findUniqueOrThrow({ where: { id }, select: { likeCount: true, collectCount: true, commentCount: true, popularity: true } });

let adminUser: TActor;
let dev: TActor;
let dev2: TActor;
let fan: TActor;
let categoryId: number;
const ids: Record<string, string> = {};
const TEXT_MODEL = `mk-text-${run}`;
const IMAGE_MODEL = `mk-image-${run}`;

beforeAll(async () => {
  adminUser = await makeAccount(["platform_admin"]);
  const enterprise = await getDb().enterprise.create({ data: { name: `Ent ${run}`, domain: `ent${run}` }, select: { id: true } });
  dev = await makeAccount(["individual_developer"], enterprise.id);
  dev2 = await makeAccount();
  fan = await makeAccount();
  const cat = await admin.createCategory(
    adminUser,
    ZCategoryInput.parse({ names: { zh_hans: `测试${run}`, en: `Test ${run}` }, sortOrder: 500_000 + crypto.randomInt(400_000) }),
  );
  categoryId = cat.id;
  const t0 = Date.now() - 3_600_000;
  ids.travel = await makeApp(dev, categoryId, { name: `旅行规划师${run}`, intro: "帮你安排行程和酒店", tags: ["旅游"], listedAt: new Date(t0 + 1000) });
  ids.english = await makeApp(dev, categoryId, {
    name: `Contract Reviewer ${run}`,
    intro: "Reads legal contracts and flags risky clauses",
    tags: ["lawyer"],
    listedAt: new Date(t0 + 2000),
  });
  ids.cooking = await makeApp(dev2, categoryId, {
    name: `家常菜${run}`,
    intro: "Recipes for busy weeknights",
    tags: ["烹饪", "kitchen"],
    listedAt: new Date(t0 + 3000),
  });
  ids.private = await makeApp(dev, categoryId, { name: `私人旅行助手${run}`, intro: "旅行", isPublic: false });
  ids.offShelf = await makeApp(dev, categoryId, { name: `下架旅行${run}`, intro: "旅行", state: "off_shelf" });
  ids.removed = await makeApp(dev, categoryId, { name: `移除旅行${run}`, intro: "旅行", state: "removed" });
  ids.review = await makeApp(dev, categoryId, { name: `审核中旅行${run}`, intro: "旅行", state: "under_review" });
  ids.notInCentre = await makeApp(dev, categoryId, { name: `不在中心旅行${run}`, intro: "旅行", inAppCentre: false });
  ids.staffOnly = await makeApp(dev, categoryId, { name: `员工旅行${run}`, intro: "旅行", mode: "sub_account" });
  await getDb().model.createMany({
    data: [
      { key: TEXT_MODEL, displayName: "Text", kind: "text", upstreamModel: TEXT_MODEL },
      { key: IMAGE_MODEL, displayName: "Image", kind: "image", upstreamModel: IMAGE_MODEL },
    ],
  });
  ids.textAgent = await makeShelvedAgent(dev, `写作${run}`, TEXT_MODEL, "Writes essays");
  ids.imageAgent = await makeShelvedAgent(dev2, `画图${run}`, IMAGE_MODEL, "Draws posters");
});

afterAll(async () => {
  await getDb().appCategory.deleteMany({ where: { id: categoryId } });
});

describe("listing rules", () => {
  it("lists only on-shelf, public, in-centre, general apps, by popularity or newest, a page at a time", async () => {
    const popular = await allPages((cursor) => catalog.listAppCentre(ZListAppsInput.parse({ categoryId, cursor, limit: 2 })));
    expect(new Set(popular.map((a) => a.id))).toEqual(new Set([ids.travel, ids.english, ids.cooking]));
    const newest = await allPages((cursor) => catalog.listAppCentre(ZListAppsInput.parse({ categoryId, sort: "newest", cursor, limit: 1 })));
    expect(newest.map((a) => a.id)).toEqual([ids.cooking, ids.english, ids.travel]);
    expect(newest[0]).toMatchObject({ owner: { id: dev2.id }, categoryId, tags: ["烹饪", "kitchen"] });
  });

  it("lists and details an app stored without tags as one with none (a null array must not take the app centre down)", async () => {
    const { tags } = await getDb().app.findUniqueOrThrow({ where: { id: ids.travel }, select: { tags: true } });
    await getDb().$executeRawUnsafe("UPDATE app SET tags = NULL WHERE id = $1", ids.travel);
    try {
      const listed = await allPages((cursor) => catalog.listAppCentre(ZListAppsInput.parse({ categoryId, cursor, limit: 5 })));
      expect(listed.find((a) => a.id === ids.travel)?.tags).toEqual([]);
      expect((await catalog.getAppDetail(null, ids.travel)).app.tags).toEqual([]);
    } finally {
      await getDb().app.update({ where: { id: ids.travel }, data: { tags } });
    }
  });

  it("refuses an altered cursor with validation_failed", async () => {
    expect((await refusal(catalog.listAppCentre(ZListAppsInput.parse({ categoryId, cursor: "bm90LWpzb24" })))).code).toBe("validation_failed");
  });

  it("opens details of a private or not-in-centre app by link, never an off-shelf or removed one to others", async () => {
    expect((await catalog.getAppDetail(null, ids.private)).app.listed).toBe(false);
    expect((await catalog.getAppDetail(fan, ids.notInCentre)).app.id).toBe(ids.notInCentre);
    for (const id of [ids.offShelf, ids.removed, ids.review]) expect((await refusal(catalog.getAppDetail(fan, id))).code).toBe("not_found");
    expect((await catalog.getAppDetail(dev, ids.offShelf)).app.state).toBe("off_shelf");
    expect((await refusal(catalog.getAppDetail(fan, ids.staffOnly))).code).toBe("not_found");
  });

  it("lists agents with a version on the shelf, with the update log in details", async () => {
    const agents = await allPages((cursor) => catalog.listAgentMarket({ cursor, limit: 50 }));
    expect(agents.map((a) => a.id)).toEqual(expect.arrayContaining([ids.textAgent, ids.imageAgent]));
    const detail = await catalog.getAgentDetail(null, ids.textAgent);
    expect(detail.agent).toMatchObject({ version: "1.1.0", introduction: "Writes essays" });
    expect(detail.updateLog.map((l) => l.version)).toEqual(["1.1.0", "1.0.0"]);
    expect(detail.developer).toMatchObject({ id: dev.id, apps: 2, agents: 1 });
  });
});

describe("search", () => {
  const found = async (q: string, kind: "app" | "agent" = "app") => {
    const r = await catalog.searchMarket({ q, kind, limit: 50 });
    return (kind === "app" ? r.apps.items : r.agents.items).map((i) => i.id);
  };

  it("finds apps in Chinese by name, introduction and tags, never unlisted ones", async () => {
    expect(await found(`旅行规划师${run}`)).toContain(ids.travel);
    expect(await found("安排行程")).toContain(ids.travel);
    const byTag = await found("烹饪");
    expect(byTag).toContain(ids.cooking);
    const all = await found("旅行");
    expect(all).toContain(ids.travel);
    for (const id of [ids.private, ids.offShelf, ids.removed, ids.review, ids.notInCentre, ids.staffOnly]) expect(all).not.toContain(id);
  });

  it("finds apps in English by name, introduction and tags, names ranked first", async () => {
    expect(await found(`contract reviewer ${run}`)).toContain(ids.english);
    expect(await found("risky clauses")).toContain(ids.english);
    expect(await found("lawyer")).toContain(ids.english);
    expect(await found("kitchen")).toContain(ids.cooking);
    // A name hit (weight A) ranks above an introduction hit (weight C).
    const named = await makeApp(dev2, categoryId, { name: `Risky ${run}`, intro: "nothing else" });
    const ranked = await found("risky");
    expect(ranked.indexOf(named)).toBeLessThan(ranked.indexOf(ids.english));
  });

  it("searches agents by name and introduction", async () => {
    expect(await found(`写作${run}`, "agent")).toContain(ids.textAgent);
    expect(await found("posters", "agent")).toContain(ids.imageAgent);
  });
});

describe("categories and carousel", () => {
  it("refuses a category sort order already taken, in the user's language, and saves nothing", async () => {
    const cat = await getDb().appCategory.findUniqueOrThrow({ where: { id: categoryId } });
    const before = await getDb().appCategory.count();
    const dup = await refusal(admin.createCategory(adminUser, ZCategoryInput.parse({ names: { zh_hans: "重复" }, sortOrder: cat.sortOrder })), "zh_hans");
    expect(dup.code).toBe("ranking_repeat");
    expect(dup.envelope.description).toBe("排名不能重复");
    expect(await getDb().appCategory.count()).toBe(before);
    const other = await admin.createCategory(adminUser, ZCategoryInput.parse({ names: { zh_hans: "其他", en: "Other" }, sortOrder: cat.sortOrder + 1 }));
    expect(
      (await refusal(admin.updateCategory(adminUser, ZUpdateCategoryInput.parse({ id: other.id, names: { zh_hans: "其他" }, sortOrder: cat.sortOrder })))).code,
    ).toBe("ranking_repeat");
    expect((await getDb().appCategory.findUniqueOrThrow({ where: { id: other.id } })).sortOrder).toBe(cat.sortOrder + 1);
    await admin.deleteCategory(adminUser, { id: other.id });
    expect((await refusal(admin.createCategory(dev, ZCategoryInput.parse({ names: { zh_hans: "x" }, sortOrder: 1 })))).code).toBe("no_permission");
  });

  it("validates carousel links (http(s) or a site path) and images, and shows enabled slides in order", async () => {
    const bad = schemaRefusal(ZCarouselInput, { name: "Bad", imageUrl: "/files/images/a.png", link: "javascript:alert(1)" });
    expect(bad.code).toBe("validation_failed");
    expect(bad.envelope.description).toBe("A jump link must start with http://, https:// or /");
    expect(schemaRefusal(ZCarouselInput, { name: "Bad", imageUrl: "/files/images/a.png", link: "//evil.example" }).code).toBe("validation_failed");
    expect(schemaRefusal(ZCarouselInput, { name: "Bad", imageUrl: "file:///etc/passwd", link: "/app_store" }).code).toBe("validation_failed");
    const a = await admin.createCarousel(
      adminUser,
      ZCarouselInput.parse({ name: `Slide A ${run}`, imageUrl: "/files/images/a.png", link: "https://example.com/a", sortOrder: 2 }),
    );
    const b = await admin.createCarousel(
      adminUser,
      ZCarouselInput.parse({ name: `Slide B ${run}`, imageUrl: "/files/images/b.png", link: "/app_store?x=1", sortOrder: 1 }),
    );
    const off = await admin.createCarousel(
      adminUser,
      ZCarouselInput.parse({ name: `Slide C ${run}`, imageUrl: "/files/images/c.png", link: "", enabled: false }),
    );
    const shown = (await admin.getMarketHeader()).carousel.map((c) => c.id);
    expect(shown.indexOf(b.id)).toBeLessThan(shown.indexOf(a.id));
    expect(shown).not.toContain(off.id);
    for (const s of [a, b, off]) await admin.deleteCarousel(adminUser, { id: s.id });
  });
});

describe("social actions", () => {
  it("follows a developer once, never yourself, and undoes", async () => {
    const self = await refusal(social.followDeveloper(dev, { accountId: dev.id }), "zh_hans");
    expect(self.code).toBe("cannot_follow_self");
    expect(self.envelope.description).toBe("不能关注自己");
    expect(await getDb().follow.count({ where: { followerId: dev.id } })).toBe(0);
    expect(await social.followDeveloper(fan, { accountId: dev.id })).toEqual({ following: true, followers: 1 });
    expect((await refusal(social.followDeveloper(fan, { accountId: dev.id }))).code).toBe("repeat_action");
    expect(await getDb().follow.count({ where: { followeeId: dev.id } })).toBe(1);
    expect(await social.unfollowDeveloper(fan, { accountId: dev.id })).toEqual({ following: false, followers: 0 });
    expect((await refusal(social.followDeveloper(fan, { accountId: "nobody" }))).code).toBe("not_found");
  });

  it("likes and collects once each, keeping the app's counters and popularity, and undoes", async () => {
    const before = await appRow(ids.cooking);
    await social.addReaction(fan, { targetType: "app", targetId: ids.cooking, kind: "like" });
    const liked = await refusal(social.addReaction(fan, { targetType: "app", targetId: ids.cooking, kind: "like" }));
    expect(liked.code).toBe("already_liked");
    expect(liked.envelope.description).toBe("Already liked");
    await social.addReaction(fan, { targetType: "app", targetId: ids.cooking, kind: "collect" });
    const collected = await refusal(social.addReaction(fan, { targetType: "app", targetId: ids.cooking, kind: "collect" }), "zh_hans");
    expect(collected.code).toBe("already_collected");
    expect(collected.envelope.description).toBe("不能重复收藏");
    expect(await appRow(ids.cooking)).toEqual({
      ...before,
      likeCount: before.likeCount + 1,
      collectCount: before.collectCount + 1,
      popularity: before.popularity + 15,
    });
    expect((await catalog.getAppDetail(fan, ids.cooking)).viewer).toMatchObject({ liked: true, collected: true, isOwner: false });
    await social.removeReaction(fan, { targetType: "app", targetId: ids.cooking, kind: "like" });
    await social.removeReaction(fan, { targetType: "app", targetId: ids.cooking, kind: "like" });
    expect(await appRow(ids.cooking)).toMatchObject({ likeCount: before.likeCount, collectCount: before.collectCount + 1 });
    // Off-shelf apps take no reactions; the refusal writes nothing.
    expect((await refusal(social.addReaction(fan, { targetType: "app", targetId: ids.offShelf, kind: "like" }))).code).toBe("not_found");
    expect(await getDb().marketReaction.count({ where: { targetId: ids.offShelf } })).toBe(0);
    await social.addReaction(fan, { targetType: "agent", targetId: ids.textAgent, kind: "like" });
    expect((await refusal(social.addReaction(fan, { targetType: "agent", targetId: ids.textAgent, kind: "like" }))).code).toBe("already_liked");
  });

  it("counts comment words (a CJK character is one) and refuses long, empty or sensitive ones with nothing written", async () => {
    expect(countWords("你好 world, 世界")).toBe(5);
    const before = await appRow(ids.travel);
    const long = schemaRefusal(ZCommentInput, { targetType: "app", targetId: ids.travel, content: "好".repeat(501) });
    expect(long.code).toBe("validation_failed");
    expect(long.envelope.description).toBe("A comment is at most 500 words");
    await social.addComment(fan, { targetType: "app", targetId: ids.travel, content: "好".repeat(500) });
    const words = schemaRefusal(ZCommentInput, { targetType: "app", targetId: ids.travel, content: Array(501).fill("word").join(" ") });
    expect(words.code).toBe("validation_failed");
    expect(schemaRefusal(ZCommentInput, { targetType: "app", targetId: ids.travel, content: "   " }).code).toBe("validation_failed");
    const saved = await getSensitiveWords();
    await setSensitiveWords({ words: [...saved, `违禁${run}`] });
    try {
      const bad = await refusal(social.addComment(fan, { targetType: "app", targetId: ids.travel, content: `这里有违禁${run}内容` }));
      expect(bad.code).toBe("sensitive_input");
    } finally {
      await setSensitiveWords({ words: saved });
    }
    expect(await appRow(ids.travel)).toMatchObject({ commentCount: before.commentCount + 1 });
    expect(await getDb().marketComment.count({ where: { targetId: ids.travel } })).toBe(1);
  });

  it("replies up to 150 words, lists comments and replies, and deletes only your own with its replies", async () => {
    const top = await social.addComment(dev2, { targetType: "app", targetId: ids.english, content: "Very useful for NDAs" });
    const longReply = schemaRefusal(ZCommentInput, { targetType: "app", targetId: ids.english, parentId: top.id, content: "字".repeat(151) });
    expect(longReply.envelope.description).toBe("A reply is at most 150 words");
    const reply = await social.addComment(fan, { targetType: "app", targetId: ids.english, parentId: top.id, content: "字".repeat(150) });
    expect((await refusal(social.addComment(fan, { targetType: "app", targetId: ids.travel, parentId: top.id, content: "wrong app" }))).code).toBe("not_found");
    expect((await refusal(social.addComment(fan, { targetType: "app", targetId: ids.english, parentId: reply.id, content: "reply to a reply" }))).code).toBe(
      "not_found",
    );
    const page = await social.listComments(null, { targetType: "app", targetId: ids.english, limit: 20 });
    expect(page.items).toEqual([expect.objectContaining({ id: top.id, replyCount: 1, mine: false })]);
    expect((await social.listReplies(fan, { parentId: top.id, limit: 20 })).items).toEqual([expect.objectContaining({ id: reply.id, mine: true })]);
    expect(await appRow(ids.english)).toMatchObject({ commentCount: 2 });
    expect((await refusal(social.deleteComment(fan, { id: top.id }))).code).toBe("not_found");
    expect(await appRow(ids.english)).toMatchObject({ commentCount: 2 });
    await social.deleteComment(dev2, { id: top.id });
    expect(await appRow(ids.english)).toMatchObject({ commentCount: 0 });
    expect((await social.listComments(null, { targetType: "app", targetId: ids.english, limit: 20 })).items).toEqual([]);
  });
});

describe("ranking job", () => {
  it("recounts the counters and rebuilds the four lists", async () => {
    const day = 20260101;
    await getDb().appUse.createMany({
      data: [
        ...Array.from({ length: 40 }, () => ({ appId: ids.travel, accountId: fan.id, source: "h5", basis: "free", day })),
        ...Array.from({ length: 5 }, () => ({ appId: ids.travel, accountId: dev.id, source: "h5", basis: "owner", day })),
        ...Array.from({ length: 10 }, () => ({ appId: ids.private, accountId: fan.id, source: "h5", basis: "free", day })),
      ],
    });
    // A counter that drifted is healed by the recount.
    await getDb().app.update({ where: { id: ids.english }, data: { likeCount: 99 } });
    await social.addReaction(fan, { targetType: "agent", targetId: ids.imageAgent, kind: "collect" });
    // A sale of dev's app through the ledger: dev earns 90% of it (the platform keeps 10%).
    const plan = await getDb().appPlan.create({
      data: { appId: ids.travel, kind: "count", quantity: 10, priceMicro: 500_000_000n, dailyLimit: 5 },
      select: { id: true },
    });
    await fundAccount(fan.id, 500_000_000);
    await buyAppPlan(fan, { app_id: ids.travel, plan_id: plan.id, request_id: crypto.randomUUID() });
    const written = await rebuildRankings();
    expect(Object.keys(written).sort()).toEqual(["engineer_earnings", "image_agents", "language_agents", "popularity"]);
    expect(await appRow(ids.english)).toMatchObject({ likeCount: 0 });
    expect((await appRow(ids.travel)).popularity).toBe(45 + 3); // 45 uses and one comment
    const lists = await readRankings(50);
    const popular = lists.popularity;
    expect(popular.map((r) => r.rank)).toEqual(popular.map((_, i) => i + 1));
    expect(popular.find((r) => r.targetId === ids.travel)).toMatchObject({ targetType: "app", score: 48, name: `旅行规划师${run}` });
    expect(popular.some((r) => r.targetId === ids.private)).toBe(false);
    for (let i = 1; i < popular.length; i++) expect(popular[i - 1].score).toBeGreaterThanOrEqual(popular[i].score);
    // Earnings are what the ledger credited the developer for sales (uses earn nothing by themselves).
    expect(lists.engineer_earnings.find((r) => r.targetId === dev.id)).toMatchObject({ targetType: "account", score: 450_000_000 });
    expect(lists.language_agents.find((r) => r.targetId === ids.textAgent)).toMatchObject({ targetType: "agent", score: 5 });
    expect(lists.image_agents.find((r) => r.targetId === ids.imageAgent)).toMatchObject({ score: 10, subtitle: expect.stringMatching(/^Market \d+$/) });
    expect(lists.image_agents.some((r) => r.targetId === ids.textAgent)).toBe(false);
  });
});
