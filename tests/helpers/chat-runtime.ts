// Shared setup of the chat runtime's integration tests: the in-process API against a fake
// upstream, accounts with sessions, agents each on a model and channel of their own (so upstream
// request counts never mix between tests), and an SSE client that records the events.
import crypto from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { approveAgentVersion, createAgent, publishAgent, submitAgent } from "../../server/agents/agents.service";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import { readSseEvents, type TSseEvent } from "../../server/turns/sinks/sse-sink";
import { startFakeOpenai, type TKeyBehaviour } from "../fakes/fake-openai";
import { Browser, startApiServer } from "./api-client";
import { fundAccount } from "./money";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

export type TUser = { id: string; browser: Browser; actor: { id: string; roles: never[]; enterpriseId: null } };

export function useChatHarness() {
  const h = {} as { fake: Awaited<ReturnType<typeof startFakeOpenai>>; api: Awaited<ReturnType<typeof startApiServer>> };
  beforeAll(async () => {
    h.fake = await startFakeOpenai();
    h.api = await startApiServer();
  });
  afterAll(async () => {
    await h.api?.close();
    await h.fake?.close();
  });
  return h;
}

const uid = () => crypto.randomBytes(4).toString("hex");
let ip = 0;

/** A flagship account with a session and 10 Z of gift credit (each reply costs its channel fee). */
export async function makeUser(base: string, opts: { funded?: boolean } = {}): Promise<TUser> {
  const row = await getDb().account.create({
    data: { account: `chat${uid()}`, nickname: "Chatter", edition: "flagship", editionExpiresAt: new Date(Date.now() + 30 * 86_400_000), language: "en" },
    select: { id: true },
  });
  if (opts.funded !== false) await fundAccount(row.id);
  const browser = new Browser(base, `10.44.${Math.floor(++ip / 250)}.${ip % 250}`);
  browser.cookies.set("zl_session", (await startSession(row.id)).token);
  browser.cookies.set("lang", "en");
  return { id: row.id, browser, actor: { id: row.id, roles: [], enterpriseId: null } };
}

/** `publish`: live for the owner's own use; `market`: on the market's shelf (submitted and approved), where anyone may chat with it. */
export type TAgentSetup = { config?: Record<string, unknown>; behaviour?: TKeyBehaviour; model?: Record<string, unknown>; publish?: boolean; market?: boolean };

/** An agent of `owner` on a fresh model served by one fake channel with its own key. */
export async function makeAgent(h: { fake: { base: string; setBehaviour: (k: string, b: TKeyBehaviour) => void } }, owner: TUser, setup: TAgentSetup = {}) {
  const modelKey = `chat-${uid()}`;
  const key = `sk-chat-${uid()}`;
  await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "测试", supports_tools: true, supports_reasoning: true, ...setup.model }));
  await createChannel(ZCreateChannelInput.parse({ name: `ch ${modelKey}`, type: "openai", base_url: h.fake.base, key, models: [modelKey], weight: 1 }));
  h.fake.setBehaviour(key, setup.behaviour ?? {});
  // A listed agent has a name of its own: the end-to-end tests share the database and find theirs on the shelf by name.
  const agent = await createAgent(
    owner.actor,
    ZAgentInput.parse({
      name: setup.market ? "上架测试助手" : "测试助手",
      introduction: "An agent for tests",
      model_key: modelKey,
      show_reasoning: false,
      ...setup.config,
    }),
  );
  if (setup.publish) await publishAgent(owner.actor, { id: agent.id });
  if (setup.market) await putOnShelf(owner.actor, agent.id);
  return { agentId: agent.id, modelKey, key };
}

/** Submits the agent's draft and approves it as a platform administrator would: it goes on the shelf. */
export async function putOnShelf(owner: TUser["actor"], agentId: string) {
  await submitAgent(owner, { id: agentId });
  const version = await getDb().agentVersion.findFirstOrThrow({ where: { agentId, state: "under_review" }, select: { id: true } });
  await approveAgentVersion({ ...owner, roles: ["platform_admin"] as never[] }, { versionId: version.id });
}

export function cookieOf(user: TUser) {
  return [...user.browser.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
}

export type TStreamResult = { http: number; headers: Headers; events: TSseEvent[] };

/**
 * POSTs a send and reads the stream to its end. `onEvent` sees each event as it comes and may
 * return "abort" to hang up (the client going away).
 */
export async function sendSse(
  base: string,
  user: TUser,
  body: Record<string, unknown>,
  opts: { path?: string; onEvent?: (e: TSseEvent, all: TSseEvent[]) => unknown } = {},
): Promise<TStreamResult> {
  const controller = new AbortController();
  const res = await fetch(`${base}${opts.path ?? "/api/v1/ai_message/send_message/sse"}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      cookie: cookieOf(user),
      "x-csrf-token": user.browser.cookies.get("zl_csrf")!,
      "x-forwarded-for": user.browser.ip,
      "accept-encoding": "gzip, br",
    },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const events: TSseEvent[] = [];
  try {
    for await (const e of readSseEvents(res.body!)) {
      events.push(e);
      if ((await opts.onEvent?.(e, events)) === "abort") {
        controller.abort();
        break;
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  }
  return { http: res.status, headers: res.headers, events };
}

export const names = (r: TStreamResult) => r.events.map((e) => e.event);
export const dataOf = (r: TStreamResult, event: string) => r.events.filter((e) => e.event === event).map((e) => e.data as any);
export const contentOf = (r: TStreamResult) =>
  dataOf(r, "message")
    .map((d) => d.choices[0].message.content ?? "")
    .join("");

export async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
