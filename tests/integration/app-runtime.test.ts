// The app runtime: visitors and signed-in consumers chat with an app's
// agent on the offline channel and on the fake OpenAI upstream; the entitlement's free count,
// trial and plan refusals (nothing written, nothing asked upstream), the concurrent last use,
// the owner always allowed, private / sub-account / off-shelf rules, a visitor's dialogues and
// feedback theirs alone, and one AppUse row per reply given.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { chinaDay } from "../../server/apps/app-entitlements.service";
import { getDb } from "../../server/db/client";
import { ERROR_CODES } from "../../server/errors/codes";
import { Browser } from "../helpers/api-client";
import { createTestApp } from "../helpers/apps";
import { withReviewPolicy } from "../helpers/review-policy";
import { contentOf, dataOf, makeAgent, makeUser, names, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";

const h = useChatHarness();
const base = () => h.api.base;
const APP_SSE = { path: "/api/v2/app/send_message/sse" };
let ip = 0;

/** An anonymous visitor: a browser with the CSRF cookie and a visitor id of its own. */
function makeVisitor(): TUser & { visitorId: string } {
  const browser = new Browser(base(), `10.66.${Math.floor(++ip / 250)}.${ip % 250}`);
  const visitorId = crypto.randomBytes(16).toString("hex");
  browser.cookies.set("zl_visitor", visitorId);
  browser.cookies.set("lang", "en");
  return { id: "", browser, actor: { id: "", roles: [], enterpriseId: null }, visitorId };
}

const send = (user: TUser, body: Record<string, unknown>) => sendSse(base(), user, body, APP_SSE);
const errorOf = (r: Awaited<ReturnType<typeof send>>) => dataOf(r, "error")[0] as { status: number; description: string } | undefined;
const usesOf = (appId: string) => getDb().appUse.findMany({ where: { appId }, orderBy: { createdAt: "asc" } });
const countRows = async (appId: string) => ({
  dialogues: await getDb().dialogue.count({ where: { appId } }),
  messages: await getDb().chatMessage.count({ where: { dialogue: { appId } } }),
  uses: await getDb().appUse.count({ where: { appId } }),
});

/** An app on the fake upstream: its owner (signed in), its agent's key (upstream request count). */
async function fakeUpstreamApp(input: Record<string, unknown> = {}, state?: "on_shelf" | "off_shelf" | "removed" | "under_review") {
  const owner = await makeUser(base());
  const agent = await makeAgent(h, owner, { publish: true });
  const { appId } = await createTestApp({ owner: { id: owner.id, roles: [], enterpriseId: null }, agentId: agent.agentId, input: input as never, state });
  return { owner, appId, key: agent.key, agentId: agent.agentId };
}

describe("app turns", () => {
  it("a visitor chats with an H5 app on the offline channel: a dialogue of the visitor with the app and one free use", async () => {
    const { appId, owner } = await createTestApp();
    const visitor = makeVisitor();
    const r = await send(visitor, { app_id: appId, content: "hello there" });
    expect(names(r)).toEqual(expect.arrayContaining(["message", "close"]));
    expect(contentOf(r)).toBe("I only answer questions about Zelin.");
    const close = dataOf(r, "close")[0];
    const d = await getDb().dialogue.findUniqueOrThrow({ where: { id: close.dialogue_id } });
    expect(d).toMatchObject({ appId, accountId: null, visitorId: visitor.visitorId, source: "h5" });
    const uses = await usesOf(appId);
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ visitorId: visitor.visitorId, accountId: null, source: "h5", basis: "free", day: chinaDay(new Date()), dialogueId: d.id });
    expect(owner.id).toBeTruthy();
  });

  it("gives a new visitor the zl_visitor cookie", async () => {
    const { appId } = await createTestApp();
    const res = await fetch(`${base()}/api/v2/app/send_message/sse`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "zl_csrf=t", "x-csrf-token": "t" },
      body: JSON.stringify({ app_id: appId, content: "hi" }),
    });
    await res.text();
    expect(res.headers.get("set-cookie") ?? "").toMatch(/zl_visitor=[0-9a-f]{32}; .*HttpOnly/i);
  });

  it("answers through the fake upstream with the owner's agent, keeps the visitor's dialogue, and records the tokens", async () => {
    const { appId, key } = await fakeUpstreamApp();
    const visitor = makeVisitor();
    const first = await send(visitor, { app_id: appId, content: "first question" });
    expect(contentOf(first)).toBe("word0 word1 word2 ");
    const dialogueId = dataOf(first, "close")[0].dialogue_id;
    const second = await send(visitor, { app_id: appId, dialogue_id: dialogueId, content: "second question" });
    expect(dataOf(second, "close")[0].dialogue_id).toBe(dialogueId);
    expect(h.fake.requestsFor(key)).toBe(2);
    const uses = await usesOf(appId);
    expect(uses).toHaveLength(2);
    expect(uses.every((u) => u.promptTokens > 0 && u.completionTokens > 0 && u.dialogueId === dialogueId)).toBe(true);

    // Another visitor cannot continue it, nor regenerate in it: not_found, nothing asked upstream.
    const other = makeVisitor();
    const before = await countRows(appId);
    expect(errorOf(await send(other, { app_id: appId, dialogue_id: dialogueId, content: "mine now?" }))?.status).toBe(ERROR_CODES.not_found.status);
    const replyId = dataOf(second, "close")[0].id;
    expect(errorOf(await send(other, { app_id: appId, dialogue_id: dialogueId, regenerate_message_id: replyId }))?.status).toBe(ERROR_CODES.not_found.status);
    expect(h.fake.requestsFor(key)).toBe(2);
    expect(await countRows(appId)).toEqual(before);
  });
});

