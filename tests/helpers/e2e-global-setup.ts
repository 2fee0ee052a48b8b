// One platform for the end-to-end run: the current build, the run's database, a worker, two web
// instances (they must behave like one) and two more whose licences expire soon and
// have expired.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../../scripts/ensure-build.mjs";
import { provideTestDatabase } from "./database";
import { writeLicenceFixtures } from "./licence-fixtures";
import { freePort, startBotGateway, startWeb, startWorker } from "./platform";
import { startFakeWechat } from "../fakes/fake-wechat";
import { startFakeOpenai } from "../fakes/fake-openai";
import { makeWechatMerchant, startFakeWechatPay } from "../fakes/fake-wechatpay";
import { startFakeKling } from "../fakes/fake-kling";

declare module "vitest" {
  export interface ProvidedContext {
    webUrl: string;
    webUrl2: string;
    expiringUrl: string;
    expiredUrl: string;
    adminToken: string;
    chromiumPath: string;
    databaseUrl: string;
    /** A chat model served by the loopback fake upstream: streams reasoning, then content. */
    chatModelKey: string;
    /** The loopback WeChat Pay (API v3) the web instances pay through: POST <url>/__fake/pay {out_trade_no} plays the payer. */
    wechatPayUrl: string;
    /** Picture and video models on the loopback Kling, made the way an administrator would (priced per picture and per second). */
    imageModelKey: string;
    videoModelKey: string;
  }
}

export const ADMIN_TOKEN = "e2e-admin-token-0123456789";
export const E2E_MODEL_KEY = "zelin-e2e-chat";
const E2E_UPSTREAM_KEY = "sk-e2e-upstream";

/** The model and channel the end-to-end agents chat with, made the way an administrator would. */
async function configureChatModel(webUrl: string, upstreamBase: string) {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${webUrl}/api${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { status: number; description: string };
    if (json.status !== 200) throw new Error(`${path}: ${json.status} ${json.description}`);
  };
  await call("/v1/admin/models", {
    key: E2E_MODEL_KEY,
    display_name: "E2E",
    kind: "reasoning",
    supports_tools: true,
    supports_reasoning: true,
    context_window: 32000,
  });
  await call("/v1/admin/channels", {
    name: "e2e fake upstream",
    type: "custom",
    base_url: upstreamBase,
    key: E2E_UPSTREAM_KEY,
    models: [E2E_MODEL_KEY],
    weight: 1,
  });
}

export const E2E_IMAGE_MODEL_KEY = "zelin-e2e-kling-image";
export const E2E_VIDEO_MODEL_KEY = "zelin-e2e-kling-video";

/** Kling's picture and video models and one channel for both, through the admin API. */
async function configureMediaModels(webUrl: string, kling: { url: string; secret: string }) {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${webUrl}/api${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { status: number; description: string };
    if (json.status !== 200) throw new Error(`${path}: ${json.status} ${json.description}`);
  };
  await call("/v1/admin/models", { key: E2E_IMAGE_MODEL_KEY, display_name: "E2E画图", kind: "image", upstream_model: "kling-v1", unit_price_micro: 200_000 });
  await call("/v1/admin/models", {
    key: E2E_VIDEO_MODEL_KEY,
    display_name: "E2E视频",
    kind: "video",
    upstream_model: "kling-v1-6",
    unit_price_micro: 100_000,
  });
  await call("/v1/admin/channels", {
    name: "e2e Kling",
    type: "kling",
    base_url: kling.url,
    key: kling.secret,
    models: [E2E_IMAGE_MODEL_KEY, E2E_VIDEO_MODEL_KEY],
    weight: 1,
  });
}

/** The offline channel, as `npm start` seeds it on a fresh install (the demo account is left out). */
async function seedOfflineChannelInto(databaseUrl: string, appSecret: string, embedded: boolean) {
  Object.assign(process.env, { DATABASE_URL: databaseUrl, APP_SECRET: appSecret, ...(embedded ? { ZELIN_EMBEDDED_DB: "1" } : {}) });
  const { getDb } = await import("../../server/db/client");
  const { seedOfflineChannel } = await import("../../prisma/seed/demo-knowledge");
  await seedOfflineChannel(getDb());
  await getDb().$disconnect();
}

