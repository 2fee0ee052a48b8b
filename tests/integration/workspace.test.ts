// The workspace's getting-started checklist ticks itself off from an account's real data, step by
// step: an agent, a training set, an app, someone else chatting with the app, a sale. Deleted
// things and the owner's own chats do not count, and nobody's progress shows in another's.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getWorkspaceOverview } from "../../server/workspace/workspace.service";
import { createTrainingSet } from "../../server/knowledge/training-sets.service";
import { buyAppPlan } from "../../server/money/purchases/purchases.service";
import { getDb } from "../../server/db/client";
import { fundAccount } from "../helpers/money";
import { createTestApp, makeAppOwner, makeLiveAgent } from "../helpers/apps";
import { makeUser, sendSse, useChatHarness } from "../helpers/chat-runtime";

const h = useChatHarness();
const APP_SSE = { path: "/api/v2/app/send_message/sse" };
const Z = 1_000_000;

async function stepsOf(accountId: string) {
  const account = await getDb().account.findUniqueOrThrow({ where: { id: accountId }, select: { id: true, phone: true } });
  const overview = await getWorkspaceOverview(account);
  return {
    overview,
    done: Object.fromEntries(overview.steps.map((s) => [s.key, s.done])),
    count: Object.fromEntries(overview.steps.map((s) => [s.key, s.count])),
  };
}

describe("the getting-started checklist", () => {
  it("ticks each step from the account's own data, in order, and shows the balance", async () => {
    const owner = await makeAppOwner();
    const fresh = await stepsOf(owner.id);
    expect(fresh.overview.steps.map((s) => s.key)).toEqual(["agent", "knowledge", "publish", "share", "earn"]);
    expect(fresh.done).toEqual({ agent: false, knowledge: false, publish: false, share: false, earn: false });
    expect(fresh.overview).toMatchObject({ done: 0, incomeMicro: 0, phoneBound: false, balance: { availableMicro: 10 * Z, giftMicro: 10 * Z } });

    const agentId = await makeLiveAgent(owner);
    expect((await stepsOf(owner.id)).done).toMatchObject({ agent: true, knowledge: false });

    await createTrainingSet(owner, { type: "standard", name: "问答", introduction: "Q&A for the checklist" });
    expect((await stepsOf(owner.id)).done).toMatchObject({ knowledge: true, publish: false });

    const { appId } = await createTestApp({
      owner,
      agentId,
      input: { free_per_day: 5, plans: [{ kind: "days", quantity: 30, price_micro: 2 * Z, daily_limit: null }], share_ratio: 30 } as never,
    });
    expect(await stepsOf(owner.id)).toMatchObject({ done: { publish: true, share: false }, count: { agent: 1, knowledge: 1, publish: 1 } });

    // Someone else chats with the app through its link: shared.
    const visitor = await makeUser(h.api.base);
    const chat = await sendSse(h.api.base, visitor, { app_id: appId, content: "hello" }, APP_SSE);
    expect(chat.events.map((e) => e.event)).toContain("close");
    const shared = await stepsOf(owner.id);
    expect(shared).toMatchObject({ done: { share: true, earn: false }, count: { share: 1 } });

    // The first sale: earned, with the developer's share as income.
    const plan = await getDb().appPlan.findFirstOrThrow({ where: { appId }, select: { id: true } });
    await fundAccount(visitor.id, 5 * Z, "spendable");
    await buyAppPlan({ id: visitor.id }, { app_id: appId, plan_id: plan.id, request_id: crypto.randomUUID() });
    const earned = await stepsOf(owner.id);
    expect(earned.overview.done).toBe(5);
    expect(earned.done.earn).toBe(true);
    // 2 Z sold without a sharer: 10% to the platform, 1.8 Z to the developer's balance.
    expect(earned.overview.incomeMicro).toBe(1.8 * Z);
    expect(earned.overview.balance.availableMicro - shared.overview.balance.availableMicro).toBe(1.8 * Z);
  });

  it("does not count the owner's own chats, deleted things, or anyone else's progress", async () => {
    const owner = await makeUser(h.api.base);
    const actor = { id: owner.id, roles: [] as never[], enterpriseId: null };
    const { appId, agentId } = await createTestApp({ owner: actor });
    const own = await sendSse(h.api.base, owner, { app_id: appId, content: "my own app" }, APP_SSE);
    expect(own.events.map((e) => e.event)).toContain("close");
    expect(await getDb().appUse.count({ where: { appId } })).toBeGreaterThan(0);
    expect((await stepsOf(owner.id)).done).toMatchObject({ agent: true, publish: true, share: false });

    await getDb().app.update({ where: { id: appId }, data: { deletedAt: new Date() } });
    await getDb().agent.update({ where: { id: agentId }, data: { deletedAt: new Date() } });
    expect((await stepsOf(owner.id)).done).toMatchObject({ agent: false, publish: false });

    // Another account's agents, apps and sales are not this one's.
    const stranger = await makeAppOwner();
    expect((await stepsOf(stranger.id)).overview.done).toBe(0);
  });

  it("an account someone signed up through counts as shared", async () => {
    const sharer = await makeAppOwner();
    await getDb().account.create({
      data: { account: `ref${crypto.randomBytes(4).toString("hex")}`, nickname: "Invitee", referredById: sharer.id },
      select: { id: true },
    });
    expect(await stepsOf(sharer.id)).toMatchObject({ done: { share: true }, count: { share: 1 } });
  });
});
