// One platform for the end-to-end run: the current build, the run's database, a worker, two web
// instances (DESIGN 10: they must behave like one) and two more whose licences expire soon and
// have expired.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../../scripts/ensure-build.mjs";
import { provideTestDatabase } from "./database";
import { writeLicenceFixtures } from "./licence-fixtures";
import { startWeb, startWorker } from "./platform";
import { startFakeWechat } from "../fakes/fake-wechat";

declare module "vitest" {
  export interface ProvidedContext {
    webUrl: string;
    webUrl2: string;
    expiringUrl: string;
    expiredUrl: string;
    adminToken: string;
    chromiumPath: string;
    databaseUrl: string;
  }
}

export const ADMIN_TOKEN = "e2e-admin-token-0123456789";

export default async function setup(project: TestProject) {
  ensureBuild({ quiet: true });
  const db = await provideTestDatabase();
  const licences = writeLicenceFixtures();
  const wechat = await startFakeWechat({ appId: "wxe2e0000000000001", appSecret: "e2e-wechat-secret", user: { openid: `o_e2e_${Date.now()}`, nickname: "微信用户" } });
  const wechatEnv = { WECHAT_APP_ID: "wxe2e0000000000001", WECHAT_APP_SECRET: "e2e-wechat-secret", WECHAT_OPEN_BASE: wechat.base, WECHAT_API_BASE: wechat.base };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-e2e-"));
  const base = { ...wechatEnv, DATA_DIR: dataDir, DATABASE_URL: db.url, ZELIN_EMBEDDED_DB: db.embedded ? "1" : undefined, ADMIN_API_TOKEN: ADMIN_TOKEN, APP_SECRET: "e2e-app-secret-0123456789abcdefghijklmnop", SMS_PROVIDER: "dev", LICENCE_PUBLIC_KEY: licences.publicKeyPem, CONTACT_PHONE: "400-820-1024" };
  const [web, web2, expiring, expired] = await Promise.all([
    startWeb(base),
    startWeb(base),
    startWeb({ ...base, LICENCE_FILE: licences.files.expiring }),
    startWeb({ ...base, LICENCE_FILE: licences.files.expired }),
  ]);
  const worker = await startWorker(base);
  project.provide("webUrl", web.url);
  project.provide("webUrl2", web2.url);
  project.provide("expiringUrl", expiring.url);
  project.provide("expiredUrl", expired.url);
  project.provide("adminToken", ADMIN_TOKEN);
  project.provide("databaseUrl", db.url);
  project.provide("chromiumPath", process.env.CHROMIUM_PATH ?? "/usr/bin/chromium");
  return async () => {
    await Promise.all([web, web2, expiring, expired, worker].map((p) => p.stop()));
    await db.close();
    await wechat.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
