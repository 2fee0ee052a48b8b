// Apps core: every validation rule refused with its message and nothing written, the
// lifecycle through the service for every move, tenancy, the edition's app count, the review queue.
import { createWorkshop, saveDefinition } from "../../server/workshops/workshops.service";
import { ZDefinition } from "../../server/workshops/workshops.schema";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import * as appsService from "../../server/apps/apps.service";
import { ZAppInput, ZListAppsInput, ZRemoveAppInput, ZUpdateAppInput } from "../../server/apps/apps.schema";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { MICRO } from "../../server/accounts/editions";
import { queryWords, toTsqueryLiteral } from "../../server/knowledge/text-segmenter";
import { createTestApp, makeAppOwner, makeLiveAgent, validAppInput } from "../helpers/apps";

type TActor = Parameters<typeof appsService.createApp>[0];
/** The service as the app form's procedures call it: the raw input parsed first, a refused parse rejecting as the service's own refusals do. */
const apps = {
  ...appsService,
  createApp: async (actor: TActor, raw: unknown) => appsService.createApp(actor, ZAppInput.parse(raw)),
  updateApp: async (actor: TActor, raw: unknown) => appsService.updateApp(actor, ZUpdateAppInput.parse(raw)),
  listApps: async (actor: TActor, raw: unknown) => appsService.listApps(actor, ZListAppsInput.parse(raw)),
  removeApp: async (actor: TActor, raw: unknown) => appsService.removeApp(actor, ZRemoveAppInput.parse(raw)),
};

async function refusal(p: Promise<unknown>, lng = "en") {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err, "expected a refusal").toBeTruthy();
  return mapError(err, lng);
}

/** A ready figure, an own voice and a library picture of the account: what a digital-human app's scene names. */
const makeFigure = async (ownerId: string) =>
  (await getDb().digitalFigure.create({ data: { ownerAccountId: ownerId, name: "Ada", state: "ready", sourceFileKey: `media/${ownerId}/figures/x.mp4` } })).id;
const makeOwnVoice = async (ownerId: string) =>
  (
    await getDb().digitalVoice.create({
      data: { ownerAccountId: ownerId, name: "Mine", sampleKind: "custom", source: "upload", sampleFileKey: "k", state: "ready" },
    })
  ).id;
const makePicture = async (ownerId: string) =>
  (
    await getDb().mediaItem.create({
      data: { ownerAccountId: ownerId, name: "bg.png", kind: "image", mime: "image/png", size: 10, fileKey: `media/${ownerId}/bg.png` },
    })
  ).id;

const countApps = (ownerId: string) => getDb().app.count({ where: { ownerAccountId: ownerId } });
const stateOf = async (id: string) => (await getDb().app.findUniqueOrThrow({ where: { id }, select: { state: true } })).state;

