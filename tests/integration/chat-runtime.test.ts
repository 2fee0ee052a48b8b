// The chat runtime's stream against the fake upstream on loopback and the real
// database: the exact event sequences of plain, reasoning, tool-call, censored and failing turns;
// cancellation reaching the upstream; stop; refusals before any model call; usage recorded.
import { beforeAll, describe, expect, it } from "vitest";
import { getSensitiveWords, setSensitiveWords } from "../../server/content/content.service";
import { getDb } from "../../server/db/client";
import * as models from "../../server/models/models.repository";
import * as repo from "../../server/dialogues/dialogues.repository";
import { contentOf, dataOf, makeAgent, makeUser, names, sendSse, useChatHarness, waitFor, type TUser } from "../helpers/chat-runtime";

const h = useChatHarness();
let alice: TUser;
const base = () => h.api.base;
const message = (id: string) => getDb().chatMessage.findUniqueOrThrow({ where: { id } });

beforeAll(async () => {
  alice = await makeUser(base());
});

describe("event sequences", () => {
  it("plain: the ids first, then each content delta, then close with usage; stored and logged", async () => {
    const { agentId, key, modelKey } = await makeAgent(h, alice, {
      config: { role_style: "Be brief.", prompt: "You help with {{topic}}.", variables: [{ name: "topic", type: "fill", required: true }] },
      behaviour: { stream: { chunks: 3 } },
    });
    const r = await sendSse(base(), alice, { agent_id: agentId, content: "hello there", variables: { topic: "tea" } });
    expect(r.http).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/event-stream");
    expect(r.headers.get("x-accel-buffering")).toBe("no");
    expect(r.headers.get("content-encoding")).toBeNull();
    expect(names(r)).toEqual(["message", "message", "message", "message", "close"]);
    const [first, ...deltas] = dataOf(r, "message");
    expect(first).toEqual({ id: expect.any(String), dialogue_id: expect.any(String), choices: [{ message: { content: "" } }] });
    expect(deltas.map((d) => d.choices[0].message)).toEqual([{ content: "word0 " }, { content: "word1 " }, { content: "word2 " }]);
    for (const d of deltas) expect(d).toMatchObject({ id: first.id, dialogue_id: first.dialogue_id });
    const [close] = dataOf(r, "close");
    expect(close).toEqual({
      id: first.id,
      dialogue_id: first.dialogue_id,
      user_message_id: expect.any(String),
      retrieve: [],
      audio: null,
      usage: { prompt_tokens: expect.any(Number), completion_tokens: 3 },
    });

    // The upstream got the assembled prompt and was asked for usage.
    const [sent] = h.fake.receivedFor(key);
    expect(sent.body.stream_options).toEqual({ include_usage: true });
    expect(sent.body.messages).toEqual([
      { role: "system", content: "Be brief.\n\nYou help with tea." },
      { role: "user", content: "hello there" },
    ]);
    expect(sent.body.tools).toBeUndefined();

    const stored = await message(first.id);
    expect(stored).toMatchObject({
      role: "assistant",
      content: "word0 word1 word2 ",
      status: "done",
      modelKey,
      completionTokens: 3,
      promptTokens: close.usage.prompt_tokens,
    });
    const [log] = await models.findModelRequestLogs(stored.requestId!);
    expect(log).toMatchObject({ ok: true, promptTokens: close.usage.prompt_tokens, completionTokens: 3 });
    expect(log.firstChunkMs).toEqual(expect.any(Number));
    expect(log.totalMs).toBeGreaterThanOrEqual(log.firstChunkMs!);
    expect(await message(close.user_message_id)).toMatchObject({ role: "user", content: "hello there", dialogueId: first.dialogue_id });
  });

  it("estimates usage when the upstream sends none", async () => {
    const { agentId } = await makeAgent(h, alice, { behaviour: { stream: { chunks: 2, noUsage: true } } });
    const r = await sendSse(base(), alice, { agent_id: agentId, content: "hi" });
    const [close] = dataOf(r, "close");
    expect(close.usage.prompt_tokens).toBeGreaterThan(0);
    expect(close.usage.completion_tokens).toBe(3); // "word0 word1 ": 12 characters, about 4 a token
    const stored = await message(close.id);
    const [log] = await models.findModelRequestLogs(stored.requestId!);
    expect(log).toMatchObject({ promptTokens: close.usage.prompt_tokens, completionTokens: 3 });
  });

  it("reasoning shown: reasoning deltas in their own field before the content", async () => {
    const { agentId } = await makeAgent(h, alice, { config: { show_reasoning: true }, behaviour: { stream: { reasoningChunks: 2, chunks: 2 } } });
    const r = await sendSse(base(), alice, { agent_id: agentId, content: "think" });
    expect(names(r)).toEqual(["message", "message", "message", "message", "message", "close"]);
    expect(dataOf(r, "message").map((d) => d.choices[0].message)).toEqual([
      { content: "", reasoning_content: "" },
      { content: "", reasoning_content: "think 0 " },
      { content: "", reasoning_content: "think 1 " },
      { content: "word0 " },
      { content: "word1 " },
    ]);
    expect(await message(dataOf(r, "close")[0].id)).toMatchObject({ reasoning: "think 0 think 1 ", content: "word0 word1 " });
  });

  it("reasoning hidden: never sent, never stored", async () => {
    const { agentId } = await makeAgent(h, alice, { config: { show_reasoning: false }, behaviour: { stream: { reasoningChunks: 2, chunks: 2 } } });
    const r = await sendSse(base(), alice, { agent_id: agentId, content: "think" });
    expect(names(r)).toEqual(["message", "message", "message", "close"]);
    for (const d of dataOf(r, "message")) expect(d.choices[0].message).not.toHaveProperty("reasoning_content");
    expect(await message(dataOf(r, "close")[0].id)).toMatchObject({ reasoning: "", content: "word0 word1 " });
  });

  it("tool call: a function event, then a second upstream request carrying the tool result", async () => {
    const { agentId, key } = await makeAgent(h, alice, { config: { plugins: ["current_time"] }, behaviour: { stream: { chunks: 2 } } });
    const r = await sendSse(base(), alice, { agent_id: agentId, content: 'What time is it? [[tool:current_time {"timezone":"UTC"}]]' });
    expect(names(r)).toEqual(["message", "function", "message", "message", "close"]);
    const [fn] = dataOf(r, "function");
    expect(fn).toMatchObject({
      id: dataOf(r, "close")[0].id,
      name: "current_time",
      type: "response",
      params: { arguments: { timezone: "UTC" }, result: { timezone: "UTC", iso: expect.any(String) } },
    });
    expect(contentOf(r)).toMatch(/^Tool current_time returned: \{"timezone":"UTC"/);

    const [one, two] = h.fake.receivedFor(key);
    expect(one.body.tools.map((t: any) => t.function.name)).toEqual(["current_time"]);
    const assistant = two.body.messages.at(-2);
    const tool = two.body.messages.at(-1);
    expect(assistant).toMatchObject({
      role: "assistant",
      tool_calls: [{ type: "function", function: { name: "current_time", arguments: '{"timezone":"UTC"}' } }],
    });
    expect(tool).toMatchObject({ role: "tool", tool_call_id: assistant.tool_calls[0].id });
    expect(JSON.parse(tool.content)).toMatchObject({ timezone: "UTC" });
    const stored = await message(fn.id);
    expect(stored.functions).toEqual([{ name: "current_time", type: "response", params: fn.params }]);
    // Usage of both rounds.
    expect(dataOf(r, "close")[0].usage.completion_tokens).toBe(4 + 2);
  });

  it("censored: output with a listed word ends with censor; the reply is stored censored and never shown", async () => {
    const before = await getSensitiveWords();
    await setSensitiveWords({ words: [...before, "违禁词"] });
    try {
      const { agentId } = await makeAgent(h, alice, { behaviour: { stream: { text: "这里的回答含有违禁词，后面还有很多内容", chunks: 6 } } });
      const r = await sendSse(base(), alice, { agent_id: agentId, content: "tell me" });
      expect(names(r).at(-1)).toBe("censor");
      expect(names(r).filter((n) => n === "close")).toEqual([]);
      const [censor] = dataOf(r, "censor");
      expect(censor).toEqual({
        id: expect.any(String),
        dialogue_id: expect.any(String),
        censor_msg: "The output failed review and cannot be viewed or downloaded",
      });
      expect(contentOf(r)).not.toContain("违禁词");
      expect((await message(censor.id)).status).toBe("censored");
      const view = await alice.browser.call(`/api/v1/dialogues/${censor.dialogue_id}`);
      const reply = view.body.data.messages.find((m: any) => m.id === censor.id);
      expect(reply).toMatchObject({ status: "censored", content: "" });
    } finally {
      await setSensitiveWords({ words: before });
    }
  });

  it("failing: every channel answers 500 → the ids, then an error event; the reply is stored failed", async () => {
    const { agentId, key } = await makeAgent(h, alice, { behaviour: { fail: "500" } });
    const r = await sendSse(base(), alice, { agent_id: agentId, content: "hello" });
    expect(names(r)).toEqual(["message", "error"]);
    const [err] = dataOf(r, "error");
    expect(err).toMatchObject({ status: 420406, description: "The model could not answer; please try again later" });
    expect(h.fake.requestsFor(key)).toBe(1);
    expect((await message(dataOf(r, "message")[0].id)).status).toBe("failed");
  });
});

describe("cancellation and stop", () => {
  const slow = { stream: { chunks: 60, delayMs: 40 } };

  it("a client that goes away cancels the upstream request; the reply keeps what was delivered", async () => {
    const { agentId, key } = await makeAgent(h, alice, { behaviour: slow });
    const abortsBefore = h.fake.aborts;
    const r = await sendSse(base(), alice, { agent_id: agentId, content: "long" }, { onEvent: (_e, all) => (all.length === 4 ? "abort" : undefined) });
    await h.fake.waitForAborts(abortsBefore + 1);
    expect(h.fake.receivedFor(key)[0].aborted).toBe(true);
    const id = dataOf(r, "message")[0].id;
    const stored = await waitFor(
      () => message(id),
      (m) => m.status !== "streaming",
    );
    expect(stored.status).toBe("stopped");
    expect(stored.content.startsWith(contentOf(r))).toBe(true);
    expect(stored.content.length).toBeLessThan("word0 ".length * 60);
  });

  it("the stop endpoint stops the reply: the stream closes, the upstream is cancelled", async () => {
    const { agentId, key } = await makeAgent(h, alice, { behaviour: slow });
    let stopAnswer: any;
    const r = await sendSse(
      base(),
      alice,
      { agent_id: agentId, content: "long" },
      {
        onEvent: async (e, all) => {
          if (all.length === 3) stopAnswer = await alice.browser.call("/api/v1/ai_message/stop", { body: { message_id: (e.data as any).id } });
        },
      },
    );
    expect(stopAnswer.body).toMatchObject({ status: 200, data: { status: "stopped" } });
    expect(names(r).at(-1)).toBe("close");
    expect(names(r).length).toBeLessThan(20);
    await waitFor(async () => h.fake.receivedFor(key)[0].aborted, Boolean);
    expect(h.fake.receivedFor(key)[0].aborted).toBe(true);
    const stored = await message(dataOf(r, "close")[0].id);
    expect(stored.status).toBe("stopped");
    expect(stored.content).toBe(contentOf(r));
  });

  it("a stop recorded by another instance (only in the database) ends the stream within a second or so", async () => {
    const { agentId, key } = await makeAgent(h, alice, { behaviour: slow });
    let stoppedAt = 0;
    const r = await sendSse(
      base(),
      alice,
      { agent_id: agentId, content: "long" },
      {
        onEvent: async (e, all) => {
          if (all.length === 2) {
            await repo.markStopped((e.data as any).id);
            stoppedAt = Date.now();
          }
        },
      },
    );
    expect(names(r).at(-1)).toBe("close");
    expect(Date.now() - stoppedAt).toBeLessThan(1800);
    await waitFor(async () => h.fake.receivedFor(key)[0].aborted, Boolean);
    expect((await message(dataOf(r, "close")[0].id)).status).toBe("stopped");
  });

  it("one reply per dialogue at a time", async () => {
    const { agentId } = await makeAgent(h, alice, { behaviour: slow });
    let second: Awaited<ReturnType<typeof sendSse>> | undefined;
    await sendSse(
      base(),
      alice,
      { agent_id: agentId, content: "long" },
      {
        onEvent: async (e, all) => {
          if (all.length !== 2) return;
          second = await sendSse(base(), alice, { agent_id: agentId, dialogue_id: (e.data as any).dialogue_id, content: "again" });
          return "abort";
        },
      },
    );
    expect(names(second!)).toEqual(["error"]);
    expect(dataOf(second!, "error")[0]).toMatchObject({ status: 420404 });
  });
});

describe("refused before any model call", () => {
  it("a required variable left empty", async () => {
    const { agentId, key } = await makeAgent(h, alice, { config: { prompt: "About {{city}}", variables: [{ name: "city", type: "fill", required: true }] } });
    const r = await sendSse(base(), alice, { agent_id: agentId, content: "hello", variables: { city: "  " } });
    expect(names(r)).toEqual(["error"]);
    expect(dataOf(r, "error")[0]).toMatchObject({
      status: 400001,
      description: "Fill in “city” first: it is required",
      data: { fields: [{ path: "city", message: "validation.variable_missing" }] },
    });
    expect(h.fake.requestsFor(key)).toBe(0);
    expect(await getDb().dialogue.count({ where: { agentId } })).toBe(0);
  });

  it("input with a sensitive word", async () => {
    const before = await getSensitiveWords();
    await setSensitiveWords({ words: [...before, "禁语"] });
    try {
      const { agentId, key } = await makeAgent(h, alice);
      const r = await sendSse(base(), alice, { agent_id: agentId, content: "这句话有禁语" });
      expect(names(r)).toEqual(["error"]);
      expect(dataOf(r, "error")[0]).toMatchObject({ status: 420009, description: "Input contains sensitive words" });
      expect(h.fake.requestsFor(key)).toBe(0);
    } finally {
      await setSensitiveWords({ words: before });
    }
  });

  it("plugins on a model that cannot call tools: model_no_plugins", async () => {
    const { agentId, key, modelKey } = await makeAgent(h, alice, { config: { plugins: ["web_reader"], networking: true } });
    const model = await models.findModelByKey(modelKey);
    await models.updateModelById(model!.id, { supportsTools: false });
    const r = await sendSse(base(), alice, { agent_id: agentId, content: "read something" });
    expect(names(r)).toEqual(["error"]);
    expect(dataOf(r, "error")[0]).toMatchObject({ status: 420022 });
    expect(h.fake.requestsFor(key)).toBe(0);
  });

  it("not logged in, and an app id that names no app", async () => {
    const { agentId } = await makeAgent(h, alice);
    const headers = { "content-type": "application/json", cookie: "zl_csrf=t0ken", "x-csrf-token": "t0ken" };
    const res = await fetch(`${base()}/api/v1/ai_message/send_message/sse`, {
      method: "POST",
      headers,
      body: JSON.stringify({ agent_id: agentId, content: "hi" }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^event: error\ndata: \{"status":110003,/);
    const r = await sendSse(base(), alice, { app_id: "someapp", content: "hi" }, { path: "/api/v2/app/send_message/sse" });
    expect(dataOf(r, "error")[0]).toMatchObject({ status: 404001 });
  });
});
