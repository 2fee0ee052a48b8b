// The model gateway against a fake OpenAI-compatible upstream on loopback and the real database:
// weighted routing, priority tiers, retries with their recorded chain, auto-disable and banned
// keys, streams passed through untouched, no retry after the first chunk, cancellation, and the
// admin REST with its refusals.
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../server/env";
import { isAppError } from "../../server/errors/app-error";
import { openSecret } from "../../server/lib/secret-box";
import { createChannel, disableChannel } from "../../server/models/channels.service";
import { completeChat } from "../../server/models/gateway.service";
import { createModel } from "../../server/models/models.service";
import { probeMediaChannel } from "../../server/media/channel-probe";
import { createModelsRouter } from "../../server/models/models.http";
import * as repo from "../../server/models/models.repository";
import { startFakeOpenai, type TKeyBehaviour } from "../fakes/fake-openai";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

const ADMIN = "model-gateway-admin-token-0000";
const MESSAGES = [{ role: "user" as const, content: "hello" }];
let fake: Awaited<ReturnType<typeof startFakeOpenai>>;
let server: Server;
let base: string;

beforeAll(async () => {
  Object.assign(process.env, { CHANNEL_FAILURE_THRESHOLD: "3", CHANNEL_FAILURE_WINDOW_MS: "60000", MODEL_CONNECT_TIMEOUT_MS: "1500", ADMIN_API_TOKEN: ADMIN });
  // Long enough that a busy CI machine does not turn a slow answer into a retry; one test waits it out once.
  resetEnvCache();
  fake = await startFakeOpenai();
  const app = express();
  app.use("/api", express.json(), createModelsRouter({ probeMediaChannel }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const k of ["CHANNEL_FAILURE_THRESHOLD", "CHANNEL_FAILURE_WINDOW_MS", "MODEL_CONNECT_TIMEOUT_MS", "ADMIN_API_TOKEN"]) delete process.env[k];
  resetEnvCache();
  await fake.close();
  await new Promise((r) => server.close(r));
});

const uid = () => crypto.randomBytes(4).toString("hex");

/** A fresh model served by the given channels (each with its own fake key): tests never share. */
async function setup(channels: Array<{ name: string; weight?: number; priority?: number; behaviour?: TKeyBehaviour }>) {
  const modelKey = `test-${uid()}`;
  await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "测试", upstream_model: `${modelKey}-upstream` }));
  const out: Record<string, { id: string; key: string }> = {};
  for (const c of channels) {
    const key = `sk-${c.name}-${uid()}`;
    if (c.behaviour) fake.setBehaviour(key, c.behaviour);
    const created = await createChannel(
      ZCreateChannelInput.parse({
        name: c.name,
        type: "openai",
        base_url: fake.base,
        key,
        models: [modelKey],
        weight: c.weight ?? 1,
        priority: c.priority ?? 0,
      }),
    );
    out[c.name] = { id: created.id, key };
  }
  return { modelKey, ch: out };
}

async function collect(stream: AsyncIterable<unknown>) {
  const got: unknown[] = [];
  for await (const c of stream) got.push(c);
  return got;
}

async function chainOf(requestId: string) {
  const [log] = await repo.findModelRequestLogs(requestId);
  return { log, chain: (log.attempts as Array<{ channelId: string; status: number | null; error: string | null }>).map((a) => [a.channelId, a.status]) };
}

async function expectAppError(p: Promise<unknown>, code: string) {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(isAppError(err), String(err)).toBe(true);
  expect(err.code).toBe(code);
  return err;
}