describe("apps: validation (every rule, same message, nothing written)", async () => {
  const owner = await makeAppOwner();
  const agentId = await makeLiveAgent(owner);
  const secondAgent = await makeLiveAgent(owner);
  const base = await validAppInput(agentId);
  const intro301 = Array.from({ length: 301 }, () => "word").join(" ");
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ["name missing", { name: "" }, "name", "An app name is required and has fewer than 30 characters"],
    ["name of 30 characters", { name: "x".repeat(30) }, "name", "An app name is required and has fewer than 30 characters"],
    ["icon missing", { icon_url: "" }, "icon_url", "Upload an app icon"],
    ["icon not an upload", { icon_url: "javascript:alert(1)" }, "icon_url", "Upload a picture"],
    ["introduction missing", { introduction: " " }, "introduction", "An introduction is required"],
    ["introduction of 301 Latin words", { introduction: intro301 }, "introduction", "An introduction has at most 300 words"],
    ["introduction of 301 Chinese characters", { introduction: "字".repeat(301) }, "introduction", "An introduction has at most 300 words"],
    ["English introduction of 301 words", { introduction_en: intro301 }, "introduction_en", "An introduction has at most 300 words"],
    ["category missing", { category_id: undefined }, "category_id", "Choose a category"],
    ["category unknown", { category_id: 987654321 }, "category_id", "Choose a category from the list"],
    ["no keywords", { tags: [] }, "tags", "Enter at least one keyword"],
    ["no agent", { agent_ids: [] }, "agent_ids", "Choose an agent"],
    ["two agents for an H5 app", { agent_ids: [agentId, secondAgent] }, "agent_ids", "This type of app runs exactly one agent"],
    ["someone else's agent", { agent_ids: ["not-an-agent-of-mine"] }, "agent_ids", "Choose your own agent that has a published version"],
    ["bad style", { style: "poem" }, "style", "Choose a style"],
    [
      "menu title of 13 characters",
      { menu_items: [{ title: "x".repeat(13), reply_type: "text", content: "hi" }] },
      "menu_items.0.title",
      "A menu title has 1 to 12 characters",
    ],
    ["menu reply type unknown", { menu_items: [{ title: "Site", reply_type: "video", content: "hi" }] }, "menu_items.0.reply_type", "Choose a reply type"],
    [
      "menu link without http",
      { menu_items: [{ title: "Site", reply_type: "link", content: "ftp://example.com" }] },
      "menu_items.0.content",
      "A link must start with http:// or https://",
    ],
    ["menu content missing", { menu_items: [{ title: "Site", reply_type: "text", content: "" }] }, "menu_items.0.content", "Enter the reply content"],
    ["no input mode", { input_modes: [] }, "input_modes", "Choose at least one input mode"],
    ["unknown input mode", { input_modes: ["smell"] }, "input_modes.0", "Choose at least one input mode"],
    ["unknown output mode", { output_modes: ["smell"] }, "output_modes.0", "Choose output modes from the list"],
    ["speaker not in the voice list", { speaker: "Robot Bob" }, "speaker", "Choose an announcer from the list"],
    ["background not an upload", { background_url: "data:image/png;base64,xx" }, "background_url", "Upload a picture"],
    [
      "background from another account's library",
      { background_url: "/files/media/someone-else/generated/a.png" },
      "background_url",
      "Use a picture from your own library",
    ],
    ["icon from another account's library", { icon_url: "/files/media/someone-else/a.png" }, "icon_url", "Use a picture from your own library"],
    [
      "background climbing out of the owner's library",
      { background_url: `/files/media/${owner.id}/../someone-else/a.png` },
      "background_url",
      "Upload a picture",
    ],
    [
      "menu picture from another account's library",
      { menu_items: [{ title: "Menu", reply_type: "picture_text", content: "hi", image_url: "/files/media/someone-else/a.png" }] },
      "menu_items.0.image_url",
      "Use a picture from your own library",
    ],
    ["sub-account mode on flagship", { mode: "sub_account" }, "mode", "Sub-account mode is only for the enterprise and education editions"],
    ["six plans", { plans: Array.from({ length: 6 }, () => ({ kind: "days", quantity: 30, price_micro: MICRO })) }, "plans", "At most 5 paid plans"],
    ["plan kind unknown", { plans: [{ kind: "weeks", quantity: 1, price_micro: MICRO }] }, "plans.0.kind", "Choose by days or by count"],
    ["plan quantity 0", { plans: [{ kind: "days", quantity: 0, price_micro: MICRO }] }, "plans.0.quantity", "Days or uses are a whole number of at least 1"],
    [
      "plan quantity 1.5",
      { plans: [{ kind: "days", quantity: 1.5, price_micro: MICRO }] },
      "plans.0.quantity",
      "Days or uses are a whole number of at least 1",
    ],
    ["plan price 0.09 Z", { plans: [{ kind: "days", quantity: 30, price_micro: 90_000 }] }, "plans.0.price_micro", "A price is at least 0.1 Z"],
    [
      "per-count plan with unlimited daily use",
      { plans: [{ kind: "count", quantity: 100, price_micro: MICRO, daily_limit: null }] },
      "plans.0.daily_limit",
      "A per-count plan cannot allow unlimited daily use",
    ],
    ["trial days -1", { trial_days: -1 }, "trial_days", "The trial period cannot be below 0 days"],
    ["free per day -1", { free_per_day: -1 }, "free_per_day", "The free count per day cannot be below 0"],
    ["share ratio 9", { share_ratio: 9 }, "share_ratio", "The distribution share is a whole number from 10% to 70%"],
    ["share ratio 71", { share_ratio: 71 }, "share_ratio", "The distribution share is a whole number from 10% to 70%"],
    ["share ratio 10.5", { share_ratio: 10.5 }, "share_ratio", "The distribution share is a whole number from 10% to 70%"],
    [
      "input content without variables",
      { input_content: { enabled: true, variables: [] } },
      "input_content.variables",
      "The input-content function needs variables",
    ],
    [
      "input content with no required variable",
      { input_content: { enabled: true, variables: [{ name: "city", type: "fill", required: false }] } },
      "input_content.variables",
      "At least one variable must be required",
    ],
    [
      "input content variable with a bad name",
      { input_content: { enabled: true, variables: [{ name: "a b", type: "fill", required: true }] } },
      "input_content.variables.0.name",
      "A variable name has 1 to 20 letters, digits or underscores",
    ],
    ["bot without a channel", { type: "bot", settings: { greeting: "hi" } }, "settings.channel", "Choose the bot's channel"],
    ["digital human on its side", { type: "digital_human", settings: { orientation: "diagonal" } }, "settings.orientation", "Choose horizontal or vertical"],
  ];
  for (const [what, over, path, message] of cases) {
    it(`refuses ${what}`, async () => {
      const before = await countApps(owner.id);
      const m = await refusal(apps.createApp(owner, { ...base, ...over }));
      expect(m.code).toBe("validation_failed");
      expect((m.envelope.data as { fields: Array<{ path: string; message: string }> }).fields).toContainEqual({ path, message });
      expect(await countApps(owner.id)).toBe(before);
    });
  }

  it("the same message in Chinese", async () => {
    const m = await refusal(apps.createApp(owner, { ...base, share_ratio: 80 }), "zh_hans");
    expect(m.envelope.description).toBe("分销比例为10%到70%的整数");
  });

  it("accepts the edges: 29 characters, 300 words, 12-character menu title, a listed announcer, 5 plans, ratio 10 and 70, price 0.1 Z", async () => {
    const app = await apps.createApp(owner, {
      ...base,
      name: "名".repeat(29),
      introduction: "字".repeat(150) + " " + Array.from({ length: 150 }, () => "w").join(" "),
      menu_items: [{ title: "x".repeat(12), reply_type: "link", content: "https://example.com" }],
      speaker: "longxiaochun",
      plans: [
        ...Array.from({ length: 4 }, () => ({ kind: "days", quantity: 30, price_micro: MICRO / 10 })),
        { kind: "count", quantity: 10, price_micro: MICRO, daily_limit: 5 },
      ],
      share_ratio: 70,
      input_content: { enabled: true, variables: [{ name: "city", type: "fill", required: true }] },
    });
    expect(app.state).toBe("under_review");
    expect(app.input.plans).toHaveLength(5);
    expect(app.input.plans[4]).toEqual({ kind: "count", quantity: 10, price_micro: MICRO, daily_limit: 5 });
    const plan = await getDb().appPlan.findFirstOrThrow({ where: { appId: app.id, sortOrder: 4 } });
    expect(plan.priceMicro).toBe(BigInt(MICRO));
  });

  it("enterprise editions may make sub-account apps; type settings are kept with their defaults", async () => {
    const ent = await makeAppOwner({ edition: "enterprise" });
    const entAgent = await makeLiveAgent(ent);
    const sub = await apps.createApp(ent, await validAppInput(entAgent, { mode: "sub_account" }));
    expect(sub.input.mode).toBe("sub_account");
    const bot = await apps.createApp(ent, await validAppInput(entAgent, { type: "bot", settings: { channel: "feishu" } }));
    expect(bot.input.settings).toEqual({ channel: "feishu", greeting: "" });
    const figureId = await makeFigure(ent.id);
    const dh = await apps.createApp(ent, await validAppInput(entAgent, { type: "digital_human", settings: { figure_id: figureId } }));
    expect(dh.input.settings).toEqual({
      figure_id: figureId,
      voice_id: "",
      orientation: "vertical",
      placement: { x: 0.5, y: 0.55, scale: 0.9 },
      background_color: "#ffffff",
    });
    const second = await makeLiveAgent(ent);
    const workshop = await createWorkshop(ent, { name: "Panel", description: "", icon_url: "" });
    await saveDefinition(ent, {
      id: workshop.id,
      revision: 1,
      definition: ZDefinition.parse({
        roles: [
          { name: "Host", type: "agent", agent_id: entAgent },
          { name: "Guest", type: "agent", agent_id: second },
        ],
        nodes: [{ name: "Talk", speech_mode: "sequential", roles: ["Host", "Guest"], max_rounds: 4, max_cycles: 2 }],
      }),
    });
    // The form names the workshop only: the server pins its version and lists its agents.
    const ws = await apps.createApp(
      ent,
      await validAppInput(entAgent, { type: "workshop", agent_ids: [], settings: { workshop_id: workshop.id, version_id: "forged" } }),
    );
    expect(ws.agent_ids.sort()).toEqual([entAgent, second].sort());
    expect(ws.input.settings.workshop_id).toBe(workshop.id);
    expect(ws.input.settings.version_id).not.toBe("forged");
  });

  it("accepts a picture from the owner's own library as background and icon, and keeps it", async () => {
    const own = `/files/media/${owner.id}/generated/lq3x9abcdefgh.png`;
    const app = await apps.createApp(owner, { ...base, background_url: own, icon_url: own });
    expect(app.input.background_url).toBe(own);
    expect(app.input.icon_url).toBe(own);
    const edited = await apps.updateApp(owner, { id: app.id, app: { ...base, background_url: `/files/media/${owner.id}/other.jpg` } });
    expect(edited.input.background_url).toBe(`/files/media/${owner.id}/other.jpg`);
    const m = await refusal(apps.updateApp(owner, { id: app.id, app: { ...base, background_url: "/files/media/someone-else/x.png" } }));
    expect((m.envelope.data as { fields: Array<{ path: string }> }).fields[0].path).toBe("background_url");
    expect((await apps.getApp(owner, { id: app.id })).input.background_url).toBe(`/files/media/${owner.id}/other.jpg`);
  });

  it("an agent without a live version is refused", async () => {
    const draftOnly = (await import("../../server/agents/agents.service")).createAgent(
      owner,
      ZAgentInput.parse({ name: "草稿", introduction: "draft", model_key: "zelin-offline" }),
    );
    const m = await refusal(apps.createApp(owner, { ...base, agent_ids: [(await draftOnly).id] }));
    expect((m.envelope.data as { fields: Array<{ path: string }> }).fields[0].path).toBe("agent_ids");
  });

  it("search lexemes are written on create and on update (name, tags, introduction)", async () => {
    const app = await apps.createApp(owner, { ...base, name: "旅行规划师", tags: ["travel"], introduction: "帮你规划 itinerary" });
    const hit = async (q: string) =>
      (
        await getDb().$queryRaw<
          Array<{ n: number }>
        >`SELECT count(*)::int AS n FROM app WHERE id = ${app.id} AND search_lexemes @@ ${toTsqueryLiteral(queryWords(q))}::tsquery`
      )[0].n;
    expect(await hit("travel")).toBe(1);
    expect(await hit("旅行")).toBe(1);
    await apps.updateApp(owner, { id: app.id, app: { ...app.input, tags: ["voyage"] } });
    expect(await hit("travel")).toBe(0);
    expect(await hit("voyage")).toBe(1);
  });
});

