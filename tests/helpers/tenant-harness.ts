// The cross-tenant suites' setting: /api, /files and /trpc served as the web process serves them
// (behind the chat's early start), a fake model upstream that records what it was asked, Ada's
// tenant with one of everything, Bob (another account with things of his own) and an anonymous
// visitor. Each suite calls as Bob and as the visitor with Ada's ids.
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import { afterAll, beforeAll } from "vitest";
import { resetEnvCache } from "../../server/env";
import { verifyCsrf } from "../../server/http/csrf";
import { startTurnsEarly } from "../../server/turns/head-start/early-start";
import { appRouter } from "../../server/trpc/app-router";
import { createContext } from "../../server/trpc/trpc";
import { startFakeOpenai } from "../fakes/fake-openai";
import { Browser, createApiApp } from "./api-client";
import { makeAgent, makeUser, type TUser } from "./chat-runtime";
import { makeLiveAgent } from "./apps";
import { seedTenant, snapshotTenant, type TTenant } from "./tenant-fixture";

export type TTenantHarness = {
  base: string;
  fake: Awaited<ReturnType<typeof startFakeOpenai>>;
  ada: TTenant;
  bob: TUser & { agentId: string; liveAgentId: string };
  anonymous: Browser;
  before: Record<string, unknown[]>;
};

export function useTenantHarness() {
  const h = {} as TTenantHarness;
  let server: Server;
  const policyBefore = process.env.APP_REVIEW_POLICY;
  beforeAll(async () => {
    // Ada's app waits for review. Under the "listing" policy its own link already serves anyone, as a
    // shelved app's does; here it stands for what is not public, so it must stay Ada's alone.
    process.env.APP_REVIEW_POLICY = "review_first";
    resetEnvCache();
    h.fake = await startFakeOpenai();
    const app = createApiApp();
    app.use("/trpc", verifyCsrf, createExpressMiddleware({ router: appRouter, createContext }));
    server = http.createServer(startTurnsEarly(app)).listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    h.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h.ada = await seedTenant({ fake: h.fake, api: { base: h.base } });
    const bob = await makeUser(h.base);
    const own = await makeAgent({ fake: h.fake }, bob, { publish: true });
    h.bob = Object.assign(bob, { agentId: own.agentId, liveAgentId: await makeLiveAgent(bob.actor) });
    h.anonymous = new Browser(h.base, "10.99.0.1");
    h.before = await snapshotTenant(h.ada.ids.account);
  }, 120_000);
  afterAll(async () => {
    if (policyBefore === undefined) delete process.env.APP_REVIEW_POLICY;
    else process.env.APP_REVIEW_POLICY = policyBefore;
    resetEnvCache();
    await h.ada?.drop();
    await new Promise((r) => server?.close(r));
    await h.fake?.close();
  });
  return h;
}

/** A tRPC call as `browser` (its cookies and CSRF header): the HTTP status and the body. */
export async function callTrpc(base: string, browser: Browser, path: string, type: "query" | "mutation", input: unknown) {
  const headers: Record<string, string> = {
    cookie: [...browser.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; "),
    "x-forwarded-for": browser.ip,
  };
  const payload = JSON.stringify({ json: input ?? null });
  const res =
    type === "query"
      ? await fetch(`${base}/trpc/${path}?input=${encodeURIComponent(payload)}`, { headers })
      : await fetch(`${base}/trpc/${path}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json", "x-csrf-token": browser.cookies.get("zl_csrf")! },
          body: payload,
        });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { http: res.status, body, text };
}