describe("routing", () => {
  it("splits traffic inside a tier by weight (1:3 over 600 requests)", async () => {
    const { modelKey, ch } = await setup([
      { name: "light", weight: 1 },
      { name: "heavy", weight: 3 },
    ]);
    for (let batch = 0; batch < 30; batch++) await Promise.all(Array.from({ length: 20 }, () => completeChat({ modelKey, messages: MESSAGES })));
    const light = fake.requestsFor(ch.light.key);
    const heavy = fake.requestsFor(ch.heavy.key);
    expect(light + heavy).toBe(600);
    expect(heavy / 600).toBeGreaterThan(0.68);
    expect(heavy / 600).toBeLessThan(0.82);
  });

  it("prefers the higher priority tier and uses the lower one only when it fails", async () => {
    const { modelKey, ch } = await setup([
      { name: "top", priority: 10, weight: 1 },
      { name: "bottom", priority: 0, weight: 100 },
    ]);
    for (let i = 0; i < 20; i++) expect((await completeChat({ modelKey, messages: MESSAGES })).channelId).toBe(ch.top.id);
    expect(fake.requestsFor(ch.bottom.key)).toBe(0);
    fake.setBehaviour(ch.top.key, { fail: "500", failTimes: 21 });
    const res = await completeChat({ modelKey, messages: MESSAGES });
    expect(res.channelId).toBe(ch.bottom.id);
    expect((await chainOf(res.requestId)).chain).toEqual([
      [ch.top.id, 500],
      [ch.bottom.id, 200],
    ]);
  });

  it("sends the model's upstream name, the messages and the parameters", async () => {
    const { modelKey, ch } = await setup([{ name: "only" }]);
    const res = await completeChat({ modelKey, messages: MESSAGES, params: { temperature: 0.5, max_tokens: 100, stream: true } });
    expect(res.completion.choices?.[0]).toMatchObject({ message: { content: `Hello from ${ch.only.key}` } });
    expect(fake.receivedFor(ch.only.key)[0].body).toEqual({
      model: `${modelKey}-upstream`,
      messages: MESSAGES,
      temperature: 0.5,
      max_tokens: 100,
      stream: false,
    });
  });

  it("refuses parameters out of their ranges before calling anyone", async () => {
    const { modelKey, ch } = await setup([{ name: "only" }]);
    await expect(completeChat({ modelKey, messages: MESSAGES, params: { top_k: 7 } })).rejects.toThrow();
    expect(fake.requestsFor(ch.only.key)).toBe(0);
  });
});

describe("retries", () => {
  it("moves on after 500, 429, a reset and a hang, recording the chain", async () => {
    const { modelKey, ch } = await setup([
      { name: "e500", priority: 5, behaviour: { fail: "500" } },
      { name: "e429", priority: 4, behaviour: { fail: "429" } },
      { name: "reset", priority: 3, behaviour: { fail: "reset" } },
      { name: "hang", priority: 2, behaviour: { fail: "hang" } },
      { name: "good", priority: 1 },
    ]);
    const res = await completeChat({ modelKey, messages: MESSAGES, accountId: "acct-1" });
    expect(res.channelId).toBe(ch.good.id);
    const { log, chain } = await chainOf(res.requestId);
    expect(chain).toEqual([
      [ch.e500.id, 500],
      [ch.e429.id, 429],
      [ch.reset.id, null],
      [ch.hang.id, null],
      [ch.good.id, 200],
    ]);
    expect(log).toMatchObject({ ok: true, finalChannelId: ch.good.id, modelKey, accountId: "acct-1" });
    const errors = (log.attempts as Array<{ error: string | null }>).map((a) => a.error);
    expect(errors[2]).toMatch(/^connect/);
    expect(errors[3]).toMatch(/^timeout/);
  });

  it("answers system_busy when every channel failed, with the full chain logged", async () => {
    const { modelKey, ch } = await setup([
      { name: "a", priority: 1, behaviour: { fail: "500" } },
      { name: "b", behaviour: { fail: "429" } },
    ]);
    const err = await expectAppError(completeChat({ modelKey, messages: MESSAGES, requestId: `req-${uid()}` }), "system_busy");
    const { log, chain } = await chainOf(err.data.request_id);
    expect(chain).toEqual([
      [ch.a.id, 500],
      [ch.b.id, 429],
    ]);
    expect(log.ok).toBe(false);
  });

  it("never tries a disabled channel", async () => {
    const { modelKey, ch } = await setup([{ name: "off", priority: 10 }, { name: "on" }]);
    await disableChannel(ch.off.id);
    for (let i = 0; i < 5; i++) expect((await completeChat({ modelKey, messages: MESSAGES })).channelId).toBe(ch.on.id);
    expect(fake.requestsFor(ch.off.key)).toBe(0);
  });

  it("answers model_unavailable for an unknown model or one with no enabled channel", async () => {
    await expectAppError(completeChat({ modelKey: `missing-${uid()}`, messages: MESSAGES }), "model_unavailable");
    const { modelKey, ch } = await setup([{ name: "off" }]);
    await disableChannel(ch.off.id);
    await expectAppError(completeChat({ modelKey, messages: MESSAGES }), "model_unavailable");
    expect(fake.requestsFor(ch.off.key)).toBe(0);
  });
});