describe("apps: lifecycle through the service", () => {
  it("created under review; approve, take down, put back, approve, edit while listed goes back to review, remove with a reason, resubmit", async () => {
    const admin = await makeAppOwner({ roles: ["platform_admin"] });
    const { appId, owner } = await createTestApp({ state: "under_review" });
    expect(await stateOf(appId)).toBe("under_review");
    expect((await apps.listReviewQueue(admin)).map((a) => a.id)).toContain(appId);
    await apps.approveApp(admin, { id: appId });
    expect(await stateOf(appId)).toBe("on_shelf");
    expect((await apps.listReviewQueue(admin)).map((a) => a.id)).not.toContain(appId);
    await apps.takeDownApp(owner, { id: appId });
    expect(await stateOf(appId)).toBe("off_shelf");
    expect((await refusal(apps.takeDownApp(owner, { id: appId }))).code).toBe("repeat_action");
    await apps.putBackApp(owner, { id: appId });
    expect(await stateOf(appId)).toBe("under_review");
    await apps.approveApp(admin, { id: appId });
    const listed = await apps.getApp(owner, { id: appId });
    await apps.updateApp(owner, { id: appId, app: { ...listed.input, name: "改过的名字" } });
    expect(await stateOf(appId)).toBe("under_review");
    expect((await refusal(apps.removeApp(admin, { id: appId, reason: " " }))).code).toBe("validation_failed");
    await apps.removeApp(admin, { id: appId, reason: "Copies another app" });
    const removed = await apps.getApp(owner, { id: appId });
    expect(removed).toMatchObject({ state: "removed", removed_reason: "Copies another app" });
    expect((await apps.listApps(owner, { state: "removed" })).map((a) => a.removed_reason)).toContain("Copies another app");
    await apps.submitApp(owner, { id: appId });
    expect(await apps.getApp(owner, { id: appId })).toMatchObject({ state: "under_review", removed_reason: null });
  });

  it("forbidden moves are refused and change nothing", async () => {
    const admin = await makeAppOwner({ roles: ["platform_admin"] });
    const { appId, owner } = await createTestApp({ state: "under_review" });
    for (const verb of [apps.takeDownApp, apps.putBackApp, apps.submitApp])
      expect(["app_state_refused", "repeat_action"]).toContain((await refusal(verb(owner, { id: appId }))).code);
    await apps.approveApp(admin, { id: appId });
    expect((await refusal(apps.approveApp(admin, { id: appId }))).code).toBe("repeat_action");
    expect((await refusal(apps.submitApp(owner, { id: appId }))).code).toBe("app_state_refused");
    expect((await refusal(apps.putBackApp(owner, { id: appId }))).code).toBe("app_state_refused");
    const off = await createTestApp({ owner, state: "off_shelf" });
    expect((await refusal(apps.approveApp(admin, { id: off.appId }))).code).toBe("app_state_refused");
    expect((await refusal(apps.removeApp(admin, { id: off.appId, reason: "x" }))).code).toBe("app_state_refused");
    expect(await stateOf(off.appId)).toBe("off_shelf");
    const m = await refusal(apps.takeDownApp(owner, { id: (await createTestApp({ owner, state: "removed" })).appId }));
    expect(m.envelope.description).toBe('An app that is "Removed" cannot become "Off shelf"');
  });

  it("only administrators review", async () => {
    const { appId, owner } = await createTestApp({ state: "under_review" });
    expect((await refusal(apps.approveApp(owner, { id: appId }))).code).toBe("no_permission");
    expect((await refusal(apps.removeApp(owner, { id: appId, reason: "x" }))).code).toBe("no_permission");
    expect((await refusal(apps.listReviewQueue(owner))).code).toBe("no_permission");
    expect(await stateOf(appId)).toBe("under_review");
  });

  it("delete to the recycle bin takes a listed app down; restore; delete for good only from the bin", async () => {
    const { appId, owner } = await createTestApp();
    expect((await refusal(apps.purgeApp(owner, { id: appId }))).code).toBe("not_found");
    await apps.deleteApp(owner, { id: appId });
    expect(await stateOf(appId)).toBe("off_shelf");
    expect((await apps.listApps(owner, {})).map((a) => a.id)).not.toContain(appId);
    expect((await apps.listApps(owner, { deleted: true })).map((a) => a.id)).toContain(appId);
    expect((await refusal(apps.getApp(owner, { id: appId }))).code).toBe("not_found");
    expect((await refusal(apps.takeDownApp(owner, { id: appId }))).code).toBe("not_found");
    await apps.restoreApp(owner, { id: appId });
    expect((await apps.listApps(owner, {})).map((a) => a.id)).toContain(appId);
    await apps.deleteApp(owner, { id: appId });
    await apps.purgeApp(owner, { id: appId });
    expect(await getDb().app.findUnique({ where: { id: appId } })).toBeNull();
    expect(await getDb().appAgent.count({ where: { appId } })).toBe(0);
  });
});

