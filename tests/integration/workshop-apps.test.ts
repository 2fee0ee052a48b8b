// Workshop apps over HTTP, as their consumers and developers use them: a visitor runs the app's
// pinned version and speaks as the person's role, follows it live on the events stream, and is
// held to the app's free count; another visitor sees nothing of it; the owner's edits wait for a
// sync by hand; the app's API key starts and follows runs; an owner who cannot pay gives no run.
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../server/apps/api-keys.service";
import { listWorkshopApps, syncWorkshopApp } from "../../server/apps/workshop-apps.service";
import { getDb } from "../../server/db/client";
import { readSseEvents, type TSseEvent } from "../../server/turns/sinks/sse-sink";
import { saveDefinition } from "../../server/workshops/workshops.service";
import { ZDefinition, type TDefinitionInput } from "../../server/workshops/workshops.schema";
import { Browser } from "../helpers/api-client";
import { createTestApp } from "../helpers/apps";
import { makeUser, useChatHarness, type TUser } from "../helpers/chat-runtime";
import { carryToRest, makeRoleAgent, makeWorkshopOf, runRow } from "../helpers/workshops";

const h = useChatHarness();
let ip = 0;
const visitor = () => new Browser(h.api.base, `10.77.0.${++ip}`);

async function workshopApp(owner: TUser, opts: { freePerDay?: number } = {}) {
  const mentor = await makeRoleAgent(h, owner, () => "Mentor explains.");
  const definition: TDefinitionInput = {
    roles: [
      { name: "Mentor", type: "agent", agent_id: mentor.agentId },
      { name: "Me", type: "user" },
    ],
    nodes: [{ name: "Lesson", speech_mode: "sequential", roles: ["Mentor", "Me"], max_rounds: 3, max_cycles: 2 }],
  };
  const ws = await makeWorkshopOf(owner, definition);
  const { appId } = await createTestApp({
    owner: owner.actor,
    agentId: mentor.agentId,
    input: { type: "workshop", agent_ids: [], settings: { workshop_id: ws }, free_per_day: opts.freePerDay ?? 5 },
  });
  return { ws, appId, mentor, definition };
}

