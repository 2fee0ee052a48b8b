// Warm turns (docs/decisions/0014-warm-turns.md): a session's next turn with an agent sends its
// upstream request from the last turn's reading while its own reading runs, and keeps it only when
// the fresh reading asks exactly the same. What the fake upstream received and the gateway's
// request log show which requests went out; the ledger, that the charge posted early is the turn's
// own or goes back; the refusals change nothing, as without a warm reading.
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { DIRECT_POOL_MAX, queryDirect } from "../../server/db/direct-pool";
import { sha256 } from "../../server/lib/secret-box";
import { getWallet } from "../../server/money/ledger.service";
import { PRICES } from "../../server/money/money.constants";
import { recallTurn, WARM_TTL_MS } from "../../server/turns/head-start/warm-turns";
import { ZSendMessageInput } from "../../server/dialogues/chat.schema";
import { fundAccount } from "../helpers/money";
import { contentOf, dataOf, makeAgent, makeUser, names, sendSse, useChatHarness, waitFor, type TUser } from "../helpers/chat-runtime";

const h = useChatHarness();
const base = () => h.api.base;
const FEE = PRICES.chatMessageMicro;

const warmFor = (user: TUser, agentId: string, now?: number) =>
  recallTurn(sha256(user.browser.cookies.get("zl_session")!), "debug", ZSendMessageInput.parse({ agent_id: agentId, content: "x" }), now);
const logsOf = (accountId: string) => getDb().modelRequestLog.findMany({ where: { accountId }, orderBy: { id: "asc" } });
const available = async (id: string) => (await getWallet(id)).available;
const tx = (key: string) => getDb().ledgerTransaction.findUnique({ where: { idempotencyKey: key } });
const setPrompt = (agentId: string, prompt: string) =>
  getDb()
    .$executeRaw`UPDATE agent_version SET config = jsonb_set(config::jsonb, '{prompt}', to_jsonb(${prompt}::text)), updated_at = now() WHERE agent_id = ${agentId}`;

