// The early start in front of the web app (server/turns/head-start/early-start.ts): a warm session's turn
// opens its upstream request before Express runs; what Express then decides is as without it. A
// wrapper between the two shows whether Express found an early turn waiting; the fake upstream,
// the gateway's log and the ledger show what went out and what was charged.
import type { RequestListener } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { getWallet } from "../../server/money/ledger.service";
import { PRICES } from "../../server/money/money.constants";
import { startFakeOpenai } from "../fakes/fake-openai";
import { startApiServer } from "../helpers/api-client";
import { contentOf, dataOf, makeAgent, makeUser, names, sendSse, waitFor, type TUser } from "../helpers/chat-runtime";

const FEE = PRICES.chatMessageMicro;
// Per request path: whether an early turn was waiting when Express got the request. A request
// whose path starts with /api/skip is answered by the wrapper itself: Express never runs it.
const seen: boolean[] = [];
const h = {} as { fake: Awaited<ReturnType<typeof startFakeOpenai>>; api: Awaited<ReturnType<typeof startApiServer>> };
const wrap =
  (app: RequestListener): RequestListener =>
  (req, res) => {
    seen.push(Boolean((req as { earlyTurn?: unknown }).earlyTurn));
    if (req.headers["x-test-skip-route"]) return void res.writeHead(503).end();
    return app(req, res);
  };
beforeAll(async () => {
  h.fake = await startFakeOpenai();
  h.api = await startApiServer({ wrap });
});
afterAll(async () => {
  await h.api?.close();
  await h.fake?.close();
});

const available = async (id: string) => (await getWallet(id)).available;
const logsOf = (accountId: string) => getDb().modelRequestLog.findMany({ where: { accountId }, orderBy: { id: "asc" } });
const post = (user: TUser, body: string, headers: Record<string, string> = {}) =>
  fetch(`${h.api.base}/api/v1/ai_message/send_message/sse`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      cookie: `zl_session=${user.browser.cookies.get("zl_session")}; zl_csrf=${user.browser.cookies.get("zl_csrf")}; lang=en`,
      "x-csrf-token": user.browser.cookies.get("zl_csrf")!,
      ...headers,
    },
    body,
  });

describe("early start", () => {
  it("a warm session's turn is opened before Express runs, and answered and charged once", async () => {
    const user = await makeUser(h.api.base);
    const { agentId, key } = await makeAgent(h, user, { behaviour: { stream: { chunks: 2 } } });
    const before = await available(user.id);
    seen.length = 0;
    for (const content of ["first", "second", "third"]) expect(contentOf(await sendSse(h.api.base, user, { agent_id: agentId, content }))).toBe("word0 word1 ");
    // The first turn has no warm reading; the next two were waiting for Express, already sent.
    expect(seen).toEqual([false, true, true]);
    const received = await waitFor(
      async () => h.fake.receivedFor(key),
      (rs) => rs.length === 3,
    );
    expect(received.map((r) => [r.body.messages.at(-1).content, r.aborted])).toEqual([
      ["first", false],
      ["second", false],
      ["third", false],
    ]);
    expect((await logsOf(user.id)).map((l) => l.ok)).toEqual([true, true, true]);
    expect(await available(user.id)).toBe(before - 3 * FEE);
  });

  it("no CSRF echo: nothing leaves early, and the route refuses as ever", async () => {
    const user = await makeUser(h.api.base);
    const { agentId, key } = await makeAgent(h, user, { behaviour: { stream: { chunks: 2 } } });
    await sendSse(h.api.base, user, { agent_id: agentId, content: "first" });
    const before = await available(user.id);
    seen.length = 0;
    const res = await post(user, JSON.stringify({ agent_id: agentId, content: "forged" }), { "x-csrf-token": "another-token" });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { status: number }).status).toBe(420114);
    expect(seen).toEqual([false]);
    expect(h.fake.receivedFor(key)).toHaveLength(1);
    expect(await available(user.id)).toBe(before);
  });

  it("a body that is not JSON, or too large, read ahead of Express: the same localized refusals, nothing sent", async () => {
    const user = await makeUser(h.api.base);
    const { agentId, key } = await makeAgent(h, user, { behaviour: { stream: { chunks: 2 } } });
    await sendSse(h.api.base, user, { agent_id: agentId, content: "first" });
    const malformed = await post(user, `{"agent_id": "${agentId}", "content": `);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ status: 400002, description: expect.any(String) });
    const large = await post(user, JSON.stringify({ agent_id: agentId, content: "x".repeat(1024 * 1024) }));
    expect(large.status).toBe(413);
    expect(((await large.json()) as { status: number }).status).toBe(413001);
    // Valid JSON that the schema refuses goes to the route, which answers its error event.
    const invalid = await post(user, JSON.stringify({ agent_id: agentId, content: 42 }));
    expect(await invalid.text()).toMatch(/^event: error\ndata: \{"status":400/);
    expect(h.fake.receivedFor(key)).toHaveLength(1);
  });

  it("an early turn the route never takes is cancelled: its request cut off, its charge returned", async () => {
    const user = await makeUser(h.api.base);
    // Chunks 100 ms apart: the early request is still streaming when the response ends.
    const { agentId, key } = await makeAgent(h, user, { behaviour: { stream: { chunks: 3, delayMs: 100 } } });
    await sendSse(h.api.base, user, { agent_id: agentId, content: "first" });
    const before = await available(user.id);
    seen.length = 0;
    const res = await post(user, JSON.stringify({ agent_id: agentId, content: "second" }), { "x-test-skip-route": "1" });
    expect(res.status).toBe(503);
    expect(seen).toEqual([true]);
    const logs = await waitFor(
      () => logsOf(user.id),
      (l) => l.length === 2,
    );
    expect(logs.map((l) => l.ok)).toEqual([true, false]);
    const received = await waitFor(
      async () => h.fake.receivedFor(key),
      (rs) => rs.length === 2 && rs[1].aborted,
    );
    expect(received[1].body.messages.at(-1).content).toBe("second");
    // Charged early and given back: nothing spent, no reply stored.
    expect(
      await waitFor(
        () => available(user.id),
        (a) => a === before,
      ),
    ).toBe(before);
    const kinds = (await getDb().ledgerTransaction.findMany({ where: { accountId: user.id, kind: { in: ["chat_charge", "chat_refund"] } } }))
      .map((t) => t.kind)
      .sort();
    expect(kinds).toEqual(["chat_charge", "chat_charge", "chat_refund"]);
    expect(await getDb().chatMessage.count({ where: { dialogue: { accountId: user.id } } })).toBe(2);
  });

  it("a request naming no warm turn goes to Express untouched: another agent, a continued dialogue", async () => {
    const user = await makeUser(h.api.base);
    const { agentId } = await makeAgent(h, user, { behaviour: { stream: { chunks: 1 } } });
    const first = await sendSse(h.api.base, user, { agent_id: agentId, content: "first" });
    seen.length = 0;
    const next = await sendSse(h.api.base, user, { agent_id: agentId, dialogue_id: dataOf(first, "close")[0].dialogue_id, content: "again" });
    expect(names(next)).toEqual(["message", "message", "close"]);
    expect(seen).toEqual([false]);
  });
});
