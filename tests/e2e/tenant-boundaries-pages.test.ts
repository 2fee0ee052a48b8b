// Every page of the route table opened on the running platform by Bob (another account) and by an
// anonymous visitor with each of Ada's ids in every query name a page reads: no page answers 500,
// none shows Ada's data. A page added to the table is opened without doing anything here. (A /mobi
// page runs its desktop page's loader: opening one of the pair covers both.)
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROUTE_TABLE } from "../../app/route-table";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { startFakeOpenai } from "../fakes/fake-openai";
import { findMarker, seedTenant, type TTenant } from "../helpers/tenant-fixture";

const baseURL = inject("webUrl");
let fake: Awaited<ReturnType<typeof startFakeOpenai>>;
let ada: TTenant;
let bobCookie = "";

/** The query names pages read ids from. */
const ID_PARAMS = [
  "id",
  "agent_id",
  "app_id",
  "bot_id",
  "dialogue_id",
  "set_id",
  "training_set_id",
  "export_id",
  "order_id",
  "appId",
  "botId",
  "touser",
  "app",
  "run",
];

beforeAll(async () => {
  fake = await startFakeOpenai();
  ada = await seedTenant({ fake, api: { base: baseURL } });
  // An app waiting for review opens by its own link under the "listing" policy (the embedded
  // install's default), as it should: Ada's apps are ones an administrator removed and she sent
  // back for review, which stay closed to others under either policy.
  await getDb().app.updateMany({ where: { id: { in: [ada.ids.app, ada.ids.apiApp, ada.ids.workshopApp] } }, data: { removedAt: new Date() } });
  const bob = await getDb().account.create({
    data: { account: `pages${crypto.randomBytes(4).toString("hex")}`, nickname: "Bob", edition: "flagship", language: "en" },
    select: { id: true },
  });
  bobCookie = `zl_session=${(await startSession(bob.id)).token}; lang=en`;
}, 180_000);
afterAll(async () => {
  await ada?.drop();
  await fake?.close();
});

const pages = ROUTE_TABLE.map((r) => r.path).filter((p) => !p.includes(":"));

async function open(path: string, cookie: string) {
  const res = await fetch(`${baseURL}${path}`, { headers: { cookie }, redirect: "manual" });
  return { status: res.status, text: await res.text() };
}

describe("pages across tenants", () => {
  it("lists the pages of the route table", () => {
    expect(pages.length).toBeGreaterThan(60);
  });

  for (const [who, cookie] of [
    ["Bob", () => bobCookie],
    ["a visitor", () => "lang=en"],
  ] as const) {
    it(`opened by ${who} with each of Ada's ids, and with none, no page answers 500 or shows Ada's data`, async () => {
      const {
        account,
        agent,
        draftAgent,
        app,
        apiApp,
        bot,
        qaSet,
        smartSet,
        databaseSet,
        dialogue,
        export: exportId,
        order,
        withdrawal,
        media,
        channel,
        workshop,
        workshopRun,
        workshopApp,
      } = ada.ids;
      const ids = [
        account,
        agent,
        draftAgent,
        app,
        apiApp,
        bot,
        qaSet,
        smartSet,
        databaseSet,
        dialogue,
        exportId,
        order,
        withdrawal,
        media,
        channel,
        workshop,
        workshopRun,
        workshopApp,
      ];
      const failures: string[] = [];
      for (const path of pages) {
        const queries = ["", ...ids.map((id) => `?${ID_PARAMS.map((p) => `${p}=${id}`).join("&")}`)];
        for (const query of queries) {
          const res = await open(`${path}${query}`, cookie());
          if (res.status >= 500) failures.push(`${path}${query.slice(0, 60)}: ${res.status}`);
          const leak = findMarker(res.text);
          if (leak) failures.push(`${path}${query.slice(0, 60)}: shows ${leak}`);
        }
      }
      expect(failures).toEqual([]);
    }, 600_000);
  }
});
