// The chat turn's one read (server/turns/turn-context.repository.ts): on PostgreSQL it runs on a
// node-postgres pool of its own, on Prisma otherwise (and always inside a transaction). Both must
// read the same values: timestamps as UTC, JSON, arrays, and the refusals (no session, expired).
import { describe, expect, it } from "vitest";
import { sha256 } from "../../server/lib/secret-box";
import { getDb } from "../../server/db/client";
import { readTurnContext } from "../../server/turns/turn-context.repository";
import { chinaDayStart } from "../../server/money/metering/china-day";
import { chatChargeKey } from "../../server/money/metering/chat-charges.service";
import { platform, post, wallet } from "../../server/money/ledger.service";
import { createTestApp } from "../helpers/apps";
import { contentOf, dataOf, makeAgent, makeUser, sendSse, useChatHarness } from "../helpers/chat-runtime";

const h = useChatHarness();

describe("turn context", () => {
  it("reads the same on its own pool as through Prisma, for a new and a continued dialogue", async () => {
    const alice = await makeUser(h.api.base);
    const { agentId } = await makeAgent(h, alice, {
      config: { variables: [{ name: "topic", type: "fill", required: false }] },
      behaviour: { stream: { chunks: 2 } },
    });
    const r = await sendSse(h.api.base, alice, { agent_id: agentId, content: "first", variables: { topic: "tea" } });
    expect(contentOf(r)).toBe("word0 word1 ");
    const dialogueId = dataOf(r, "message")[0].dialogue_id as string;
    const sessionId = sha256(alice.browser.cookies.get("zl_session")!);
    const now = new Date();

    for (const dialogue of [null, dialogueId]) {
      for (const mode of ["debug", "live"] as const) {
        const q = { sessionId, now, agentId, mode, dialogueId: dialogue };
        const own = await readTurnContext(q);
        const viaPrisma = await getDb().$transaction((tx) => readTurnContext(q, tx));
        expect(own).toEqual(viaPrisma);
      }
    }

    const reading = (await readTurnContext({ sessionId, now, agentId, mode: "debug", dialogueId }))!;
    const session = await getDb().session.findUniqueOrThrow({ where: { id: sessionId } });
    const dialogue = await getDb().dialogue.findUniqueOrThrow({ where: { id: dialogueId } });
    expect(reading.session).toEqual({ id: sessionId, lastSeenAt: session.lastSeenAt });
    expect(reading.account.id).toBe(alice.id);
    expect(reading.account.editionExpiresAt).toBeInstanceOf(Date);
    expect(reading.agent?.id).toBe(agentId);
    expect(reading.version?.config).toMatchObject({ variables: [{ name: "topic" }] });
    expect(reading.dialogue).toMatchObject({
      id: dialogueId,
      variables: { topic: "tea" },
      lastMessageAt: dialogue.lastMessageAt,
      createdAt: dialogue.createdAt,
    });
    // A published version only: the live mode finds none for a draft agent.
    expect((await readTurnContext({ sessionId, now, agentId, mode: "live", dialogueId: null }))!.version).toBeNull();
  });

  it("finds no session for an unknown token, an expired or a revoked session", async () => {
    const bob = await makeUser(h.api.base);
    const sessionId = sha256(bob.browser.cookies.get("zl_session")!);
    const q = { sessionId, now: new Date(), agentId: "", mode: "debug" as const, dialogueId: null };
    expect(await readTurnContext(q)).not.toBeNull();
    expect(await readTurnContext({ ...q, sessionId: sha256("no such token") })).toBeNull();
    const session = await getDb().session.findUniqueOrThrow({ where: { id: sessionId } });
    // One millisecond past its expiry (the comparison is on UTC, whatever the server's zone).
    expect(await readTurnContext({ ...q, now: new Date(session.expiresAt.getTime() + 1) })).toBeNull();
    expect(await readTurnContext({ ...q, now: new Date(session.expiresAt.getTime() - 1) })).not.toBeNull();
    await getDb().session.update({ where: { id: sessionId }, data: { revokedAt: new Date() } });
    expect(await readTurnContext(q)).toBeNull();
  });

  it("counts the day's console replies as the edition's limit does, kept by the trigger whatever writes the rows", async () => {
    const carol = await makeUser(h.api.base);
    const { agentId } = await makeAgent(h, carol, { behaviour: { stream: { chunks: 1 } } });
    const sessionId = sha256(carol.browser.cookies.get("zl_session")!);
    const now = new Date();
    const today = chinaDayStart(now);
    const count = async () => (await readTurnContext({ sessionId, now, agentId, mode: "debug", dialogueId: null }))!.chatsToday;
    expect(await count()).toBe(0);

    // A reply over the endpoint counts once, the user's message not at all.
    expect(contentOf(await sendSse(h.api.base, carol, { agent_id: agentId, content: "hello" }))).toBe("word0 ");
    expect(await count()).toBe(1);

    const db = getDb();
    const d = await db.dialogue.create({ data: { accountId: carol.id, agentId, title: "t", lastMessageAt: now } });
    const at = (ms: number) => new Date(today.getTime() + ms);
    // Streaming counts; stopped before any text stops counting; done with text counts.
    const streaming = await db.chatMessage.create({ data: { dialogueId: d.id, role: "assistant", status: "streaming", createdAt: at(1000) } });
    expect(await count()).toBe(2);
    await db.chatMessage.update({ where: { id: streaming.id }, data: { status: "stopped" } });
    expect(await count()).toBe(1);
    const regenerated = await db.chatMessage.create({ data: { dialogueId: d.id, role: "assistant", status: "streaming", createdAt: at(2000) } });
    await db.chatMessage.update({ where: { id: regenerated.id }, data: { status: "done", content: "an answer" } });
    expect(await count()).toBe(2);
    // Failed and censored replies, user messages and yesterday's (China time) replies do not count.
    await db.chatMessage.createMany({
      data: [
        { dialogueId: d.id, role: "assistant", status: "failed", createdAt: at(3000) },
        { dialogueId: d.id, role: "assistant", status: "censored", content: "x", createdAt: at(3001) },
        { dialogueId: d.id, role: "user", status: "done", content: "question", createdAt: at(3002) },
        { dialogueId: d.id, role: "assistant", status: "done", content: "old", createdAt: at(-1000) },
      ],
    });
    expect(await count()).toBe(2);
    // A reply in an app's dialogue is the app's, not the console's.
    const published = await makeAgent(h, carol, { publish: true });
    const { appId } = await createTestApp({
      owner: { id: carol.id, roles: [], enterpriseId: null },
      agentId: published.agentId,
      input: { type: "h5" } as never,
    });
    const ad = await db.dialogue.create({ data: { accountId: carol.id, agentId: published.agentId, appId, title: "app", lastMessageAt: now } });
    await db.chatMessage.create({ data: { dialogueId: ad.id, role: "assistant", status: "done", content: "app reply", createdAt: at(4000) } });
    expect(await count()).toBe(2);
    // A deleted reply no longer counts.
    await db.chatMessage.delete({ where: { id: regenerated.id } });
    expect(await count()).toBe(1);
    expect(await db.accountChatDay.findMany({ where: { accountId: carol.id }, orderBy: { day: "asc" }, select: { replies: true } })).toEqual([
      { replies: 1 },
      { replies: 1 },
    ]);
  });

  it("reads the balances from before the turn's own early charge, and only that one, whichever went first", async () => {
    const dave = await makeUser(h.api.base);
    const erin = await makeUser(h.api.base);
    const sessionId = sha256(dave.browser.cookies.get("zl_session")!);
    const read = async (earlyChargeKey: string | null) => {
      const q = { sessionId, now: new Date(), agentId: "", mode: "debug" as const, dialogueId: null, earlyChargeKey };
      const own = (await readTurnContext(q))!;
      // Prisma's path reads the same statement.
      expect((await getDb().$transaction((tx) => readTurnContext(q, tx)))!.wallet).toEqual(own.wallet);
      return own.wallet;
    };
    // What registration gave, and 0.5 Z of coins.
    await post({
      key: `tc-fund:${dave.id}`,
      kind: "bonus",
      accountId: dave.id,
      legs: [
        { account: platform("platform_promotion"), amount: -500_000 },
        { account: wallet("spendable", dave.id), amount: 500_000 },
      ],
    });
    const before = await read(null);
    expect(before.spendable).toBe(500_000);
    const g = before.gift;
    // Not posted yet: nothing to add back.
    expect(await read(chatChargeKey("m-early"))).toEqual(before);
    // Posted before the reading, taking from both wallets: the reading sees what the turn had.
    const fee = (id: string, messageId: string, gift: number, spendable: number) =>
      post({
        key: chatChargeKey(messageId),
        kind: "chat_charge",
        accountId: id,
        legs: [
          { account: wallet("gift", id), amount: -gift },
          { account: wallet("spendable", id), amount: -spendable },
          { account: platform("platform_revenue"), amount: gift + spendable },
        ],
      });
    await fee(dave.id, "m-early", 30_000, 20_000);
    expect(await read(null)).toEqual({ gift: g - 30_000, spendable: 480_000 });
    expect(await read(chatChargeKey("m-early"))).toEqual(before);
    // Another charge of the account, or another account's under the key given, is not the turn's own.
    await fee(dave.id, "m-other", 0, 50_000);
    await fee(erin.id, "m-erin", 30_000, 0);
    expect(await read(chatChargeKey("m-early"))).toEqual({ gift: g, spendable: 450_000 });
    expect(await read(chatChargeKey("m-erin"))).toEqual({ gift: g - 30_000, spendable: 430_000 });
  });
});