describe("apps: tenancy and the edition's app count", () => {
  it("another account's app answers not_found on every verb and is unchanged", async () => {
    const { appId, owner } = await createTestApp();
    const stranger = await makeAppOwner();
    const input = (await apps.getApp(owner, { id: appId })).input;
    const verbs = [
      () => apps.getApp(stranger, { id: appId }),
      () => apps.updateApp(stranger, { id: appId, app: { ...input, name: "mine now" } }),
      () => apps.submitApp(stranger, { id: appId }),
      () => apps.takeDownApp(stranger, { id: appId }),
      () => apps.putBackApp(stranger, { id: appId }),
      () => apps.deleteApp(stranger, { id: appId }),
      () => apps.restoreApp(stranger, { id: appId }),
      () => apps.purgeApp(stranger, { id: appId }),
    ];
    for (const verb of verbs) expect((await refusal(verb())).code).toBe("not_found");
    expect((await apps.listApps(stranger, {})).map((a) => a.id)).not.toContain(appId);
    expect((await apps.listApps(stranger, { deleted: true })).map((a) => a.id)).not.toContain(appId);
    const row = await getDb().app.findUniqueOrThrow({ where: { id: appId } });
    expect(row).toMatchObject({ state: "on_shelf", deletedAt: null });
    expect(row.name).toBe(input.name);
  });

  it("a digital-human app names only the owner's own figure, voice and background: another account's are not_found and nothing changes", async () => {
    const owner = await makeAppOwner();
    const stranger = await makeAppOwner();
    const agentId = await makeLiveAgent(owner);
    const mine = { figure_id: await makeFigure(owner.id), voice_id: `own:${await makeOwnVoice(owner.id)}`, background_item_id: await makePicture(owner.id) };
    const theirs = {
      figure_id: await makeFigure(stranger.id),
      voice_id: `own:${await makeOwnVoice(stranger.id)}`,
      background_item_id: await makePicture(stranger.id),
    };
    const scene = { orientation: "horizontal", placement: { x: 0.3, y: 0.6, scale: 1.2 }, background_color: "#102030" };
    const app = await apps.createApp(owner, await validAppInput(agentId, { type: "digital_human", settings: { ...mine, ...scene } }));
    expect(app.input.settings).toEqual({ ...mine, ...scene });
    const before = await countApps(owner.id);
    for (const key of ["figure_id", "voice_id", "background_item_id"] as const) {
      const settings = { ...mine, ...scene, [key]: theirs[key] };
      expect((await refusal(apps.createApp(owner, await validAppInput(agentId, { type: "digital_human", settings })))).code, key).toBe("not_found");
      expect((await refusal(apps.updateApp(owner, { id: app.id, app: { ...app.input, settings } }))).code, key).toBe("not_found");
    }
    expect((await refusal(apps.updateApp(owner, { id: app.id, app: { ...app.input, settings: { ...mine, figure_id: "no-such-figure" } } }))).code).toBe(
      "not_found",
    );
    expect(await countApps(owner.id)).toBe(before);
    expect((await apps.getApp(owner, { id: app.id })).input.settings).toEqual({ ...mine, ...scene });
    const m = await refusal(apps.updateApp(owner, { id: app.id, app: { ...app.input, settings: { ...mine, voice_id: "nobody" } } }));
    expect((m.envelope.data as { fields: Array<{ path: string }> }).fields[0].path).toBe("app.settings.voice_id");
  });

  it("basic edition: one app; the second is refused and nothing is written, concurrent creations too", async () => {
    const basic = await makeAppOwner({ edition: "basic" });
    const agentId = await makeLiveAgent(basic);
    const input = await validAppInput(agentId);
    const results = await Promise.allSettled([apps.createApp(basic, input), apps.createApp(basic, input), apps.createApp(basic, input)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(mapError(refused.reason, "en").code).toBe("edition_upgrade_required");
    expect(await countApps(basic.id)).toBe(1);
  });

  it("an app in the recycle bin still counts until deleted for good", async () => {
    const basic = await makeAppOwner({ edition: "basic" });
    const agentId = await makeLiveAgent(basic);
    const first = await apps.createApp(basic, await validAppInput(agentId));
    await apps.deleteApp(basic, { id: first.id });
    expect((await refusal(apps.createApp(basic, await validAppInput(agentId)))).code).toBe("edition_upgrade_required");
    await apps.purgeApp(basic, { id: first.id });
    expect((await apps.createApp(basic, await validAppInput(agentId))).state).toBe("under_review");
  });
});