export default async function setup(project: TestProject) {
  ensureBuild({ quiet: true });
  const db = await provideTestDatabase();
  const licences = writeLicenceFixtures();
  const wechat = await startFakeWechat({
    appId: "wxe2e0000000000001",
    appSecret: "e2e-wechat-secret",
    user: { openid: `o_e2e_${Date.now()}`, nickname: "微信用户" },
  });
  const wechatEnv = {
    WECHAT_APP_ID: "wxe2e0000000000001",
    WECHAT_APP_SECRET: "e2e-wechat-secret",
    WECHAT_OPEN_BASE: wechat.base,
    WECHAT_API_BASE: wechat.base,
  };
  const upstream = await startFakeOpenai();
  // The pause after thinking keeps "the thinking shows before the answer" observable on a loaded machine,
  // where 20 ms chunks can reach the browser in one render.
  upstream.setBehaviour(E2E_UPSTREAM_KEY, { stream: { reasoningChunks: 3, chunks: 6, delayMs: 20, thinkMs: 400 } });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-e2e-"));
  // Database training sets reach the test MariaDB on loopback: the SSRF guard lets it through only when listed.
  const mysqlUrl = new URL(process.env.MYSQL_URL ?? "mysql://root@127.0.0.1:3306");
  const ssrfAllowList = [process.env.SSRF_ALLOWLIST, `${mysqlUrl.hostname}:${mysqlUrl.port || 3306}`].filter(Boolean).join(",");
  const base = {
    ...wechatEnv,
    SSRF_ALLOWLIST: ssrfAllowList,
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    ZELIN_EMBEDDED_DB: db.embedded ? "1" : undefined,
    ADMIN_API_TOKEN: ADMIN_TOKEN,
    APP_SECRET: "e2e-app-secret-0123456789abcdefghijklmnop",
    SMS_PROVIDER: "dev",
    ALLOW_DEV_SMS: "1",
    LICENCE_PUBLIC_KEY: licences.publicKeyPem,
    CONTACT_PHONE: "400-820-1024",
  };
  // Top-ups go through the loopback WeChat Pay; its notifications reach the first web instance, whose
  // port is fixed beforehand for that. The sandbox stays on beside it, as on a fresh install (its cashier
  // page); these web processes are a production configuration, so it is allowed by name.
  const wechatPay = await startFakeWechatPay(makeWechatMerchant());
  // Kling answers each task after two polls; the worker polls every few hundred milliseconds.
  const kling = await startFakeKling();
  kling.behave({ pollsUntilDone: 2 });
  const webPort = await freePort();
  const payEnv = { ...wechatPay.env(), PAYMENT_NOTIFY_BASE: `http://127.0.0.1:${webPort}`, PAYMENT_SANDBOX: "on", ALLOW_PAYMENT_SANDBOX: "1" };
  const [web, web2, expiring, expired] = await Promise.all([
    startWeb({ ...base, ...payEnv, PORT: String(webPort) }),
    startWeb({ ...base, ...payEnv }),
    startWeb({ ...base, LICENCE_FILE: licences.files.expiring }),
    startWeb({ ...base, LICENCE_FILE: licences.files.expired }),
  ]);
  const worker = await startWorker({ ...base, ...payEnv, MEDIA_POLL_BASE_MS: "300", MEDIA_SWEEP_MS: "2000" });
  // Personal WeChat through wechaty's mock puppet: a bot shows a login QR at once, whose loopback URL
  // "scans" it when fetched (bot-gateway/channels/wechat/mock-puppet.ts). Short scan and tick times
  // so a new bot is taken up, and a schedule fires, within the test's patience.
  const botGateway = await startBotGateway({
    ...base,
    WECHATY_PUPPET: "wechaty-puppet-mock",
    WECHATY_MOCK_AUTO_SCAN: "1",
    BOT_SCAN_MS: "300",
    BOT_TICK_MS: "300",
    BOT_LEASE_MS: "5000",
  });
  const stopAll = async () => {
    await Promise.all([web, web2, expiring, expired, worker, botGateway].map((p) => p.stop()));
    await db.close();
    await wechat.close();
    await upstream.close();
    await wechatPay.close();
    await kling.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await configureChatModel(web.url, upstream.base);
    await configureMediaModels(web.url, kling);
    await seedOfflineChannelInto(db.url, base.APP_SECRET, db.embedded);
  } catch (err) {
    // A setup that fails here (e.g. a database an earlier run already configured) must not leave
    // the platform's processes running against it.
    await stopAll();
    throw err;
  }
  project.provide("chatModelKey", E2E_MODEL_KEY);
  project.provide("wechatPayUrl", wechatPay.base);
  project.provide("imageModelKey", E2E_IMAGE_MODEL_KEY);
  project.provide("videoModelKey", E2E_VIDEO_MODEL_KEY);
  project.provide("webUrl", web.url);
  project.provide("webUrl2", web2.url);
  project.provide("expiringUrl", expiring.url);
  project.provide("expiredUrl", expired.url);
  project.provide("adminToken", ADMIN_TOKEN);
  project.provide("databaseUrl", db.url);
  project.provide("embeddedDb", db.embedded);
  project.provide("chromiumPath", process.env.CHROMIUM_PATH ?? "/usr/bin/chromium");
  return stopAll;
}
