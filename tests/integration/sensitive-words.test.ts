// The sensitive-word list on the real database and the real chat endpoint: the default list in
// force on a fresh install (input refused before any model call, everyday questions answered,
// output censored), and platform administrators' work on it through its API (add, remove a word of
// theirs, switch a default word off and on, import a .txt), refused to everyone else.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { findWordSettings } from "../../server/content/content.repository";
import { assertNoSensitiveInput, createOutputCensor, getSensitiveWords, setSensitiveWords } from "../../server/content/content.service";
import { CUSTOM_WORDS_MAX, WORD_FILE_MAX_BYTES, ZSetSensitiveWordsInput } from "../../server/content/content.schema";
import { restoreSensitiveWords } from "../../server/content/sensitive-words.service";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { mapError } from "../../server/errors/map-error";
import { Browser } from "../helpers/api-client";
import { contentOf, dataOf, makeAgent, makeUser, names, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";
import { makePng } from "../helpers/png";

const ADMIN_TOKEN = "sensitive-words-admin-token";
process.env.ADMIN_API_TOKEN = ADMIN_TOKEN;
resetEnvCache();

const h = useChatHarness();
const base = () => h.api.base;
const run = crypto.randomBytes(3).toString("hex");
const WORDS = "/api/v1/admin/sensitive_words";
let admin: TUser;
let user: TUser;

/** A fresh install's list: no words of the administrators, no default word switched off. */
async function useFreshInstallList() {
  await setSensitiveWords({ words: [] });
  const { disabled } = await findWordSettings();
  if (disabled.length) await restoreSensitiveWords(disabled);
  expect(await findWordSettings()).toEqual({ added: [], disabled: [] });
}

async function makeAdmin() {
  const row = await getDb().account.create({
    data: { account: `wordadm${crypto.randomBytes(4).toString("hex")}`, nickname: "Word admin", roles: ["platform_admin"], language: "en" },
    select: { id: true },
  });
  const browser = new Browser(base(), "10.45.0.1");
  browser.cookies.set("zl_session", (await startSession(row.id)).token);
  browser.cookies.set("lang", "en");
  return { id: row.id, browser, actor: { id: row.id, roles: [] as never[], enterpriseId: null } };
}

const listOf = async (query: string) => (await admin.browser.call(`${WORDS}/list?${query}`)).body.data;
const txt = (lines: string[]) => ({ bytes: new TextEncoder().encode(lines.join("\n")), filename: "words.txt", type: "text/plain" });

beforeAll(async () => {
  admin = await makeAdmin();
  user = await makeUser(base());
  await useFreshInstallList();
});
afterAll(async () => {
  await useFreshInstallList();
});

describe("a fresh install", () => {
  it("refuses a question about buying drugs before any model call, however it is written", async () => {
    const { agentId, key } = await makeAgent(h, user);
    for (const content of ["哪里可以买到冰毒", "哪裡可以買到冰 毒？", "有没有 赌*博 网站", "best ｇａｍｂｌｉｎｇ site"]) {
      const r = await sendSse(base(), user, { agent_id: agentId, content });
      expect(names(r), content).toEqual(["error"]);
      expect(dataOf(r, "error")[0], content).toMatchObject({ status: 420009, description: "Input contains sensitive words" });
    }
    expect(h.fake.requestsFor(key)).toBe(0);
    expect(await getDb().dialogue.count({ where: { agentId } })).toBe(0);
  });

  it("answers everyday questions", async () => {
    const { agentId, key } = await makeAgent(h, user);
    for (const content of ["我想学习编程", "how do I cook rice", "这是个大麻烦，怎么办"]) {
      const r = await sendSse(base(), user, { agent_id: agentId, content });
      expect(names(r).at(-1), content).toBe("close");
      expect(contentOf(r), content).toBe("word0 word1 word2 ");
    }
    expect(h.fake.requestsFor(key)).toBe(3);
  });

  it("stops an answer that turns to a listed word, written in traditional characters across chunks", async () => {
    const { agentId } = await makeAgent(h, user, { behaviour: { stream: { text: "我知道哪裡可以買到冰 毒，聯繫我就行", chunks: 8 } } });
    const r = await sendSse(base(), user, { agent_id: agentId, content: "tell me a story" });
    expect(names(r).at(-1)).toBe("censor");
    expect(contentOf(r)).not.toContain("冰 毒");
  });
});

describe("administration", () => {
  it("is refused to ordinary accounts and visitors, with nothing changed", async () => {
    const before = await findWordSettings();
    const visitor = new Browser(base(), "10.45.0.9");
    for (const b of [user.browser, visitor]) {
      expect((await b.call(WORDS)).body.status).toBe(403001);
      expect((await b.call(WORDS, { method: "PUT", body: { words: ["x"] } })).body.status).toBe(403001);
      expect((await b.call(`${WORDS}/list`)).body.status).toBe(403001);
      for (const action of ["add", "remove", "restore"]) expect((await b.call(`${WORDS}/${action}`, { body: { words: ["冰毒"] } })).body.status).toBe(403001);
      expect((await b.upload(`${WORDS}/import`, { files: { file: txt(["x"]) } })).body.status).toBe(403001);
    }
    expect(await findWordSettings()).toEqual(before);
  });

  it("adds words, skipping those already in force under any spelling, and the chat refuses them at once", async () => {
    const word = `违禁测试词${run}`;
    const added = await admin.browser.call(`${WORDS}/add`, { body: { words: [word, `違禁測試詞${run}`, "冰毒", ` ${word.toUpperCase()} `] } });
    expect(added.body).toMatchObject({ status: 200, data: { added: 1, skipped: 3 } });
    expect((await listOf(`q=${encodeURIComponent(`測試詞${run}`)}`)).items).toEqual([{ word, source: "custom", category: null, enabled: true }]);
    const { agentId, key } = await makeAgent(h, user);
    const r = await sendSse(base(), user, { agent_id: agentId, content: `这句话有${word}` });
    expect(dataOf(r, "error")[0]).toMatchObject({ status: 420009 });
    expect(h.fake.requestsFor(key)).toBe(0);

    expect((await admin.browser.call(`${WORDS}/remove`, { body: { words: [word] } })).body.data).toEqual({ removed: 1, skipped: 0 });
    expect((await listOf(`q=${encodeURIComponent(word)}`)).total).toBe(0);
    expect(names(await sendSse(base(), user, { agent_id: agentId, content: `这句话有${word}` })).at(-1)).toBe("close");
  });

  it("switches a default word off and back on", async () => {
    const { agentId, key } = await makeAgent(h, user);
    expect((await admin.browser.call(`${WORDS}/remove`, { body: { words: ["冰毒"] } })).body.data).toEqual({ removed: 1, skipped: 0 });
    expect((await listOf("status=disabled&q=冰毒")).items).toContainEqual({ word: "冰毒", source: "default", category: "drugs", enabled: false });
    expect(names(await sendSse(base(), user, { agent_id: agentId, content: "哪里可以买到冰毒" })).at(-1)).toBe("close");
    expect(h.fake.requestsFor(key)).toBe(1);

    expect((await admin.browser.call(`${WORDS}/restore`, { body: { words: ["冰毒"] } })).body.data).toEqual({ restored: 1, skipped: 0 });
    expect(dataOf(await sendSse(base(), user, { agent_id: agentId, content: "哪里可以买到冰毒" }), "error")[0]).toMatchObject({ status: 420009 });
    expect(h.fake.requestsFor(key)).toBe(1);
    // Adding a switched-off default word switches it back on rather than listing it twice.
    await admin.browser.call(`${WORDS}/remove`, { body: { words: ["海洛因"] } });
    expect((await admin.browser.call(`${WORDS}/add`, { body: { words: ["海洛因"] } })).body.data).toEqual({ added: 1, skipped: 0 });
    expect(await findWordSettings()).toMatchObject({ disabled: [] });
    expect((await getSensitiveWords()).includes("海洛因")).toBe(false);
  });

  it("imports a .txt file, one word a line, and says how many were added and skipped", async () => {
    const lines = ["# our own list", `导入词一${run}`, "", `导入词二${run}`, `导入词一${run}`, "赌博", "x".repeat(51)];
    const r = await admin.browser.upload(`${WORDS}/import`, { files: { file: txt(lines) } });
    expect(r.body).toMatchObject({ status: 200, data: { added: 2, skipped: 3 } });
    const page = await listOf(`status=custom&q=${encodeURIComponent(`导入词`)}`);
    expect(page.items.map((i: { word: string }) => i.word).sort()).toEqual([`导入词一${run}`, `导入词二${run}`]);
    // Written as GB18030, as Windows Notepad in China may save it.
    const gb = Buffer.from([0xb9, 0xfe, 0xb9, 0xfe]); // "哈哈"
    expect((await admin.browser.upload(`${WORDS}/import`, { files: { file: { bytes: gb, filename: "gb.txt" } } })).body.data).toEqual({ added: 1, skipped: 0 });
    expect((await listOf("status=custom&q=哈哈")).total).toBe(1);
  });

  it("refuses a file that is not text, an empty one and one too large, in the user's language, with nothing changed", async () => {
    const before = await findWordSettings();
    const png = await admin.browser.upload(`${WORDS}/import`, { files: { file: { bytes: makePng(8, 8), filename: "words.txt" } } });
    expect(png).toMatchObject({ http: 415, body: { status: 420901, description: "Import a .txt text file with one word per line" } });
    const empty = await admin.browser.upload(`${WORDS}/import`, { files: { file: { bytes: new Uint8Array(), filename: "words.txt" } } });
    expect(empty.body.status).toBe(420018);
    const comments = await admin.browser.upload(`${WORDS}/import`, { files: { file: txt(["# only", "", "# comments"]) } });
    expect(comments.body.status).toBe(420018);
    const big = await admin.browser.upload(`${WORDS}/import`, { files: { file: txt(["词".repeat(WORD_FILE_MAX_BYTES / 3 + 1)]) } });
    expect(big).toMatchObject({ http: 413, body: { status: 420017 } });
    expect((await admin.browser.call(`${WORDS}/add`, { body: { words: [] } })).body.status).toBe(400001);
    expect((await admin.browser.call(`${WORDS}/add`, { body: { words: ["x".repeat(51)] } })).body.status).toBe(400001);
    expect(await findWordSettings()).toEqual(before);
  });

  it("refuses to go past the administrators' limit, with nothing changed", async () => {
    const full = Array.from({ length: CUSTOM_WORDS_MAX }, (_, i) => `满词${run}-${i}`);
    await setSensitiveWords({ words: full });
    const r = await admin.browser.call(`${WORDS}/add`, { body: { words: [`多一个${run}`] } });
    expect(r.body).toMatchObject({ status: 420902, description: `At most ${CUSTOM_WORDS_MAX} custom sensitive words; remove some before adding more` });
    expect((await findWordSettings()).added).toHaveLength(CUSTOM_WORDS_MAX);
    await setSensitiveWords({ words: [] });
  });

  it("keeps every word when administrators add at the same time", async () => {
    const words = Array.from({ length: 6 }, (_, i) => `并发词${run}${i}`);
    const answers = await Promise.all(words.map((w) => admin.browser.call(`${WORDS}/add`, { body: { words: [w] } })));
    expect(answers.map((a) => a.body.data)).toEqual(words.map(() => ({ added: 1, skipped: 0 })));
    expect((await findWordSettings()).added).toEqual(expect.arrayContaining(words));
  });

  it("the administrators' bearer token sets their own words (the default list stays)", async () => {
    const put = await fetch(`${base()}${WORDS}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ words: ["赌博", "赌博", "casino"] }),
    }).then((r) => r.json());
    expect(put.data).toEqual({ count: 2 });
    expect((await listOf("status=default&q=冰毒")).total).toBeGreaterThan(0);
    await setSensitiveWords({ words: [] });
  });
});

describe("the matcher in force", () => {
  it("refuses input with a listed word, in the user's language", async () => {
    await setSensitiveWords({ words: [`禁止${run}`] });
    const err = await assertNoSensitiveInput(`哪里可以禁 止${run}？`).then(
      () => null,
      (e) => e,
    );
    expect(mapError(err, "en").envelope).toEqual({ status: 420009, description: "Input contains sensitive words", data: null });
    await expect(assertNoSensitiveInput("今天天气不错")).resolves.toBeUndefined();
  });

  it("censors streamed output across chunk boundaries", async () => {
    await setSensitiveWords({ words: ["代开发票"] });
    const censor = await createOutputCensor();
    expect(censor.push("可以代开")).toEqual([]);
    expect(censor.push("发票")).toEqual(["代开发票"]);
  });

  it("refuses a malformed list without changing the current one", async () => {
    await setSensitiveWords({ words: ["keep"] });
    await expect(ZSetSensitiveWordsInput.parseAsync({ words: [""] }).then(setSensitiveWords)).rejects.toThrow();
    await expect(assertNoSensitiveInput("keep it")).rejects.toThrow();
    await setSensitiveWords({ words: [] });
  });
});
