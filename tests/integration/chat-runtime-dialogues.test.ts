// The chat runtime around the stream: document reading (txt, docx, pdf made here; empty,
// oversize and wrong-type refusals; expiry), feedback, regenerate, kept context, history listing
// and reading, another account's not_found everywhere, the live endpoint, and the web plugins
// (web_reader through the SSRF guard, web search through a SearXNG-shaped service).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../server/env";
import { getDb } from "../../server/db/client";
import * as repo from "../../server/dialogues/dialogues.repository";
import { contentOf, dataOf, makeAgent, makeUser, names, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";
import { makeDocx, makeZip } from "../helpers/sample-files";

const h = useChatHarness();
let alice: TUser;
let bob: TUser;
let site: http.Server;
let siteHost: string;
const base = () => h.api.base;

beforeAll(async () => {
  alice = await makeUser(base());
  bob = await makeUser(base());
  site = http.createServer((req, res) => {
    if (req.url?.startsWith("/search")) {
      const q = new URL(req.url, "http://x").searchParams.get("q");
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ results: [{ title: `About ${q}`, url: "https://example.com/a", content: "A snippet" }] }));
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      "<html><head><title>Tea notes</title><script>var x=1</script></head><body><nav>menu</nav><main><h1>Green tea</h1><p>Brew at 80&deg;C &amp; wait.</p></main></body></html>",
    );
  });
  site.listen(0, "127.0.0.1");
  await new Promise((r) => site.once("listening", r));
  siteHost = `127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.SSRF_ALLOWLIST;
  delete process.env.SEARCH_API_URL;
  resetEnvCache();
  await new Promise((r) => site.close(r));
});

/** A one-page PDF with one line of text, offsets computed so the xref table is right. */
function makeTextPdf(text: string) {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const upload = (user: TUser, bytes: Uint8Array, filename: string) =>
  user.browser.upload("/api/v1/ai_message/document", { files: { file: { bytes, filename } } });

describe("document reading", () => {
  it("reads txt, docx and pdf by their content", async () => {
    for (const [bytes, name, expected] of [
      [Buffer.from("第一行\nThe secret word is plover."), "notes.txt", "plover"],
      [makeDocx("Quarterly revenue grew by 12 percent."), "report.docx", "Quarterly revenue grew"],
      [makeTextPdf("Hello from a PDF page"), "paper.pdf", "Hello from a PDF page"],
    ] as const) {
      const res = await upload(alice, bytes, name);
      expect(res.body, name).toMatchObject({ status: 200, data: { id: expect.any(String), name, chars: expect.any(Number), expires_at: expect.any(String) } });
      const stored = await getDb().chatDocument.findUniqueOrThrow({ where: { id: res.body.data.id } });
      expect(stored.text).toContain(expected);
      const hours = (new Date(res.body.data.expires_at).getTime() - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(2.9);
      expect(hours).toBeLessThanOrEqual(3);
    }
  });

  it("refuses empty, oversize and other files, whatever their name", async () => {
    expect((await upload(alice, Buffer.alloc(0), "empty.txt")).body.status).toBe(420018);
    expect((await upload(alice, Buffer.from("   \n  "), "blank.txt")).body.status).toBe(420018);
    expect((await upload(alice, Buffer.alloc(10 * 1024 * 1024 + 1, 0x61), "big.txt")).body.status).toBe(420017);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0, 1, 2, 3]);
    expect((await upload(alice, png, "image.pdf")).body.status).toBe(420407);
    expect((await upload(alice, makeZip({ "a.txt": "x" }), "fake.docx")).body.status).toBe(420407);
  });

  it("puts the text in the prompt; an expired document is refused before any model call", async () => {
    const { agentId, key } = await makeAgent(h, alice, { config: { document_reading: true } });
    const doc = (await upload(alice, Buffer.from("The password is swordfish."), "secret.txt")).body.data;
    const r = await sendSse(base(), alice, { agent_id: agentId, content: "What is the password?", ufids: JSON.stringify([doc.id]) });
    expect(names(r).at(-1)).toBe("close");
    expect(h.fake.receivedFor(key)[0].body.messages[0].content).toContain('The user\'s document "secret.txt":\nThe password is swordfish.');
    const dialogueId = dataOf(r, "close")[0].dialogue_id;
    const view = await alice.browser.call(`/api/v1/dialogues/${dialogueId}`);
    expect(view.body.data.dialogue.document).toEqual({ id: doc.id, name: "secret.txt", expires_at: doc.expires_at });

    await repo.setDocumentExpiry(doc.id, new Date(Date.now() - 1000));
    const again = await sendSse(base(), alice, { agent_id: agentId, dialogue_id: dialogueId, content: "And again?", ufids: [doc.id] });
    expect(names(again)).toEqual(["error"]);
    expect(dataOf(again, "error")[0]).toMatchObject({ status: 420015, description: "The document has expired, please upload it again" });
    expect(h.fake.requestsFor(key)).toBe(1);
  });

  it("only agents with document reading on take a document; another account's document is not found", async () => {
    const off = await makeAgent(h, alice);
    const doc = (await upload(alice, Buffer.from("text"), "a.txt")).body.data;
    const r = await sendSse(base(), alice, { agent_id: off.agentId, content: "read", ufids: [doc.id] });
    expect(dataOf(r, "error")[0]).toMatchObject({ status: 400001, data: { fields: [{ path: "ufids", message: "validation.document_reading_off" }] } });
    const on = await makeAgent(h, bob, { config: { document_reading: true } });
    const stolen = await sendSse(base(), bob, { agent_id: on.agentId, content: "read", ufids: [doc.id] });
    expect(dataOf(stolen, "error")[0]).toMatchObject({ status: 404001 });
    expect(h.fake.requestsFor(on.key)).toBe(0);
  });
});

describe("dialogues", () => {
  it("keeps context, regenerates, takes feedback, lists and reads history", async () => {
    const { agentId, key } = await makeAgent(h, alice, { config: { keep_context: 5 }, behaviour: { stream: { chunks: 2 } } });
    const one = await sendSse(base(), alice, { agent_id: agentId, content: "first question", variables: {} });
    const first = dataOf(one, "close")[0];
    const two = await sendSse(base(), alice, { agent_id: agentId, dialogue_id: first.dialogue_id, content: "second question" });
    const second = dataOf(two, "close")[0];
    expect(second.dialogue_id).toBe(first.dialogue_id);
    expect(h.fake.receivedFor(key)[1].body.messages).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "word0 word1 " },
      { role: "user", content: "second question" },
    ]);

    // Regenerate the second reply: the same user message is answered again, the old reply stays.
    const re = await sendSse(base(), alice, { agent_id: agentId, dialogue_id: first.dialogue_id, regenerate_message_id: second.id });
    const regenerated = dataOf(re, "close")[0];
    expect(regenerated.user_message_id).toBe(second.user_message_id);
    expect(h.fake.receivedFor(key)[2].body.messages).toEqual(h.fake.receivedFor(key)[1].body.messages);

    const liked = await alice.browser.call("/api/v1/ai_message/feedback", { body: { message_id: regenerated.id, feedback: "liked" } });
    expect(liked.body).toEqual({ status: 200, description: "success", data: { id: regenerated.id, feedback: "liked" } });
    expect((await alice.browser.call("/api/v1/ai_message/feedback", { body: { message_id: second.user_message_id, feedback: "liked" } })).body.status).toBe(
      404001,
    );

    const view = (await alice.browser.call(`/api/v1/dialogues/${first.dialogue_id}`)).body.data;
    expect(view.dialogue).toMatchObject({
      id: first.dialogue_id,
      title: "first question",
      agent_id: agentId,
      agent_name: "测试助手",
      variables: {},
      document: null,
      interrupted: false,
    });
    expect(view.messages.map((m: any) => [m.role, m.content, m.status, m.feedback, m.replaces_id])).toEqual([
      ["user", "first question", "done", "none", null],
      ["assistant", "word0 word1 ", "done", "none", null],
      ["user", "second question", "done", "none", null],
      ["assistant", "word0 word1 ", "done", "none", null],
      ["assistant", "word0 word1 ", "done", "liked", second.id],
    ]);

    // A third turn keeps the regenerated reply as the answer to the second question.
    await sendSse(base(), alice, { agent_id: agentId, dialogue_id: first.dialogue_id, content: "third" });
    expect(h.fake.receivedFor(key)[3].body.messages).toHaveLength(5);
  });

  it("of two turns racing into one dialogue, one starts its reply and the other is refused as busy, writing nothing", async () => {
    const { agentId } = await makeAgent(h, alice);
    const first = dataOf(await sendSse(base(), alice, { agent_id: agentId, content: "start" }), "close")[0];
    const dialogue = await getDb().dialogue.findUniqueOrThrow({ where: { id: first.dialogue_id } });
    const before = await getDb().chatMessage.count({ where: { dialogueId: dialogue.id } });
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000);
    const turn = (tag: string) => ({
      kind: "existing" as const,
      dialogueId: dialogue.id,
      staleBefore: new Date(at.getTime() - 120_000),
      dialogue: { agentVersionId: dialogue.agentVersionId!, variables: { tag }, documentId: null, lastMessageAt: at },
      rows: [
        { id: `race-user-${tag}-${dialogue.id}`, dialogueId: dialogue.id, role: "user" as const, content: tag, createdAt: at },
        {
          id: `race-reply-${tag}-${dialogue.id}`,
          dialogueId: dialogue.id,
          role: "assistant" as const,
          content: "",
          status: "streaming" as const,
          createdAt: at,
        },
      ],
    });
    const results = await Promise.allSettled([repo.writeTurnRows(turn("one")), repo.writeTurnRows(turn("two"))]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ code: "dialogue_busy" });
    const winner = results[0].status === "fulfilled" ? "one" : "two";
    const rows = await getDb().chatMessage.findMany({
      where: { dialogueId: dialogue.id, id: { startsWith: "race-" } },
      select: { id: true, content: true, status: true },
    });
    expect(rows.map((r) => r.id).sort()).toEqual([`race-reply-${winner}-${dialogue.id}`, `race-user-${winner}-${dialogue.id}`]);
    expect(await getDb().chatMessage.count({ where: { dialogueId: dialogue.id } })).toBe(before + 2);
    const after = await getDb().dialogue.findUniqueOrThrow({ where: { id: dialogue.id } });
    expect(after.lastMessageAt.toISOString()).toBe(at.toISOString());
    expect(after.variables).toEqual({ tag: winner });
    // Once that reply is stale (a process died while streaming it), the dialogue takes turns again.
    await expect(repo.writeTurnRows({ ...turn("three"), staleBefore: new Date(at.getTime() + 1000) })).resolves.toBeUndefined();
  });

  it("skips failed and censored exchanges in the kept context", async () => {
    const { agentId, key } = await makeAgent(h, alice, { behaviour: { stream: { chunks: 1 } } });
    const ok = dataOf(await sendSse(base(), alice, { agent_id: agentId, content: "fine" }), "close")[0];
    h.fake.setBehaviour(key, { fail: "500" });
    await sendSse(base(), alice, { agent_id: agentId, dialogue_id: ok.dialogue_id, content: "this one fails" });
    h.fake.setBehaviour(key, { stream: { chunks: 1 } });
    await sendSse(base(), alice, { agent_id: agentId, dialogue_id: ok.dialogue_id, content: "after" });
    expect(
      h.fake
        .receivedFor(key)
        .at(-1)!
        .body.messages.map((m: any) => m.content),
    ).toEqual(["fine", "word0 ", "after"]);
  });

  it("lists the caller's dialogues newest first with a cursor, marks interrupted ones, renames and deletes", async () => {
    const carol = await makeUser(base());
    const a = await makeAgent(h, carol);
    const b = await makeAgent(h, carol);
    const ids: string[] = [];
    for (const [agent, text] of [
      [a, "one"],
      [b, "two"],
      [a, "three"],
    ] as const)
      ids.push(dataOf(await sendSse(base(), carol, { agent_id: agent.agentId, content: text }), "close")[0].dialogue_id);
    await getDb().dialogue.update({ where: { id: ids[0] }, data: { lastMessageAt: new Date(Date.now() - 31 * 60_000) } });

    const page1 = (await carol.browser.call("/api/v1/dialogues?limit=2")).body.data;
    expect(page1.items.map((d: any) => d.title)).toEqual(["three", "two"]);
    expect(page1.items[0]).toMatchObject({
      id: ids[2],
      agent_id: a.agentId,
      agent_name: "测试助手",
      agent_avatar_url: null,
      interrupted: false,
      last_message_at: expect.any(String),
      created_at: expect.any(String),
    });
    const page2 = (await carol.browser.call(`/api/v1/dialogues?limit=2&cursor=${page1.next_cursor}`)).body.data;
    expect(page2.items.map((d: any) => [d.title, d.interrupted])).toEqual([["one", true]]);
    expect(page2.next_cursor).toBeNull();
    expect((await carol.browser.call(`/api/v1/dialogues?agent_id=${b.agentId}`)).body.data.items.map((d: any) => d.id)).toEqual([ids[1]]);
    expect((await carol.browser.call(`/api/v1/dialogues/${ids[0]}`)).body.data.dialogue.interrupted).toBe(true);

    expect((await carol.browser.call(`/api/v1/dialogues/${ids[1]}`, { method: "PUT", body: { title: "renamed" } })).body.data).toEqual({
      id: ids[1],
      title: "renamed",
    });
    expect((await carol.browser.call(`/api/v1/dialogues/${ids[1]}`, { method: "DELETE" })).body.status).toBe(200);
    expect((await carol.browser.call(`/api/v1/dialogues/${ids[1]}`)).body.status).toBe(404001);
    expect((await carol.browser.call("/api/v1/dialogues")).body.data.items.map((d: any) => d.id)).toEqual([ids[2], ids[0]]);
  });

  it("another account gets not_found for the dialogue, its messages, feedback, stop and sending into it", async () => {
    const { agentId } = await makeAgent(h, alice);
    const close = dataOf(await sendSse(base(), alice, { agent_id: agentId, content: "private" }), "close")[0];
    expect((await bob.browser.call(`/api/v1/dialogues/${close.dialogue_id}`)).body.status).toBe(404001);
    expect((await bob.browser.call(`/api/v1/dialogues/${close.dialogue_id}`, { method: "PUT", body: { title: "x" } })).body.status).toBe(404001);
    expect((await bob.browser.call(`/api/v1/dialogues/${close.dialogue_id}`, { method: "DELETE" })).body.status).toBe(404001);
    expect((await bob.browser.call("/api/v1/ai_message/feedback", { body: { message_id: close.id, feedback: "disliked" } })).body.status).toBe(404001);
    expect((await bob.browser.call("/api/v1/ai_message/stop", { body: { message_id: close.id } })).body.status).toBe(404001);
    expect((await bob.browser.call("/api/v1/dialogues")).body.data.items.map((d: any) => d.id)).not.toContain(close.dialogue_id);
    // Debug chat of someone else's agent, and sending into someone else's dialogue.
    expect(dataOf(await sendSse(base(), bob, { agent_id: agentId, content: "hi" }), "error")[0].status).toBe(404001);
    expect(
      dataOf(
        await sendSse(base(), bob, { agent_id: agentId, dialogue_id: close.dialogue_id, content: "hi" }, { path: "/api/v2/app/send_message/sse" }),
        "error",
      )[0].status,
    ).toBe(404001);
    expect((await getDb().chatMessage.findUniqueOrThrow({ where: { id: close.id } })).feedback).toBe("none");
  });

  it("the app endpoint chats with someone else's agent only on the market's shelf; one published for its owner's own use is theirs alone", async () => {
    const live = (path = "/api/v2/app/send_message/sse") => ({ path });
    const draft = await makeAgent(h, alice);
    expect(dataOf(await sendSse(base(), bob, { agent_id: draft.agentId, content: "hi" }, live()), "error")[0].status).toBe(404001);
    const own = await makeAgent(h, alice, { publish: true, config: { prompt: "alice's private prompt" } });
    expect(dataOf(await sendSse(base(), bob, { agent_id: own.agentId, content: "hi" }, live()), "error")[0].status).toBe(404001);
    expect(h.fake.receivedFor(own.key)).toHaveLength(0);
    expect(names(await sendSse(base(), alice, { agent_id: own.agentId, content: "hi" }, live())).at(-1)).toBe("close");
    const listed = await makeAgent(h, alice, { market: true });
    const r = await sendSse(base(), bob, { agent_id: listed.agentId, content: "hi" }, live());
    expect(names(r).at(-1)).toBe("close");
    expect((await bob.browser.call(`/api/v1/dialogues/${dataOf(r, "close")[0].dialogue_id}`)).body.status).toBe(200);
  });
});

describe("web plugins", () => {
  it("web_reader refuses a loopback URL through the SSRF guard; the chat goes on and the model is told", async () => {
    const { agentId, key } = await makeAgent(h, alice, { config: { plugins: ["web_reader"] } });
    const r = await sendSse(base(), alice, { agent_id: agentId, content: `read [[tool:web_reader {"url":"http://${siteHost}/tea"}]]` });
    expect(names(r)).toEqual(["message", "function", "message", "message", "message", "close"]);
    const [fn] = dataOf(r, "function");
    expect(fn).toMatchObject({
      name: "web_reader",
      type: "response",
      params: { arguments: { url: `http://${siteHost}/tea` }, error: expect.stringMatching(/not a public address/) },
    });
    expect(h.fake.receivedFor(key)[1].body.messages.at(-1).content).toMatch(/^The tool failed: refused to connect/);
    expect(contentOf(r)).toContain("The tool failed");
  });

  it("web_reader reads an allowed page's text", async () => {
    process.env.SSRF_ALLOWLIST = siteHost;
    try {
      const { agentId, key } = await makeAgent(h, alice, { config: { plugins: ["web_reader"] } });
      const r = await sendSse(base(), alice, { agent_id: agentId, content: `read [[tool:web_reader {"url":"http://${siteHost}/tea"}]]` });
      const [fn] = dataOf(r, "function");
      expect(fn.params.result).toEqual({ url: `http://${siteHost}/tea`, title: "Tea notes", chars: expect.any(Number), truncated: false });
      const told = JSON.parse(h.fake.receivedFor(key)[1].body.messages.at(-1).content);
      expect(told.text).toBe("Green tea\nBrew at 80°C & wait.");
    } finally {
      delete process.env.SSRF_ALLOWLIST;
    }
  });

  it("networking searches through the configured search API", async () => {
    process.env.SEARCH_API_URL = `http://${siteHost}/search`;
    resetEnvCache();
    try {
      const { agentId, key } = await makeAgent(h, alice, { config: { networking: true } });
      expect(h.fake.requestsFor(key)).toBe(0);
      const r = await sendSse(base(), alice, { agent_id: agentId, content: '[[tool:web_search {"query":"green tea"}]]' });
      const [fn] = dataOf(r, "function");
      expect(fn).toMatchObject({
        name: "web_search",
        params: {
          arguments: { query: "green tea" },
          result: { query: "green tea", results: [{ title: "About green tea", url: "https://example.com/a", snippet: "A snippet" }] },
        },
      });
      expect(h.fake.receivedFor(key)[0].body.tools.map((t: any) => t.function.name)).toEqual(["web_search"]);
    } finally {
      delete process.env.SEARCH_API_URL;
      resetEnvCache();
    }
  });
});