describe("a workshop app's consumer", () => {
  it("runs it as a visitor, speaks when asked, and only they can see the run", async () => {
    const owner = await makeUser(h.api.base);
    const { appId } = await workshopApp(owner);
    const v = visitor();
    const started = await v.call("/api/v2/app/workshop/runs", { body: { app_id: appId, topic: "Teach me fractions" } });
    expect(started.body.status).toBe(200);
    const runId = started.body.data.id as string;
    expect(await carryToRest(runId)).toBe("waiting");
    const view = await v.call(`/api/v2/app/workshop/runs/${runId}`);
    expect(view.body.data).toMatchObject({ status: "waiting_user", waitingFor: "Me" });
    expect(view.body.data.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ["Me", "Teach me fractions"],
      ["Mentor", "Mentor explains."],
    ]);
    const stranger = visitor();
    for (const path of [`/api/v2/app/workshop/runs/${runId}`, `/api/v2/app/workshop/runs/${runId}/events`])
      expect((await stranger.call(path)).body.status).toBe(404001);
    expect((await stranger.call(`/api/v2/app/workshop/runs/${runId}/messages`, { body: { content: "hijack" } })).body.status).toBe(404001);
    // The developer's console does not open a consumer's run either.
    expect((await owner.browser.call(`/api/v1/workshop/runs/${runId}`)).body.status).toBe(404001);

    const refused = await v.call(`/api/v2/app/workshop/runs/${runId}/messages`, { body: { content: "" } });
    expect(refused.body.status).toBe(400001);
    const posted = await v.call(`/api/v2/app/workshop/runs/${runId}/messages`, { body: { content: "Is 1/2 bigger than 1/3?" } });
    expect(posted.body.data.status).toBe("running");
    await carryToRest(runId);
    expect(await runRow(runId)).toMatchObject({ status: "ended", endReason: "rounds" });
    const listed = await v.call(`/api/v2/app/workshop/runs?app_id=${appId}`);
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([runId]);
    expect((await stranger.call(`/api/v2/app/workshop/runs?app_id=${appId}`)).body.data).toEqual([]);
  });

  it("follows the run live on the events stream until it closes", async () => {
    const owner = await makeUser(h.api.base);
    const { appId } = await workshopApp(owner);
    const v = visitor();
    const runId = (await v.call("/api/v2/app/workshop/runs", { body: { app_id: appId, topic: "Stream it" } })).body.data.id as string;
    const res = await fetch(`${h.api.base}/api/v2/app/workshop/runs/${runId}/events`, { headers: { cookie: `zl_visitor=${v.cookies.get("zl_visitor")}` } });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events: TSseEvent[] = [];
    const reading = (async () => {
      for await (const e of readSseEvents(res.body!)) events.push(e);
    })();
    await carryToRest(runId);
    // The stream reads the run every few hundred milliseconds: the person's turn reaches it before the stop.
    for (let i = 0; i < 50 && !events.some((e) => e.event === "status" && (e.data as { status: string }).status === "waiting_user"); i++)
      await new Promise((r) => setTimeout(r, 100));
    await v.call(`/api/v2/app/workshop/runs/${runId}/stop`, { body: {} });
    await reading;
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("status");
    expect(names).toContain("message");
    expect(names[names.length - 1]).toBe("close");
    const statuses = events.filter((e) => e.event === "status").map((e) => (e.data as { status: string }).status);
    expect(statuses).toContain("waiting_user");
    expect(statuses[statuses.length - 1]).toBe("ended");
    expect(events.some((e) => e.event === "message" && (e.data as { content: string }).content === "Mentor explains.")).toBe(true);
  });

  it("is held to the app's free count: a run is one use, and a refused start leaves no run", async () => {
    const owner = await makeUser(h.api.base);
    const { appId } = await workshopApp(owner, { freePerDay: 1 });
    const v = visitor();
    expect((await v.call("/api/v2/app/workshop/runs", { body: { app_id: appId, topic: "first" } })).body.status).toBe(200);
    const before = await getDb().workshopRun.count({ where: { appId } });
    const second = await v.call("/api/v2/app/workshop/runs", { body: { app_id: appId, topic: "second" } });
    expect(second.body.status).not.toBe(200);
    expect(second.body.description).toBeTruthy();
    expect(await getDb().workshopRun.count({ where: { appId } })).toBe(before);
    // Another visitor has a free use of their own.
    expect((await visitor().call("/api/v2/app/workshop/runs", { body: { app_id: appId, topic: "mine" } })).body.status).toBe(200);
  });

  it("an owner who cannot pay the run turns the consumer away, and the use is given back", async () => {
    const owner = await makeUser(h.api.base, { funded: false });
    const { appId } = await workshopApp(owner);
    const v = visitor();
    const uses = await getDb().appUse.count({ where: { appId } });
    const refused = await v.call("/api/v2/app/workshop/runs", { body: { app_id: appId, topic: "anyone?" } });
    expect(refused.body.status).toBe(420811);
    expect(await getDb().appUse.count({ where: { appId } })).toBe(uses);
    expect(await getDb().workshopRun.count({ where: { appId } })).toBe(0);
  });

  it("is not an agent chat: the app's chat stream refuses it", async () => {
    const owner = await makeUser(h.api.base);
    const { appId } = await workshopApp(owner);
    const v = visitor();
    const res = await v.call("/api/v2/app/dialogues?app_id=" + appId);
    expect(res.http).toBeLessThan(500);
    const chat = await fetch(`${h.api.base}/api/v2/app/send_message/sse`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": "test-csrf-token", cookie: "zl_csrf=test-csrf-token" },
      body: JSON.stringify({ app_id: appId, content: "hello" }),
    });
    const text = await chat.text();
    expect(text).toContain("404001");
  });
});

