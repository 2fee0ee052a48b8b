// The API app as any OpenAI client sees it: the official `openai` npm package against
// /v1/chat/completions (JSON and streamed) and /v1/models with the app's key; a wrong, revoked or
// replaced key answers 401, the key's rate limit 429 with Retry-After, a removed app 403; one
// AppUse (source api, the key, the tokens) per call; the native SSE endpoint takes the same key.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, getApiKey, resetApiKey, revokeApiKey } from "../../server/apps/api-keys.service";
import { createOpenAiRouter } from "../../server/apps/openai-compat/openai.http";
import { getDb } from "../../server/db/client";
import { createApiRouter } from "../../server/http/api-router";
import { issueCsrfCookie } from "../../server/http/csrf";
import { readSseEvents } from "../../server/turns/sinks/sse-sink";
import { startFakeOpenai } from "../fakes/fake-openai";
import { createTestApp } from "../helpers/apps";
import { makeAgent, makeUser } from "../helpers/chat-runtime";

const h = {} as { fake: Awaited<ReturnType<typeof startFakeOpenai>>; base: string; server: Server };

beforeAll(async () => {
  h.fake = await startFakeOpenai();
  // As the web app mounts them: /api and the OpenAI-compatible /v1.
  const app = express();
  app.use(issueCsrfCookie);
  app.use("/api", createApiRouter());
  app.use("/v1", createOpenAiRouter());
  h.server = app.listen(0, "127.0.0.1");
  await new Promise((r) => h.server.once("listening", r));
  h.base = `http://127.0.0.1:${(h.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => h.server?.close(() => r()));
  await h.fake?.close();
});

/** An API app of a new owner on the fake upstream, with its first key. */
async function apiApp(opts: { config?: Record<string, unknown>; behaviour?: NonNullable<Parameters<typeof makeAgent>[2]>["behaviour"] } = {}) {
  const owner = await makeUser(h.base);
  const agent = await makeAgent({ fake: h.fake }, owner, { publish: true, config: opts.config, behaviour: opts.behaviour });
  const actor = { id: owner.id, roles: [], enterpriseId: null };
  const { appId } = await createTestApp({ owner: actor, agentId: agent.agentId, input: { type: "api", free_per_day: 1 } as never });
  const issued = await createApiKey(actor, { app_id: appId });
  return { owner, actor, appId, agent, issued };
}

const clientFor = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${h.base}/v1`, maxRetries: 0 });

