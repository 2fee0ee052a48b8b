// tRPC shares the services and the one error mapping: a refusal carries the catalogue code, the
// envelope and the message in the caller's language.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../server/env";
import { setScreenLock } from "../../server/platform/platform.service";
import { appRouter } from "../../server/trpc/app-router";
import { createContext } from "../../server/trpc/trpc";

const ADMIN = "trpc-admin-token-0000000";
let server: Server;
let base: string;

beforeAll(async () => {
  process.env.ADMIN_API_TOKEN = ADMIN;
  resetEnvCache();
  const app = express();
  app.use("/trpc", createExpressMiddleware({ router: appRouter, createContext }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trpc`;
});
afterAll(async () => {
  delete process.env.ADMIN_API_TOKEN;
  resetEnvCache();
  await setScreenLock([]);
  await new Promise((r) => server.close(r));
});

const mutate = (path: string, input: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ json: input }) }).then(
    async (r) => ({ http: r.status, body: await r.json() }),
  );

describe("tRPC", () => {
  it("serves queries through the same services", async () => {
    const body = await fetch(`${base}/platform.systemConfig`).then((r) => r.json());
    expect(body.result.data.json).toMatchObject({ domain: "zelinai.com", config: { market: "zelinai" } });
  });

  it("maps a refusal once: code, envelope and the caller's language", async () => {
    const res = await mutate("platform.setScreenLock", { items: [] }, { cookie: "lang=en" });
    expect(res.http).toBe(403);
    expect(res.body.error.json.message).toBe("No access permission");
    expect(res.body.error.json.data).toMatchObject({ appCode: "no_permission", envelope: { status: 403001, description: "No access permission" } });
  });

  it("refuses bad input with the zod message key translated", async () => {
    const res = await mutate(
      "platform.setScreenLock",
      { items: [{ img_name: "", img_url: "/x.png" }] },
      { authorization: `Bearer ${ADMIN}`, cookie: "lang=zh_hans" },
    );
    expect(res.http).toBe(400);
    expect(res.body.error.json.data).toMatchObject({ appCode: "validation_failed", envelope: { status: 400001, description: "此项为必填项" } });
  });

  it("lets an administrator set the list", async () => {
    const res = await mutate("platform.setScreenLock", { items: [{ img_name: "Focus", img_url: "/focus.png" }] }, { authorization: `Bearer ${ADMIN}` });
    expect(res.body.result.data.json).toEqual({ screen_control: 1, items: [{ img_name: "Focus", img_url: "/focus.png", screen_control: 1 }] });
  });
});
