// Every tRPC procedure, found in the router at test time, called by Bob (another account) and by an
// anonymous visitor with Ada's ids: no answer carries Ada's data, nothing of Ada's changes, and a
// refusal is "not found", "no access" or "log in" (a write that names Ada's things in a field says
// which field), never a 500. A procedure added later fails the coverage test until it has a case
// here or an exemption with its reason.
import { describe, expect, it } from "vitest";
import { BOT_PACKAGE_YEAR_MICRO } from "../../server/bots/bot-package";
import { ZBotCreate } from "../../server/bots/bots.schema";
import { createBot } from "../../server/bots/bots.service";
import { createVideo } from "../../server/digital/videos.service";
import { OFFLINE_MODEL_KEY } from "../../server/knowledge/offline-channel";
import { appRouter } from "../../server/trpc/app-router";
import { createWorkshop } from "../../server/workshops/workshops.service";
import { validAppInput } from "../helpers/apps";
import { fundAccount } from "../helpers/money";
import { findMarker, snapshotTenant, type TTenant } from "../helpers/tenant-fixture";
import { callTrpc, useTenantHarness } from "../helpers/tenant-harness";

type TIds = TTenant["ids"];
type TBob = { id: string; agentId: string; liveAgentId: string };
/**
 * What Bob should get: `refused` not found or no access; `field` a validation refusal naming a
 * field (a write that refers to Ada's things); `own` an answer of his own that carries nothing of
 * Ada's (lists, quotas, public pages).
 */
type TCase = { input: (ids: TIds, bob: TBob) => unknown | Promise<unknown>; bob: "refused" | "field" | "own"; note?: string };

const today = new Date().toISOString().slice(0, 10);
/** A video of Bob's own, to name Ada's things in. */
const bobVideo = async (bob: TBob) => (await createVideo({ id: bob.id }, { name: "Bob video" })).id;
/** A bot of Bob's own (its package paid with coins given for it), made once, to name Ada's things in. */
let bobBotId: Promise<string> | null = null;
const bobBot = (bob: TBob) =>
  (bobBotId ??= (async () => {
    await fundAccount(bob.id, BOT_PACKAGE_YEAR_MICRO);
    const input = ZBotCreate.parse({ name: "Bob bot", agent_id: bob.liveAgentId, channel: "wechat" });
    return (await createBot({ id: bob.id, roles: [], enterpriseId: null }, input)).bot_id;
  })());
const refused = (input: TCase["input"]): TCase => ({ input, bob: "refused" });
const own = (input: TCase["input"] = () => undefined): TCase => ({ input, bob: "own" });
const field = (input: TCase["input"], note: string): TCase => ({ input, bob: "field", note });
const agentDraft = (training_set_ids: string[]) => ({
  name: "Bob 的助手",
  introduction: "Bob's agent",
  model_key: OFFLINE_MODEL_KEY,
  version: "9.0.0",
  training_set_ids,
});
const dbForm = {
  name: "Bob 库",
  introduction: "x",
  ddl: "CREATE TABLE t (id INT)",
  host: "db.example.com",
  port: 3306,
  username: "u",
  password: "p",
  database: "d",
};

/** A workshop of Bob's own whose one role is played by `agentId`. */
const bobWorkshop = async (bob: TBob) =>
  (await createWorkshop({ id: bob.id, roles: [], enterpriseId: null }, { name: "Bob ws", description: "", icon_url: "" })).id;
const workshopDraft = (agentId: string) => ({
  roles: [{ name: "Solo", type: "agent", agent_id: agentId }],
  nodes: [{ name: "Talk", speech_mode: "sequential", roles: ["Solo"], max_rounds: 2, max_cycles: 1 }],
});