describe("publishing and syncing by hand", () => {
  it("keeps the app on its version until the owner syncs, after seeing what changed", async () => {
    const owner = await makeUser(h.api.base);
    const { ws, appId, mentor, definition } = await workshopApp(owner);
    const [before] = await listWorkshopApps(owner.actor, ws);
    expect(before).toMatchObject({ appId, versionNumber: 1, inSync: true });
    // Saving the draft unchanged is no edit: the revision stays and the app stays in sync.
    expect(await saveDefinition(owner.actor, { id: ws, revision: 2, definition: ZDefinition.parse(definition) })).toEqual({ revision: 2 });
    expect((await listWorkshopApps(owner.actor, ws))[0]).toMatchObject({ inSync: true });

    const critic = await makeRoleAgent(h, owner, () => "Critic objects.");
    const edited = ZDefinition.parse({
      ...definition,
      roles: [...definition.roles, { name: "Critic", type: "agent", agent_id: critic.agentId }],
      nodes: [{ ...definition.nodes[0], roles: ["Mentor", "Critic", "Me"] }],
    });
    // An edit undone leaves the app in sync again, though the revision moved on twice.
    const limitsEdited = ZDefinition.parse({ ...definition, limits: { ...definition.limits, max_turns: 7 } });
    expect(await saveDefinition(owner.actor, { id: ws, revision: 2, definition: limitsEdited })).toEqual({ revision: 3 });
    expect((await listWorkshopApps(owner.actor, ws))[0]).toMatchObject({ inSync: false, changes: { limits: true } });
    expect(await saveDefinition(owner.actor, { id: ws, revision: 3, definition: ZDefinition.parse(definition) })).toEqual({ revision: 4 });
    expect((await listWorkshopApps(owner.actor, ws))[0]).toMatchObject({ inSync: true, changes: { limits: false } });

    await saveDefinition(owner.actor, { id: ws, revision: 4, definition: edited });
    const [changed] = await listWorkshopApps(owner.actor, ws);
    expect(changed).toMatchObject({
      versionNumber: 1,
      inSync: false,
      changes: { roles: { added: ["Critic"], removed: [], changed: [] }, nodes: { changed: ["Lesson"] } },
    });

    const v = visitor();
    const oldRun = (await v.call("/api/v2/app/workshop/runs", { body: { app_id: appId, topic: "before sync" } })).body.data.id as string;
    expect(((await runRow(oldRun)).definition as { roles: unknown[] }).roles).toHaveLength(2);

    expect(await syncWorkshopApp(owner.actor, appId)).toEqual({ appId, versionNumber: 2 });
    const [synced] = await listWorkshopApps(owner.actor, ws);
    expect(synced).toMatchObject({ versionNumber: 2, inSync: true });
    const newRun = (await v.call("/api/v2/app/workshop/runs", { body: { app_id: appId, topic: "after sync" } })).body.data.id as string;
    expect(((await runRow(newRun)).definition as { roles: unknown[] }).roles).toHaveLength(3);
    const agents = await getDb().appAgent.findMany({ where: { appId }, select: { agentId: true } });
    expect(agents.map((a) => a.agentId).sort()).toEqual([mentor.agentId, critic.agentId].sort());
  });

  it("lets the app's API key start and follow runs of its own app only", async () => {
    const owner = await makeUser(h.api.base);
    const { appId } = await workshopApp(owner);
    const other = await workshopApp(owner);
    const key = await createApiKey(owner.actor, { app_id: appId });
    const api = (path: string, body?: unknown) =>
      fetch(`${h.api.base}${path}`, {
        method: body ? "POST" : "GET",
        headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      }).then((r) => r.json() as Promise<{ status: number; data: any }>);
    const started = await api("/api/v2/app/workshop/runs", { app_id: appId, topic: "via API" });
    expect(started.status).toBe(200);
    await carryToRest(started.data.id);
    expect((await api(`/api/v2/app/workshop/runs/${started.data.id}`)).data.status).toBe("waiting_user");
    expect((await api("/api/v2/app/workshop/runs", { app_id: other.appId, topic: "not mine" })).status).toBe(404001);
  });
});