describe("auto-disable", () => {
  it("disables a channel after N failures in the window, and not after N-1", async () => {
    const { modelKey, ch } = await setup([{ name: "flaky", priority: 1, behaviour: { fail: "500" } }, { name: "steady" }]);
    for (let i = 0; i < 2; i++) await completeChat({ modelKey, messages: MESSAGES });
    expect(await repo.findChannelById(ch.flaky.id)).toMatchObject({ state: "enabled", disabledReason: null });
    await completeChat({ modelKey, messages: MESSAGES });
    const disabled = await repo.findChannelById(ch.flaky.id);
    expect(disabled?.state).toBe("disabled_auto");
    expect(disabled?.disabledReason).toMatch(/^3 failures in 60s; last: http_500/);
    expect(disabled?.disabledAt).toBeInstanceOf(Date);
    await completeChat({ modelKey, messages: MESSAGES });
    expect(fake.requestsFor(ch.flaky.key)).toBe(3);
  });

  it("disables a banned key at once (401 invalid_api_key) with reason key_banned and moves on", async () => {
    const { modelKey, ch } = await setup([{ name: "banned", priority: 1, behaviour: { fail: "401" } }, { name: "fine" }]);
    const res = await completeChat({ modelKey, messages: MESSAGES });
    expect(res.channelId).toBe(ch.fine.id);
    expect(await repo.findChannelById(ch.banned.id)).toMatchObject({ state: "disabled_auto", disabledReason: "key_banned" });
    await completeChat({ modelKey, messages: MESSAGES });
    expect(fake.requestsFor(ch.banned.key)).toBe(1);
  });

  it("treats a 403 account_deactivated as banned, and answers key_banned when that was the only channel", async () => {
    const { modelKey, ch } = await setup([{ name: "gone", behaviour: { fail: "403_banned" } }]);
    await expectAppError(completeChat({ modelKey, messages: MESSAGES }), "key_banned");
    expect(await repo.findChannelById(ch.gone.id)).toMatchObject({ state: "disabled_auto", disabledReason: "key_banned" });
  });
});