const CASES: Record<string, TCase[]> = {
  "platform.systemConfig": [own()],
  "platform.screenLock": [own()],
  "platform.setScreenLock": [refused(() => ({ items: [] }))],
  "platform.adminQueue": [refused(() => undefined)],

  "agents.list": [own()],
  "agents.get": [refused((ids) => ({ id: ids.agent })), refused((ids) => ({ id: ids.draftAgent }))],
  "agents.options": [own()],
  "agents.create": [
    field((ids) => agentDraft([ids.qaSet]), "another account's training set"),
    field((ids) => agentDraft([ids.databaseSet]), "another account's database set"),
  ],
  "agents.saveDraft": [
    refused((ids) => ({ id: ids.agent, agent: agentDraft([]) })),
    field((ids, bob) => ({ id: bob.agentId, agent: agentDraft([ids.smartSet]) }), "another account's set in Bob's own agent"),
  ],
  "agents.publish": [refused((ids) => ({ id: ids.draftAgent }))],
  "agents.submit": [refused((ids) => ({ id: ids.agent }))],
  "agents.withdraw": [refused((ids) => ({ id: ids.agent }))],
  "agents.reorder": [refused((ids, bob) => ({ ids: [bob.agentId, ids.agent] }))],
  "agents.delete": [refused((ids) => ({ id: ids.agent }))],
  "agents.updateLog": [refused((ids) => ({ id: ids.agent }))],
  "agents.review.queue": [refused(() => undefined)],
  "agents.review.approve": [refused((ids) => ({ versionId: ids.version }))],
  "agents.review.reject": [refused((ids) => ({ versionId: ids.version, reason: "x" }))],
  "agents.review.takeDown": [refused((ids) => ({ versionId: ids.version, reason: "x" }))],

  "databaseSets.list": [own()],
  "databaseSets.get": [refused((ids) => ({ id: ids.databaseSet }))],
  "databaseSets.create": [own(() => ({ ...dbForm, port: 0 }))],
  "databaseSets.update": [refused((ids) => ({ ...dbForm, id: ids.databaseSet }))],
  "databaseSets.delete": [refused((ids) => ({ id: ids.databaseSet }))],
  "databaseSets.verify": [refused((ids) => ({ ...dbForm, password: "", id: ids.databaseSet }))],
  "databaseSets.reverify": [refused((ids) => ({ id: ids.databaseSet }))],

  "media.list": [own(() => ({ page: 1, pageSize: 20 }))],
  "media.get": [refused((ids) => ({ id: ids.media }))],
  "media.quota": [own()],
  "media.rename": [refused((ids) => ({ id: ids.media, name: "mine now" }))],
  "media.delete": [refused((ids) => ({ id: ids.media }))],
  "mediaJobs.models": [own(() => ({ kind: "image" })), own(() => ({ kind: "video" }))],
  // Another account's library picture as a frame is "not found" (tests/integration/media-jobs.test.ts, with a real model).
  "mediaJobs.submitImage": [refused((ids) => ({ model: "no-such-model", prompt: "mine", referenceId: ids.media }))],
  "mediaJobs.submitVideo": [refused((ids) => ({ model: "no-such-model", firstFrameId: ids.media }))],
  "mediaJobs.list": [own(() => ({ page: 1, pageSize: 20 }))],
  "mediaJobs.get": [refused((ids) => ({ id: ids.mediaJob })), refused((ids) => ({ id: ids.failedMediaJob }))],
  "mediaJobs.retry": [refused((ids) => ({ id: ids.failedMediaJob }))],
  "mediaJobs.background": [refused((ids) => ({ id: ids.mediaJob }))],
  "mediaJobs.remove": [refused((ids) => ({ id: ids.failedMediaJob }))],
  // The announcers of the platform's voice models and Bob's own channels only.
  "voices.list": [own()],
  // Personal voices: Bob's own list and packages; Ada's voice is not found on every verb.
  "digitalVoices.list": [own()],
  "digitalVoices.get": [refused((ids) => ({ id: ids.voice }))],
  "digitalVoices.rename": [refused((ids) => ({ id: ids.voice, name: "mine now" }))],
  "digitalVoices.remove": [refused((ids) => ({ id: ids.voice }))],
  "digitalVoices.retry": [refused((ids) => ({ id: ids.voice }))],
  "digitalVoices.packages": [own()],
  // Bob's balance is empty: refused for money, never with Ada's package.
  "digitalVoices.buyPackage": [own(() => ({ requestId: crypto.randomUUID() }))],
  // Figures: Bob's own list; Ada's figure is not found on every verb.
  "digitalFigures.list": [own()],
  "digitalFigures.get": [refused((ids) => ({ id: ids.figure }))],
  "digitalFigures.rename": [refused((ids) => ({ id: ids.figure, name: "mine now" }))],
  "digitalFigures.remove": [refused((ids) => ({ id: ids.figure }))],
  "digitalFigures.saveKey": [refused((ids) => ({ id: ids.figure, color: "#00ff00", similarity: 30, blend: 10 }))],
  "digitalFigures.orderTraining": [refused((ids) => ({ id: ids.figure }))],
  // The shop: Bob's page of figures for sale (Ada's is not offered); Ada's figure is not his to price, nor for sale to him.
  "digitalFigures.setSale": [refused((ids) => ({ id: ids.figure, priceMicro: 5_000_000 })), refused((ids) => ({ id: ids.figure, priceMicro: null }))],
  "digitalFigures.shop": [own(() => ({ page: 1 }))],
  "digitalFigures.buy": [refused((ids) => ({ id: ids.figure, priceMicro: 5_000_000 }))],
  // Digital-human videos: Ada's video is not found on every verb, and Bob's own video refuses Ada's voice and picture.
  "digitalVideos.list": [own()],
  "digitalVideos.get": [refused((ids) => ({ id: ids.digitalVideo }))],
  "digitalVideos.create": [own(() => ({ name: "Bob video" }))],
  "digitalVideos.update": [
    refused((ids) => ({ id: ids.digitalVideo, name: "mine now", script: "mine" })),
    refused(async (ids, bob) => ({ id: await bobVideo(bob), voice: `own:${ids.voice}` })),
    refused(async (ids, bob) => ({ id: await bobVideo(bob), backgroundItemId: ids.media })),
  ],
  "digitalVideos.remove": [refused((ids) => ({ id: ids.digitalVideo }))],
  "digitalVideos.quote": [refused((ids) => ({ id: ids.digitalVideo }))],
  "digitalVideos.render": [refused((ids) => ({ id: ids.digitalVideo }))],
  // Ada's ids are simply left out of Bob's answer.
  "digitalVideos.progress": [own((ids) => ({ ids: [ids.digitalVideo] }))],
  // Digital-human instances are administered by platform administrators only.
  "digitalInstances.list": [refused(() => ({ state: "all" }))],
  "digitalInstances.remove": [refused((ids) => ({ id: ids.app }))],
  "digitalInstances.hourPrice": [refused(() => undefined)],
  "digitalInstances.setHourPrice": [refused(() => ({ priceMicro: 0 }))],

  "market.apps": [own(() => ({}))],
  "market.agents": [own(() => ({}))],
  "market.search": [own(() => ({ q: "ADA" }))],
  "market.developerApps": [own((ids) => ({ id: ids.account }))],
  "market.comments": [refused((ids) => ({ targetType: "app", targetId: ids.app })), refused((ids) => ({ targetType: "agent", targetId: ids.agent }))],
  "market.replies": [refused((ids) => ({ parentId: ids.app }))],
  "market.follow": [own((ids) => ({ accountId: ids.account }))],
  "market.unfollow": [own((ids) => ({ accountId: ids.account }))],
  "market.react": [
    refused((ids) => ({ targetType: "app", targetId: ids.app, kind: "like" })),
    refused((ids) => ({ targetType: "agent", targetId: ids.agent, kind: "collect" })),
  ],
  // Taking back a reaction one never made changes nothing and tells nothing.
  "market.unreact": [own((ids) => ({ targetType: "app", targetId: ids.app, kind: "like" }))],
  "market.comment": [
    refused((ids) => ({ targetType: "app", targetId: ids.app, content: "hello" })),
    refused((ids) => ({ targetType: "agent", targetId: ids.agent, content: "hello" })),
  ],
  "market.deleteComment": [refused((ids) => ({ id: ids.app }))],
  "market.admin.categories": [refused(() => undefined)],
  "market.admin.createCategory": [refused(() => ({}))],
  "market.admin.updateCategory": [refused(() => ({}))],
  "market.admin.deleteCategory": [refused(() => ({}))],
  "market.admin.carousel": [refused(() => undefined)],
  "market.admin.createCarousel": [refused(() => ({}))],
  "market.admin.updateCarousel": [refused(() => ({}))],
  "market.admin.deleteCarousel": [refused(() => ({}))],

  "trainingSets.list": [own()],
  "trainingSets.get": [refused((ids) => ({ id: ids.qaSet })), refused((ids) => ({ id: ids.smartSet }))],
  "trainingSets.create": [own(() => ({ type: "standard", name: "", introduction: "" }))],
  "trainingSets.update": [refused((ids) => ({ id: ids.qaSet, name: "mine now", introduction: "x" }))],
  "trainingSets.delete": [refused((ids) => ({ id: ids.qaSet }))],
  "trainingSets.act": [refused((ids) => ({ id: ids.smartSet, action: "stop" }))],
  "trainingSets.qa.list": [refused((ids) => ({ id: ids.qaSet, page: 1, pageSize: 20 }))],
  "trainingSets.qa.add": [refused((ids) => ({ id: ids.qaSet, question: "q?", answer: "a" }))],
  "trainingSets.qa.update": [refused((ids) => ({ id: ids.qaSet, itemId: ids.qaItem, question: "q?", answer: "a" }))],
  "trainingSets.qa.delete": [refused((ids) => ({ id: ids.qaSet, itemId: ids.qaItem }))],
  "trainingSets.documents.delete": [refused((ids) => ({ id: ids.smartSet, documentId: ids.document }))],

  "appData.overview": [refused((ids) => ({ appId: ids.app, range: { from: today, to: today } }))],
  "appData.dialogues": [refused((ids) => ({ appId: ids.app }))],
  "appData.dialogue": [refused((ids) => ({ appId: ids.app, dialogueId: ids.dialogue }))],
  "appData.exports.start": [refused((ids) => ({ appId: ids.app }))],
  "appData.exports.get": [refused((ids) => ({ exportId: ids.export }))],
  "appData.exports.list": [refused((ids) => ({ appId: ids.app }))],

  "appApiKeys.get": [refused((ids) => ({ app_id: ids.apiApp }))],
  "appApiKeys.create": [refused((ids) => ({ app_id: ids.apiApp }))],
  "appApiKeys.reset": [refused((ids) => ({ app_id: ids.apiApp }))],
  "appApiKeys.revoke": [refused((ids) => ({ app_id: ids.apiApp }))],

  "workshops.list": [own()],
  "workshops.get": [refused((ids) => ({ id: ids.workshop }))],
  "workshops.create": [own(() => ({ name: "Bob ws", description: "", icon_url: "" }))],
  "workshops.update": [refused((ids) => ({ id: ids.workshop, name: "taken", description: "", icon_url: "" }))],
  "workshops.saveDefinition": [
    refused((ids, bob) => ({ id: ids.workshop, revision: 2, definition: workshopDraft(bob.liveAgentId) })),
    field(async (ids, bob) => ({ id: await bobWorkshop(bob), revision: 1, definition: workshopDraft(ids.agent) }), "another account's agent as a role"),
  ],
  "workshops.remove": [refused((ids) => ({ id: ids.workshop }))],
  "workshops.agents": [own()],
  "workshops.runs": [refused((ids) => ({ id: ids.workshop }))],
  "workshopApps.list": [own((ids) => ({ id: ids.workshop }))],
  "workshopApps.sync": [refused((ids) => ({ app_id: ids.workshopApp }))],

  "apps.list": [own(() => ({}))],
  "apps.get": [refused((ids) => ({ id: ids.app })), refused((ids) => ({ id: ids.apiApp }))],
  "apps.categories": [own()],
  "apps.create": [
    field(async (ids) => validAppInput(ids.agent), "another account's agent"),
    refused(async (ids, bob) => validAppInput(bob.liveAgentId, { type: "workshop", settings: { workshop_id: ids.workshop } })),
  ],
  "apps.update": [refused(async (ids, bob) => ({ id: ids.app, app: await validAppInput(bob.liveAgentId) }))],
  "apps.submit": [refused((ids) => ({ id: ids.app }))],
  "apps.takeDown": [refused((ids) => ({ id: ids.app }))],
  "apps.putBack": [refused((ids) => ({ id: ids.app }))],
  "apps.delete": [refused((ids) => ({ id: ids.app }))],
  "apps.restore": [refused((ids) => ({ id: ids.app }))],
  "apps.purge": [refused((ids) => ({ id: ids.app }))],
  "apps.review.queue": [refused(() => undefined)],
  "apps.review.approve": [refused((ids) => ({ id: ids.app }))],
  "apps.review.remove": [refused((ids) => ({ id: ids.app, reason: "x" }))],

  "bots.quote": [own()],
  "bots.list": [own()],
  "bots.get": [refused((ids) => ({ bot_id: ids.bot }))],
  "bots.create": [field((ids) => ({ name: "Bob bot", agent_id: ids.agent, channel: "wechat", credentials: {} }), "another account's agent")],
  "bots.update": [refused((ids) => ({ bot_id: ids.bot, name: "mine now" }))],
  "bots.delete": [refused((ids) => ({ bot_id: ids.bot }))],
  "bots.renew": [refused((ids) => ({ bot_id: ids.bot }))],
  "bots.relogin": [refused((ids) => ({ bot_id: ids.bot }))],
  "bots.schedules.list": [refused((ids) => ({ bot_id: ids.bot }))],
  "bots.schedules.save": [
    refused((ids) => ({
      bot_id: ids.bot,
      schedule_id: ids.schedule,
      content: "x",
      targets: [{ kind: "contact", id: "c1" }],
      send_at: new Date(Date.now() + 86_400_000).toISOString(),
      loop: "once",
    })),
    // Ada's library picture (a rendered video alike) in a schedule of Bob's own bot.
    refused(async (ids, bob) => ({
      bot_id: await bobBot(bob),
      content: "",
      media_item_id: ids.media,
      targets: [{ kind: "contact", id: "c1" }],
      send_at: new Date(Date.now() + 86_400_000).toISOString(),
      loop: "once",
    })),
  ],
  "bots.schedules.delete": [refused((ids) => ({ bot_id: ids.bot, schedule_id: ids.schedule }))],
  "bots.deliveries": [refused((ids) => ({ bot_id: ids.bot }))],
  "bots.targets": [refused((ids) => ({ bot_id: ids.bot }))],
  "bots.events.list": [refused((ids) => ({ bot_id: ids.bot }))],
  "bots.events.markRead": [refused((ids) => ({ bot_id: ids.bot }))],
};