describe("entitlement", () => {
  it("refuses the use after the free count with times_exhausted, writing nothing and asking nobody; the owner always may", async () => {
    const { appId, key, owner } = await fakeUpstreamApp({ free_per_day: 2 });
    const visitor = makeVisitor();
    for (let i = 0; i < 2; i++) expect(names(await send(visitor, { app_id: appId, content: `q${i}` }))).toContain("close");
    const before = await countRows(appId);
    const refused = await send(visitor, { app_id: appId, content: "one more" });
    expect(errorOf(refused)).toEqual(
      expect.objectContaining({ status: ERROR_CODES.times_exhausted.status, description: "Times exhausted, please try tomorrow" }),
    );
    expect(await countRows(appId)).toEqual(before);
    expect(h.fake.requestsFor(key)).toBe(2);

    const ent = await visitor.browser.call(`/api/v2/app/entitlement?app_id=${appId}`);
    expect(ent.body.data).toMatchObject({ basis: null, remainingToday: 0, refusal: "times_exhausted" });
    // Another visitor still has their own free count.
    const fresh = await makeVisitor().browser.call(`/api/v2/app/entitlement?app_id=${appId}`);
    expect(fresh.body.data).toMatchObject({ basis: "free", remainingToday: 2, refusal: null });

    for (let i = 0; i < 3; i++) expect(names(await send(owner, { app_id: appId, content: `owner ${i}` }))).toContain("close");
    const ownerUses = (await usesOf(appId)).filter((u) => u.accountId === owner.id);
    expect(ownerUses.map((u) => u.basis)).toEqual(["owner", "owner", "owner"]);
  });

  it("refuses with trial_count_zero when the app sells plans, and serves a trial while it lasts", async () => {
    const { appId } = await createTestApp({
      input: { free_per_day: 1, plans: [{ kind: "days", quantity: 30, price_micro: 1_000_000, daily_limit: null }] } as never,
    });
    const visitor = makeVisitor();
    expect(names(await send(visitor, { app_id: appId, content: "free one" }))).toContain("close");
    expect(errorOf(await send(visitor, { app_id: appId, content: "again" }))?.status).toBe(ERROR_CODES.trial_count_zero.status);

    const trial = await createTestApp({ input: { free_per_day: 1, trial_days: 3 } as never });
    const v2 = makeVisitor();
    for (let i = 0; i < 3; i++) expect(names(await send(v2, { app_id: trial.appId, content: `t${i}` }))).toContain("close");
    expect((await usesOf(trial.appId)).map((u) => u.basis)).toEqual(["free", "trial", "trial"]);
    // A trial that began four days ago is over.
    await getDb().appUse.updateMany({ where: { appId: trial.appId }, data: { createdAt: new Date(Date.now() - 4 * 86_400_000) } });
    const ent = await v2.browser.call(`/api/v2/app/entitlement?app_id=${trial.appId}`);
    expect(ent.body.data.refusal).toBe("times_exhausted");
  });

  it("lets only one of two simultaneous requests take the last free use", async () => {
    const { appId, key } = await fakeUpstreamApp({ free_per_day: 1 });
    const visitor = makeVisitor();
    const [a, b] = await Promise.all([send(visitor, { app_id: appId, content: "racing one" }), send(visitor, { app_id: appId, content: "racing two" })]);
    const closes = [a, b].filter((r) => names(r).includes("close"));
    const refusals = [a, b].map(errorOf).filter(Boolean);
    expect(closes).toHaveLength(1);
    expect(refusals.map((e) => e!.status)).toEqual([ERROR_CODES.times_exhausted.status]);
    expect(await getDb().appUse.count({ where: { appId } })).toBe(1);
    expect(await getDb().dialogue.count({ where: { appId } })).toBe(1);
    expect(h.fake.requestsFor(key)).toBe(1);
  });

  it("releases the use of a turn whose upstream failed: no reply, no use", async () => {
    const owner = await makeUser(base());
    const agent = await makeAgent(h, owner, { publish: true, behaviour: { fail: "500" } });
    const { appId } = await createTestApp({
      owner: { id: owner.id, roles: [], enterpriseId: null },
      agentId: agent.agentId,
      input: { free_per_day: 1 } as never,
    });
    const visitor = makeVisitor();
    expect(errorOf(await send(visitor, { app_id: appId, content: "fails" }))?.status).toBe(ERROR_CODES.model_failed.status);
    expect(await getDb().appUse.count({ where: { appId } })).toBe(0);
  });
});