describe("streaming", () => {
  for (const [name, shape] of [
    ["plain", { chunks: 5 }],
    ["reasoning", { reasoningChunks: 3, chunks: 2 }],
    ["tool call", { toolCall: true }],
  ] as const) {
    it(`passes the exact chunk sequence through: ${name}`, async () => {
      const { modelKey, ch } = await setup([{ name: "s", behaviour: { stream: shape } }]);
      const stream = await completeChat({ modelKey, messages: MESSAGES, stream: true });
      const got = await collect(stream);
      const [received] = fake.receivedFor(ch.s.key);
      expect(received.body.stream).toBe(true);
      expect(got).toEqual(received.sent);
      expect(got.length).toBeGreaterThan(2);
      if (name === "reasoning") expect(got.slice(1, 4).map((c: any) => c.choices[0].delta.reasoning_content)).toEqual(["think 0 ", "think 1 ", "think 2 "]);
      if (name === "tool call") expect(got.at(-1)).toMatchObject({ choices: [{ finish_reason: "tool_calls" }] });
      expect((await chainOf(stream.requestId)).log).toMatchObject({ ok: true, finalChannelId: ch.s.id });
    });
  }

  it("retries a stream that fails before its first chunk", async () => {
    const { modelKey, ch } = await setup([
      { name: "down", priority: 1, behaviour: { fail: "reset" } },
      { name: "up", behaviour: { stream: { chunks: 2 } } },
    ]);
    const stream = await completeChat({ modelKey, messages: MESSAGES, stream: true });
    expect(await collect(stream)).toEqual(fake.receivedFor(ch.up.key)[0].sent);
    expect((await chainOf(stream.requestId)).chain).toEqual([
      [ch.down.id, null],
      [ch.up.id, 200],
    ]);
  });

  it("never retries after the first chunk: a stream that dies midway surfaces an error", async () => {
    const { modelKey, ch } = await setup([{ name: "dies", priority: 1, behaviour: { stream: { chunks: 10, dieAfter: 3 } } }, { name: "spare" }]);
    const stream = await completeChat({ modelKey, messages: MESSAGES, stream: true });
    const got: unknown[] = [];
    const err = await (async () => {
      for await (const c of stream) got.push(c);
    })().then(
      () => null,
      (e) => e,
    );
    expect(isAppError(err), String(err)).toBe(true);
    expect(got).toEqual(fake.receivedFor(ch.dies.key)[0].sent);
    expect(got).toHaveLength(3);
    expect(fake.requestsFor(ch.dies.key)).toBe(1);
    expect(fake.requestsFor(ch.spare.key)).toBe(0);
    expect((await chainOf(stream.requestId)).log).toMatchObject({ ok: false, finalChannelId: ch.dies.id });
  });

  it("cancels the upstream request when the caller aborts mid-stream", async () => {
    const { modelKey, ch } = await setup([{ name: "slow", behaviour: { stream: { chunks: 40, delayMs: 50 } } }]);
    const controller = new AbortController();
    const abortsBefore = fake.aborts;
    const stream = await completeChat({ modelKey, messages: MESSAGES, stream: true, signal: controller.signal });
    let seen = 0;
    const err = await (async () => {
      for await (const _ of stream) if (++seen === 2) controller.abort();
    })().then(
      () => null,
      (e) => e,
    );
    expect(err).not.toBeNull();
    await fake.waitForAborts(abortsBefore + 1);
    expect(fake.receivedFor(ch.slow.key)[0].aborted).toBe(true);
    expect(fake.receivedFor(ch.slow.key)[0].sent.length).toBeLessThan(10);
  });

  it("cancels the upstream request when the consumer stops reading", async () => {
    const { modelKey, ch } = await setup([{ name: "slow", behaviour: { stream: { chunks: 40, delayMs: 50 } } }]);
    const abortsBefore = fake.aborts;
    const stream = await completeChat({ modelKey, messages: MESSAGES, stream: true });
    for await (const _ of stream) break;
    await fake.waitForAborts(abortsBefore + 1);
    expect(fake.receivedFor(ch.slow.key)[0].aborted).toBe(true);
  });
});

