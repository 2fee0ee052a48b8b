// The chat turn's one read (server/runtime/turn-context.repository.ts): on PostgreSQL it runs on a
// node-postgres pool of its own, on Prisma otherwise (and always inside a transaction). Both must
// read the same values: timestamps as UTC, JSON, arrays, and the refusals (no session, expired).
import { describe, expect, it } from "vitest";
import { sha256 } from "../../server/lib/secret-box";
import { getDb } from "../../server/db/client";
import { readTurnContext } from "../../server/runtime/turn-context.repository";
import { contentOf, dataOf, makeAgent, makeUser, sendSse, useChatHarness } from "../helpers/chat-runtime";

const h = useChatHarness();

describe("turn context", () => {
  it("reads the same on its own pool as through Prisma, for a new and a continued dialogue", async () => {
    const alice = await makeUser(h.api.base);
    const { agentId } = await makeAgent(h, alice, { config: { variables: [{ name: "topic", type: "fill", required: false }] }, behaviour: { stream: { chunks: 2 } } });
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
    expect(reading.dialogue).toMatchObject({ id: dialogueId, variables: { topic: "tea" }, lastMessageAt: dialogue.lastMessageAt, createdAt: dialogue.createdAt });
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
});