describe("the API app through the official openai client", () => {
  it("answers a chat completion, lists the app as a model, and records one use per call", async () => {
    const { appId, agent, issued } = await apiApp();
    expect(issued.key).toMatch(/^zk-/);
    expect(issued.secret.length).toBeGreaterThan(20);
    const client = clientFor(issued.key);

    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual([appId]);
    expect((await client.models.retrieve(appId)).id).toBe(appId);

    const completion = await client.chat.completions.create({
      model: appId,
      messages: [
        { role: "system", content: "Answer in one line." },
        { role: "user", content: "earlier question" },
        { role: "assistant", content: "earlier answer" },
        { role: "user", content: "what now?" },
      ],
    });
    expect(completion.object).toBe("chat.completion");
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe(appId);
    expect(completion.choices[0].message).toMatchObject({ role: "assistant", content: "word0 word1 word2 " });
    expect(completion.choices[0].finish_reason).toBe("stop");
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);

    // The client's history and system message reached the upstream after the agent's own prompt.
    const sent = h.fake.receivedFor(agent.key)[0].body.messages as { role: string; content: string }[];
    expect(sent[0].role).toBe("system");
    expect(sent[0].content).toMatch(/Answer in one line\.$/);
    expect(sent.slice(-3).map((m) => m.content)).toEqual(["earlier question", "earlier answer", "what now?"]);

    // The owner's key is the owner: past the app's free count of one, still answered.
    await client.chat.completions.create({ model: appId, messages: [{ role: "user", content: "second call" }] });
    const uses = await getDb().appUse.findMany({ where: { appId }, orderBy: { createdAt: "asc" } });
    expect(uses).toHaveLength(2);
    expect(uses.every((u) => u.source === "api" && u.basis === "owner" && u.apiKeyId === issued.id && u.promptTokens > 0 && u.completionTokens > 0)).toBe(true);
    const dialogues = await getDb().dialogue.findMany({ where: { appId } });
    expect(dialogues.map((d) => d.source)).toEqual(["api", "api"]);
  });

  it("streams chat.completion.chunk events with the usage chunk when asked", async () => {
    const { appId, issued } = await apiApp();
    const stream = await clientFor(issued.key).chat.completions.create({
      model: appId,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "stream please" }],
    });
    let text = "";
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]?.delta?.content ?? "";
    }
    expect(text).toBe("word0 word1 word2 ");
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === appId && c.id === chunks[0].id)).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe("stop");
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage!.completion_tokens).toBeGreaterThan(0);
    const use = await getDb().appUse.findFirstOrThrow({ where: { appId } });
    expect(use).toMatchObject({ source: "api", apiKeyId: issued.id, completionTokens: last.usage!.completion_tokens });
  });

  it("carries the agent's reasoning as reasoning_content, in deltas and in the message, only when the agent shows it", async () => {
    const thinking = { stream: { reasoningChunks: 2, chunks: 2 } };
    const shown = await apiApp({ config: { show_reasoning: true }, behaviour: thinking });
    const client = clientFor(shown.issued.key);
    const stream = await client.chat.completions.create({ model: shown.appId, stream: true, messages: [{ role: "user", content: "think aloud" }] });
    const deltas: Record<string, unknown>[] = [];
    for await (const chunk of stream) if (chunk.choices[0]) deltas.push(chunk.choices[0].delta as Record<string, unknown>);
    const reasoning = deltas.filter((d) => "reasoning_content" in d);
    expect(reasoning.map((d) => d.reasoning_content)).toEqual(["think 0 ", "think 1 "]);
    // The reasoning comes first, each delta carrying one of the two, as DeepSeek's stream does.
    expect(deltas.findIndex((d) => d.content === "word0 ")).toBeGreaterThan(deltas.indexOf(reasoning[1]));
    expect(reasoning.every((d) => !d.content)).toBe(true);
    const json = await client.chat.completions.create({ model: shown.appId, messages: [{ role: "user", content: "think again" }] });
    expect(json.choices[0].message).toMatchObject({ content: "word0 word1 ", reasoning_content: "think 0 think 1 " });

    const hidden = await apiApp({ config: { show_reasoning: false }, behaviour: thinking });
    const quiet = await clientFor(hidden.issued.key).chat.completions.create({
      model: hidden.appId,
      stream: true,
      messages: [{ role: "user", content: "think quietly" }],
    });
    let text = "";
    for await (const chunk of quiet) {
      expect(chunk.choices[0]?.delta ?? {}).not.toHaveProperty("reasoning_content");
      text += chunk.choices[0]?.delta?.content ?? "";
    }
    expect(text).toBe("word0 word1 ");
    const plain = await clientFor(hidden.issued.key).chat.completions.create({ model: hidden.appId, messages: [{ role: "user", content: "and again" }] });
    expect(plain.choices[0].message).not.toHaveProperty("reasoning_content");
  });

  it("refuses a wrong key with 401 and OpenAI's error shape", async () => {
    const { appId } = await apiApp();
    const err = await clientFor("zk-not-a-real-key")
      .chat.completions.create({ model: appId, messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.status).toBe(401);
    expect(err.error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key" });
    expect(
      await clientFor("sk-other")
        .models.list()
        .catch((e) => e.status),
    ).toBe(401);
  });

  it("limits each key's requests per minute: 429 with Retry-After, nothing sent upstream", async () => {
    const { appId, agent, issued } = await apiApp();
    await getDb().appApiKey.update({ where: { id: issued.id }, data: { ratePerMinute: 2 } });
    const client = clientFor(issued.key);
    for (let i = 0; i < 2; i++) await client.chat.completions.create({ model: appId, messages: [{ role: "user", content: `call ${i}` }] });
    const err = await client.chat.completions.create({ model: appId, messages: [{ role: "user", content: "one too many" }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err.status).toBe(429);
    expect(Number(err.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(err.error.code).toBe("rate_limit_exceeded");
    expect(h.fake.requestsFor(agent.key)).toBe(2);
    expect(await getDb().appUse.count({ where: { appId } })).toBe(2);
  });

  it("stops a revoked key at once, and a reset key replaces the old one", async () => {
    const { appId, actor, issued } = await apiApp();
    const reset = await resetApiKey(actor, { app_id: appId });
    expect(reset.key).not.toBe(issued.key);
    expect((await getApiKey(actor, { app_id: appId }))!.key_hint).toBe(reset.key_hint);
    expect(
      await clientFor(issued.key)
        .models.list()
        .catch((e) => e.status),
    ).toBe(401);
    expect((await clientFor(reset.key).models.list()).data[0].id).toBe(appId);

    await revokeApiKey(actor, { app_id: appId });
    const err = await clientFor(reset.key)
      .chat.completions.create({ model: appId, messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(err.status).toBe(401);
    expect(await getApiKey(actor, { app_id: appId })).toBeNull();
    expect(await getDb().appUse.count({ where: { appId } })).toBe(0);
    // The key is kept only as its hash and hint; the secret sealed.
    const rows = await getDb().appApiKey.findMany({ where: { appId } });
    expect(rows.every((r) => r.keyHash.length === 64 && !r.secretEncrypted.includes(issued.secret) && r.revokedAt)).toBe(true);
  });

  it("refuses keys to another's app and answers 403 once an administrator removed the app", async () => {
    const { appId, issued } = await apiApp();
    const stranger = await makeUser(h.base);
    await expect(resetApiKey({ id: stranger.id, roles: [], enterpriseId: null }, { app_id: appId })).rejects.toMatchObject({ code: "not_found" });
    await getDb().app.update({ where: { id: appId }, data: { state: "removed", removedReason: "test" } });
    const err = await clientFor(issued.key)
      .chat.completions.create({ model: appId, messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(err.status).toBe(403);
  });

  it("answers 400 when the last message is not the user's", async () => {
    const { appId, issued } = await apiApp();
    const err = await clientFor(issued.key)
      .chat.completions.create({ model: appId, messages: [{ role: "system", content: "only a system message" }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(await getDb().appUse.count({ where: { appId } })).toBe(0);
  });

  it("serves the native SSE endpoint with the same bearer key (no cookies, no CSRF token)", async () => {
    const { appId, issued } = await apiApp();
    const res = await fetch(`${h.base}/api/v2/app/send_message/sse`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${issued.key}` },
      body: JSON.stringify({ content: "native", ufids: [], ctype: 0 }),
    });
    const events = [];
    for await (const e of readSseEvents(res.body!)) events.push(e);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(["message", "close"]));
    expect(await getDb().appUse.findFirstOrThrow({ where: { appId } })).toMatchObject({ source: "api", apiKeyId: issued.id });
    const bad = await fetch(`${h.base}/api/v2/app/send_message/sse`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer zk-wrong" },
      body: JSON.stringify({ app_id: appId, content: "x" }),
    });
    const badEvents = [];
    for await (const e of readSseEvents(bad.body!)) badEvents.push(e);
    expect((badEvents[0].data as { status: number }).status).toBe(110003);
  });
});