describe("REST", () => {
  async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const res = await fetch(`${base}/api${path}`, {
      method: init.method ?? (init.body ? "POST" : "GET"),
      headers,
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const text = await res.text();
    return { http: res.status, text, body: JSON.parse(text) };
  }

  it("refuses every admin route to non-admins with no_permission", async () => {
    const routes: Array<[string, string]> = [
      ["GET", "/v1/admin/models"],
      ["POST", "/v1/admin/models"],
      ["PATCH", "/v1/admin/models/x"],
      ["DELETE", "/v1/admin/models/x"],
      ["GET", "/v1/admin/channels"],
      ["POST", "/v1/admin/channels"],
      ["PATCH", "/v1/admin/channels/x"],
      ["DELETE", "/v1/admin/channels/x"],
      ["POST", "/v1/admin/channels/x/test"],
      ["POST", "/v1/admin/channels/x/enable"],
      ["POST", "/v1/admin/channels/x/disable"],
    ];
    for (const [method, path] of routes)
      for (const token of [undefined, "not-the-admin-token-at-all-000"]) {
        const res = await call(path, { method, token, body: method === "GET" ? undefined : {} });
        expect(res.http, `${method} ${path}`).toBe(403);
        expect(res.body.status).toBe(403001);
      }
  });

  it("creates, lists, tests, disables and deletes a channel without ever returning the key", async () => {
    const modelKey = `rest-${uid()}`;
    const created = await call("/v1/admin/models", { token: ADMIN, body: { key: modelKey, display_name: "REST模型", kind: "text", supports_tools: true } });
    expect(created.body).toMatchObject({ status: 200, data: { key: modelKey, upstream_model: modelKey, supports_tools: true } });
    const key = `sk-rest-secret-${uid()}-abcd1234`;
    const ch = await call("/v1/admin/channels", {
      token: ADMIN,
      body: { name: "rest", type: "deepseek", base_url: `${fake.base}/`, key, models: [modelKey], weight: 7, priority: 2 },
    });
    expect(ch.body).toMatchObject({ status: 200, data: { key_hint: "1234", base_url: fake.base, weight: 7, state: "enabled" } });
    expect(ch.text).not.toContain(key);
    const id = ch.body.data.id;
    const stored = await repo.findChannelWithKeyById(id);
    expect(stored?.keyEncrypted).not.toContain(key);
    expect(openSecret(stored!.keyEncrypted)).toBe(key);

    const list = await call("/v1/admin/channels", { token: ADMIN });
    expect(list.body.data.some((c: { id: string }) => c.id === id)).toBe(true);
    expect(list.text).not.toContain(key);
    expect(list.text).not.toContain("key_encrypted");

    const test = await call(`/v1/admin/channels/${id}/test`, { method: "POST", token: ADMIN });
    expect(test.body).toMatchObject({ status: 200, data: { ok: true, error: null } });
    expect(fake.receivedFor(key)[0].body).toMatchObject({ model: modelKey, max_tokens: 1 });

    const badWeight = await call(`/v1/admin/channels/${id}`, { method: "PATCH", token: ADMIN, body: { weight: 101 } });
    expect(badWeight.body.status).toBe(400001);

    const refused = await call(`/v1/admin/channels/${id}`, { method: "DELETE", token: ADMIN });
    expect(refused.body.status).toBe(420021);
    expect((await call(`/v1/admin/channels/${id}/disable`, { method: "POST", token: ADMIN })).body.data).toMatchObject({ state: "disabled_manual" });
    expect((await call(`/v1/admin/channels/${id}`, { method: "DELETE", token: ADMIN })).body).toMatchObject({ status: 200, data: { id } });
    expect(await repo.findChannelById(id)).toBeNull();
  });

  it("answers channel_test_failed with the error when the upstream refuses", async () => {
    const { ch } = await setup([{ name: "broken", behaviour: { fail: "401" } }]);
    const res = await call(`/v1/admin/channels/${ch.broken.id}/test`, { method: "POST", token: ADMIN });
    expect(res.body).toMatchObject({ status: 420020, data: { ok: false } });
    expect(res.body.data.error).toMatch(/401/);
  });

  it("re-enabling a channel clears its failure window", async () => {
    const { modelKey, ch } = await setup([{ name: "flaky", priority: 1, behaviour: { fail: "500", failTimes: 3 } }, { name: "steady" }]);
    for (let i = 0; i < 3; i++) await completeChat({ modelKey, messages: MESSAGES });
    expect((await repo.findChannelById(ch.flaky.id))?.state).toBe("disabled_auto");
    const enabled = await call(`/v1/admin/channels/${ch.flaky.id}/enable`, { method: "POST", token: ADMIN });
    expect(enabled.body.data).toMatchObject({ state: "enabled", disabled_reason: null });
    expect((await completeChat({ modelKey, messages: MESSAGES })).channelId).toBe(ch.flaky.id);
  });

  it("lists enabled models publicly with their public fields only", async () => {
    const on = `pub-${uid()}`;
    const off = `pub-off-${uid()}`;
    await createModel(ZCreateModelInput.parse({ key: on, display_name: "公开", kind: "reasoning", supports_reasoning: true, input_price_micro: 5 }));
    await createModel(ZCreateModelInput.parse({ key: off, display_name: "隐藏", enabled: false }));
    const res = await call("/v1/models");
    const mine = res.body.data.find((m: { key: string }) => m.key === on);
    expect(mine).toEqual({ key: on, display_name: "公开", kind: "reasoning", supports_tools: false, supports_reasoning: true });
    expect(res.body.data.some((m: { key: string }) => m.key === off)).toBe(false);
  });

  it("refuses a display name wider than 8 readings", async () => {
    const res = await call("/v1/admin/models", { token: ADMIN, body: { key: `wide-${uid()}`, display_name: "九个汉字九个汉字九" } });
    expect(res.body.status).toBe(400001);
  });
});