describe("who may open an app", () => {
  it("opens a private app by its id", async () => {
    const { appId } = await createTestApp({ input: { is_public: false } as never });
    expect(names(await send(makeVisitor(), { app_id: appId, content: "by link" }))).toContain("close");
  });

  it("serves a sub-account app only to signed-in staff of the owner's enterprise", async () => {
    const enterprise = await getDb().enterprise.create({
      data: { name: "Acme", domain: `acme${crypto.randomBytes(4).toString("hex")}` },
      select: { id: true },
    });
    const owner = await makeUser(base());
    await getDb().account.update({ where: { id: owner.id }, data: { enterpriseId: enterprise.id, edition: "enterprise" } });
    const { appId } = await createTestApp({ owner: { id: owner.id, roles: [], enterpriseId: enterprise.id }, input: { mode: "sub_account" } as never });
    expect(errorOf(await send(makeVisitor(), { app_id: appId, content: "hi" }))?.status).toBe(ERROR_CODES.not_logged_in.status);
    const outsider = await makeUser(base());
    expect(errorOf(await send(outsider, { app_id: appId, content: "hi" }))?.status).toBe(ERROR_CODES.no_permission.status);
    const staff = await makeUser(base());
    await getDb().account.update({ where: { id: staff.id }, data: { enterpriseId: enterprise.id } });
    expect(names(await send(staff, { app_id: appId, content: "hi" }))).toContain("close");
    expect(await getDb().appUse.count({ where: { appId } })).toBe(1);
  });

  it("refuses off-shelf and removed apps (and, reviewing first, apps under review) to consumers (not_found) but not to their owner", async () => {
    // Under the "listing" policy an app under review opens by its link: tests/integration/review-policy.test.ts.
    await withReviewPolicy("review_first", async () => {
      for (const state of ["off_shelf", "removed", "under_review"] as const) {
        const { appId, key, owner } = await fakeUpstreamApp({}, state);
        const r = await send(makeVisitor(), { app_id: appId, content: "hi" });
        expect(errorOf(r)?.status).toBe(ERROR_CODES.not_found.status);
        expect(h.fake.requestsFor(key)).toBe(0);
        expect(names(await send(owner, { app_id: appId, content: "hi" }))).toContain("close");
      }
    });
    expect(errorOf(await send(makeVisitor(), { app_id: "no-such-app", content: "hi" }))?.status).toBe(ERROR_CODES.not_found.status);
  });
});