describe("warm turns", () => {
  it("a session's next turns leave early: one upstream request each, answers and charges as always", async () => {
    const user = await makeUser(base());
    const { agentId, key } = await makeAgent(h, user, { config: { prompt: "You help with tea." }, behaviour: { stream: { chunks: 2 } } });
    expect(warmFor(user, agentId)).toBeNull();
    const before = await available(user.id);
    for (const content of ["first", "second", "third"]) {
      const r = await sendSse(base(), user, { agent_id: agentId, content });
      expect(names(r)).toEqual(["message", "message", "message", "close"]);
      expect(contentOf(r)).toBe("word0 word1 ");
      // After each turn the session's reading is warm for the next.
      expect(warmFor(user, agentId)).not.toBeNull();
    }
    const received = await waitFor(
      async () => h.fake.receivedFor(key),
      (rs) => rs.filter((x) => !x.aborted).length === 2,
    );
    expect(received.map((x) => [x.body.messages.at(-1).content, x.aborted])).toEqual([
      ["first", false],
      ["second", false],
      ["third", false],
    ]);
    expect(received.every((x) => x.body.messages[0].content === "You help with tea.")).toBe(true);
    expect((await logsOf(user.id)).map((l) => l.ok)).toEqual([true, true, true]);
    expect(await available(user.id)).toBe(before - 3 * FEE);
    // A warm reading is used for WARM_TTL_MS only.
    expect(warmFor(user, agentId, Date.now() + WARM_TTL_MS + 1)).toBeNull();
  });

  it("an agent edited since: the early request is cancelled and the turn asks with the new prompt", async () => {
    const user = await makeUser(base());
    // Chunks 50 ms apart: the early request is still streaming when it is cancelled.
    const { agentId, key } = await makeAgent(h, user, { config: { prompt: "You help with tea." }, behaviour: { stream: { chunks: 2, delayMs: 50 } } });
    const before = await available(user.id);
    await sendSse(base(), user, { agent_id: agentId, content: "first" });
    await setPrompt(agentId, "You help with coffee.");
    const r = await sendSse(base(), user, { agent_id: agentId, content: "second" });
    expect(contentOf(r)).toBe("word0 word1 ");

    // The early request (old prompt) went out and was cancelled (its log is written as it winds
    // down, maybe after the reply); the kept one carries the new prompt.
    const logs = await waitFor(
      () => logsOf(user.id),
      (l) => l.length === 3,
    );
    expect(logs.map((l) => l.ok)).toEqual([true, false, true]);
    const stored = await getDb().chatMessage.findUniqueOrThrow({ where: { id: dataOf(r, "close")[0].id } });
    expect(stored.requestId).toBe(logs[2].requestId);
    // The charge posted early was the turn's own (the same payer and price): one fee per reply.
    expect(await available(user.id)).toBe(before - 2 * FEE);
    expect(await tx(`chat:${stored.id}`)).toMatchObject({ kind: "chat_charge" });
    expect(await getDb().ledgerTransaction.count({ where: { accountId: user.id, kind: "chat_refund" } })).toBe(0);
    // The early one, if it reached the upstream at all, is cut off there.
    const received = await waitFor(
      async () => h.fake.receivedFor(key),
      (rs) => rs.filter((x) => !x.aborted).length === 2,
    );
    expect(received.filter((x) => !x.aborted).map((x) => x.body.messages[0].content)).toEqual(["You help with tea.", "You help with coffee."]);
    expect(received.filter((x) => x.aborted).map((x) => x.body.messages[0].content)).toEqual(received.length === 3 ? ["You help with tea."] : []);
  });

  it("money gone since: the turn is refused as ever, the early request cancelled, nothing charged or written", async () => {
    const user = await makeUser(base());
    const { agentId } = await makeAgent(h, user, { behaviour: { stream: { chunks: 2 } } });
    await sendSse(base(), user, { agent_id: agentId, content: "first" });
    expect(warmFor(user, agentId)).not.toBeNull();
    // Spent elsewhere (another session, say) after the warm reading.
    await fundAccount(user.id, -(await available(user.id)));
    const dialogues = await getDb().dialogue.count({ where: { accountId: user.id } });

    const r = await sendSse(base(), user, { agent_id: agentId, content: "second" });
    expect(names(r)).toEqual(["error"]);
    expect(dataOf(r, "error")[0]).toMatchObject({ status: 420001 });
    expect(await available(user.id)).toBe(0);
    expect(await getDb().dialogue.count({ where: { accountId: user.id } })).toBe(dialogues);
    expect(
      (
        await waitFor(
          () => logsOf(user.id),
          (l) => l.length === 2,
        )
      ).map((l) => l.ok),
    ).toEqual([true, false]);
    // A refused reading leaves nothing warm: the next turn is not asked for early.
    expect(warmFor(user, agentId)).toBeNull();
    await sendSse(base(), user, { agent_id: agentId, content: "third" });
    expect((await logsOf(user.id)).map((l) => l.ok)).toEqual([true, false]);
  });

  it("a turn refused by its fresh reading (the agent deleted since): the early charge goes back before the refusal", async () => {
    const user = await makeUser(base());
    const { agentId } = await makeAgent(h, user, { behaviour: { stream: { chunks: 2, delayMs: 50 } } });
    await sendSse(base(), user, { agent_id: agentId, content: "first" });
    const after = await available(user.id);
    const charges = await getDb().ledgerTransaction.count({ where: { accountId: user.id, kind: "chat_charge" } });
    await getDb().agent.update({ where: { id: agentId }, data: { deletedAt: new Date() } });

    const r = await sendSse(base(), user, { agent_id: agentId, content: "second" });
    expect(names(r)).toEqual(["error"]);
    expect(dataOf(r, "error")[0]).toMatchObject({ status: 404001 });
    // Charged early and returned, all before the error event left.
    expect(await available(user.id)).toBe(after);
    const early = await getDb().ledgerTransaction.findMany({
      where: { accountId: user.id, kind: { in: ["chat_charge", "chat_refund"] } },
      orderBy: { createdAt: "asc" },
      include: { entries: true },
    });
    expect(early).toHaveLength(charges + 2);
    const [charge, refund] = early.slice(-2);
    expect(refund.idempotencyKey).toBe(charge.idempotencyKey.replace(/^chat:/, "chat-refund:"));
    expect(await getDb().dialogue.count({ where: { accountId: user.id } })).toBe(1);
    expect(
      (
        await waitFor(
          () => logsOf(user.id),
          (l) => l.length === 2,
        )
      ).map((l) => l.ok),
    ).toEqual([true, false]);
  });

  it("money for exactly this turn: answered even when its early charge is posted before its own reading", async () => {
    const user = await makeUser(base(), { funded: false });
    await fundAccount(user.id, 2 * FEE, "spendable");
    const { agentId } = await makeAgent(h, user, { behaviour: { stream: { chunks: 2 } } });
    expect(contentOf(await sendSse(base(), user, { agent_id: agentId, content: "first" }))).toBe("word0 word1 ");
    expect(warmFor(user, agentId)).not.toBeNull();
    // Every connection of the reads' pool busy for a moment: the turn's reading waits in line, and
    // its early charge (on Prisma's pool) takes the last fee first. The reading reads the balance
    // from before that charge; read as it is by then, the turn would be refused for its own fee.
    // (On the embedded database one session serves all in turn: the charge, sent first, goes first.)
    const busy = Array.from({ length: DIRECT_POOL_MAX }, () => queryDirect({ text: "SELECT pg_sleep(0.25)::text AS slept", values: [] }));
    const r = await sendSse(base(), user, { agent_id: agentId, content: "second" });
    await Promise.all(busy);
    expect(names(r)).toEqual(["message", "message", "message", "close"]);
    expect(await available(user.id)).toBe(0);
    const stored = dataOf(r, "close")[0].id as string;
    const early = await tx(`chat:${stored}`);
    expect(early).toMatchObject({ kind: "chat_charge" });
    // The charge went in before the reading did (the pool was still busy), and nothing went back.
    expect(early!.createdAt.getTime()).toBeLessThan((await getDb().chatMessage.findUniqueOrThrow({ where: { id: stored } })).createdAt.getTime());
    expect(await getDb().ledgerTransaction.count({ where: { accountId: user.id, kind: "chat_refund" } })).toBe(0);
    // The next one has nothing left to pay with.
    expect(dataOf(await sendSse(base(), user, { agent_id: agentId, content: "third" }), "error")[0]).toMatchObject({ status: 420001 });
  });

  it("an account with money for fewer than two turns is never asked for early", async () => {
    const user = await makeUser(base(), { funded: false });
    await fundAccount(user.id, FEE + FEE / 2);
    const { agentId, key } = await makeAgent(h, user, { behaviour: { stream: { chunks: 2 } } });
    expect(contentOf(await sendSse(base(), user, { agent_id: agentId, content: "first" }))).toBe("word0 word1 ");
    expect(warmFor(user, agentId)).toBeNull();
    const r = await sendSse(base(), user, { agent_id: agentId, content: "second" });
    expect(names(r)).toEqual(["error"]);
    expect(h.fake.receivedFor(key)).toHaveLength(1);
    expect((await logsOf(user.id)).map((l) => l.ok)).toEqual([true]);
  });

  it("turns that read more are not warm: a continued dialogue, or another account's session", async () => {
    const user = await makeUser(base());
    const other = await makeUser(base());
    const { agentId, key } = await makeAgent(h, user, { behaviour: { stream: { chunks: 2 } } });
    const first = await sendSse(base(), user, { agent_id: agentId, content: "first" });
    const dialogueId = dataOf(first, "close")[0].dialogue_id;
    // Another session has no warm reading of its own: its refusal sends nothing upstream.
    expect(warmFor(other, agentId)).toBeNull();
    const refused = await sendSse(base(), other, { agent_id: agentId, content: "mine?" });
    expect(names(refused)).toEqual(["error"]);
    expect(
      recallTurn(
        sha256(user.browser.cookies.get("zl_session")!),
        "debug",
        ZSendMessageInput.parse({ agent_id: agentId, dialogue_id: dialogueId, content: "x" }),
      ),
    ).toBeNull();
    const next = await sendSse(base(), user, { agent_id: agentId, dialogue_id: dialogueId, content: "second" });
    expect(contentOf(next)).toBe("word0 word1 ");
    expect(h.fake.receivedFor(key).map((x) => x.aborted)).toEqual([false, false]);
    expect((await logsOf(user.id)).map((l) => l.ok)).toEqual([true, true]);
  });
});