/** Procedures left out, each with why. */
const EXEMPT: Record<string, string> = {};

const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: "query" | "mutation" } }> } })._def.procedures;

const h = useTenantHarness();

describe("tRPC across tenants", () => {
  it("has a case, or an exemption with a reason, for every procedure, and none for procedures that are gone", () => {
    const names = Object.keys(procedures);
    expect(
      names.filter((n) => !CASES[n] && !EXEMPT[n]),
      "procedures without a cross-tenant case",
    ).toEqual([]);
    expect(
      Object.keys({ ...CASES, ...EXEMPT }).filter((n) => !procedures[n]),
      "cases of procedures that no longer exist",
    ).toEqual([]);
  });

  const entries = Object.entries(CASES).flatMap(([path, cases]) => cases.map((c, i) => ({ path, c, i })));
  it.each(entries)("$path #$i: Bob gets nothing of Ada's, and no 500", async ({ path, c }) => {
    const type = procedures[path]._def.type;
    const input = await c.input(h.ada.ids, h.bob);
    const res = await callTrpc(h.base, h.bob.browser, path, type, input);
    expect(res.http, res.text.slice(0, 400)).toBeLessThan(500);
    expect(findMarker(res.body), `${path} answered Bob with Ada's data`).toBeNull();
    const code = res.body?.error?.json?.data?.code;
    if (c.bob === "refused") expect(["NOT_FOUND", "FORBIDDEN"], `${path}: ${res.text.slice(0, 300)}`).toContain(code);
    if (c.bob === "field") {
      expect(code, `${path} (${c.note}): ${res.text.slice(0, 300)}`).toBe("BAD_REQUEST");
      expect(res.body.error.json.data.envelope.data.fields.length).toBeGreaterThan(0);
    }
  });

  it.each(entries)("$path #$i: an anonymous visitor gets nothing of Ada's, and no 500", async ({ path, c }) => {
    const type = procedures[path]._def.type;
    const res = await callTrpc(h.base, h.anonymous, path, type, await c.input(h.ada.ids, h.bob));
    expect(res.http, res.text.slice(0, 400)).toBeLessThan(500);
    expect(findMarker(res.body), `${path} answered a visitor with Ada's data`).toBeNull();
    if (c.bob !== "own") expect(["UNAUTHORIZED", "NOT_FOUND", "FORBIDDEN"], `${path}: ${res.text.slice(0, 300)}`).toContain(res.body?.error?.json?.data?.code);
  });

  it("left every row of Ada's as it was", async () => {
    expect(await snapshotTenant(h.ada.ids.account)).toEqual(h.before);
  });
});