describe("a consumer's dialogues", () => {
  it("lists and shows a visitor's own dialogues, takes their feedback, and answers not_found to anyone else", async () => {
    const { appId } = await createTestApp();
    const visitor = makeVisitor();
    const r = await send(visitor, { app_id: appId, content: "remember me" });
    const { dialogue_id: dialogueId, id: replyId } = dataOf(r, "close")[0];

    const list = await visitor.browser.call(`/api/v2/app/dialogues?app_id=${appId}`);
    expect(list.body.data.items.map((d: { id: string }) => d.id)).toEqual([dialogueId]);
    const one = await visitor.browser.call(`/api/v2/app/dialogues/${dialogueId}`);
    expect(one.body.data.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    const liked = await visitor.browser.call("/api/v2/app/feedback", { body: { message_id: replyId, feedback: "liked" } });
    expect(liked.body.data).toEqual({ id: replyId, feedback: "liked" });

    const other = makeVisitor();
    expect((await other.browser.call(`/api/v2/app/dialogues?app_id=${appId}`)).body.data.items).toEqual([]);
    expect((await other.browser.call(`/api/v2/app/dialogues/${dialogueId}`)).body.status).toBe(ERROR_CODES.not_found.status);
    const refused = await other.browser.call("/api/v2/app/feedback", { body: { message_id: replyId, feedback: "disliked" } });
    expect(refused.body.status).toBe(ERROR_CODES.not_found.status);
    // A signed-in account is not the visitor either.
    const account = await makeUser(base());
    expect((await account.browser.call(`/api/v2/app/dialogues/${dialogueId}`)).body.status).toBe(ERROR_CODES.not_found.status);
    expect((await getDb().chatMessage.findUniqueOrThrow({ where: { id: replyId } })).feedback).toBe("liked");
  });

  it("lets a visitor stop their own reply (another visitor's stop answers not_found); a stopped reply with text is one use", async () => {
    const owner = await makeUser(base());
    const agent = await makeAgent(h, owner, { publish: true, behaviour: { stream: { chunks: 30, delayMs: 60 } } });
    const { appId } = await createTestApp({ owner: { id: owner.id, roles: [], enterpriseId: null }, agentId: agent.agentId });
    const visitor = makeVisitor();
    const other = makeVisitor();
    let refused: unknown = null;
    const r = await sendSse(
      base(),
      visitor,
      { app_id: appId, content: "long answer" },
      {
        ...APP_SSE,
        onEvent: async (e, all) => {
          if (all.length !== 3) return;
          const id = (e.data as { id: string }).id;
          refused = (await other.browser.call("/api/v2/app/stop", { body: { message_id: id } })).body.status;
          expect((await visitor.browser.call("/api/v2/app/stop", { body: { message_id: id } })).body.data.status).toBe("stopped");
        },
      },
    );
    expect(refused).toBe(ERROR_CODES.not_found.status);
    expect(names(r).at(-1)).toBe("close");
    const reply = await getDb().chatMessage.findUniqueOrThrow({ where: { id: dataOf(r, "close")[0].id } });
    expect(reply.status).toBe("stopped");
    expect(contentOf(r).length).toBeGreaterThan(0);
    expect(await getDb().appUse.count({ where: { appId } })).toBe(1);
  });

  it("keeps a signed-in consumer's dialogues on their account, not on the visitor cookie", async () => {
    const { appId } = await createTestApp();
    const consumer = await makeUser(base());
    const r = await send(consumer, { app_id: appId, content: "as an account" });
    const d = await getDb().dialogue.findUniqueOrThrow({ where: { id: dataOf(r, "close")[0].dialogue_id } });
    expect(d).toMatchObject({ accountId: consumer.id, visitorId: null, appId, source: "h5" });
    expect((await usesOf(appId))[0]).toMatchObject({ accountId: consumer.id, basis: "free" });
  });
});
