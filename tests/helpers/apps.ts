// Apps for tests of every app area: an owner, an agent with a live version, and an app of
// it put on the shelf through the real service and lifecycle (as an administrator's approval does).
import crypto from "node:crypto";
import { createAgent, publishAgent } from "../../server/agents/agents.service";
import { moveApp } from "../../server/apps/app-lifecycle";
import { createApp } from "../../server/apps/apps.service";
import * as appsRepo from "../../server/apps/apps.repository";
import { ZAppInput, type TAppInput, type TAppState } from "../../server/apps/apps.schema";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { getDb } from "../../server/db/client";
import { OFFLINE_MODEL_KEY } from "../../server/knowledge/offline-channel";
import { seedOfflineChannel } from "../../prisma/seed/demo-knowledge";
import { fundAccount } from "./money";

export type TTestActor = { id: string; roles: never[]; enterpriseId: string | null };
const uid = () => crypto.randomBytes(4).toString("hex");

/** An account (flagship by default: no app or agent limit) to own apps, with 10 Z of gift credit: it pays its apps' replies. */
export async function makeAppOwner(
  opts: { edition?: "basic" | "professional" | "flagship" | "enterprise" | "education"; enterpriseId?: string | null; roles?: string[]; funded?: boolean } = {},
): Promise<TTestActor> {
  const row = await getDb().account.create({
    data: {
      account: `app${uid()}`,
      nickname: "App owner",
      edition: opts.edition ?? "flagship",
      editionExpiresAt: new Date(Date.now() + 30 * 86_400_000),
      language: "en",
      enterpriseId: opts.enterpriseId ?? null,
      roles: (opts.roles ?? []) as never,
    },
    select: { id: true },
  });
  if (opts.funded !== false) await fundAccount(row.id);
  return { id: row.id, roles: (opts.roles ?? []) as never[], enterpriseId: opts.enterpriseId ?? null };
}

/** A category to file apps under (the demo categories when seeded, else one of its own). */
export async function ensureTestCategory(): Promise<number> {
  const db = getDb();
  const any = await db.appCategory.findFirst({ orderBy: { sortOrder: "asc" }, select: { id: true } });
  if (any) return any.id;
  const slug = `test_${uid()}`;
  const created = await db.appCategory.create({
    data: { slug, sortOrder: 100_000 + crypto.randomInt(1_000_000), names: { zh_hans: "测试", zh_hant: "測試", en: "Tests", pt: "Testes" } },
    select: { id: true },
  });
  return created.id;
}

/** An agent of `owner` on the offline model with a published (live) version. */
export async function makeLiveAgent(owner: TTestActor, config: Record<string, unknown> = {}) {
  await seedOfflineChannel(getDb());
  const agent = await createAgent(
    owner,
    ZAgentInput.parse({
      name: "应用助手",
      introduction: "An agent for app tests",
      model_key: OFFLINE_MODEL_KEY,
      out_of_scope_reply: "I only answer questions about Zelin.",
      ...config,
    }),
  );
  await publishAgent(owner, { id: agent.id });
  return agent.id;
}

/** A valid app input for `agentId` (H5 by default), parsed as the form's edge parses it; `input` overrides fields. */
export async function validAppInput(agentId: string, input: Partial<TAppInput> = {}): Promise<TAppInput> {
  return ZAppInput.parse({
    type: "h5",
    name: `测试应用 ${uid()}`,
    icon_url: "/files/images/test-icon.png",
    introduction: "一个用于测试的应用。An app for tests.",
    category_id: await ensureTestCategory(),
    tags: ["test"],
    agent_ids: [agentId],
    input_modes: ["text"],
    free_per_day: 20,
    welcome_messages: ["Hello"],
    recommended_questions: ["What can you do?"],
    ...input,
  });
}

/**
 * Creates an app through the apps service and puts it in `state` (on_shelf by default) through
 * the lifecycle table. Without `agentId`, the owner gets a new agent with a live version; without
 * `owner`, a new flagship account owns both.
 */
export async function createTestApp(opts: { owner?: TTestActor; agentId?: string; input?: Partial<TAppInput>; state?: TAppState } = {}) {
  const owner = opts.owner ?? (await makeAppOwner());
  const agentId = opts.agentId ?? (await makeLiveAgent(owner));
  const app = await createApp(owner, await validAppInput(agentId, opts.input));
  const state = opts.state ?? "on_shelf";
  if (state !== "under_review") {
    await getDb().$transaction(async (tx) => {
      const now = new Date();
      if (state === "on_shelf" || state === "off_shelf")
        await appsRepo.updateAppById(app.id, { state: moveApp("under_review", "approve").state, reviewedAt: now, listedAt: now }, tx);
      if (state === "off_shelf") await appsRepo.updateAppById(app.id, { state: moveApp("on_shelf", "take_down").state, listedAt: null }, tx);
      if (state === "removed")
        await appsRepo.updateAppById(
          app.id,
          { state: moveApp("under_review", "remove", { reason: "test removal" }).state, removedReason: "test removal", reviewedAt: now },
          tx,
        );
    });
  }
  return { appId: app.id, agentId, owner };
}
