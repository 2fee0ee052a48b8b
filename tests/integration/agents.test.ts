// Agents and their versions: drafts, publishing, review, upgrades that cannot be undone,
// the update log, edition limits, tenancy, and refusals that change nothing.
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import express from "express";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import { insertModel } from "../../server/models/models.repository";
import * as agentsService from "../../server/agents/agents.service";
import { deleteModel } from "../../server/models/models.service";
import { ZAgentInput, ZSaveAgentDraftInput } from "../../server/agents/agents.schema";
import { startSession } from "../../server/auth/session.service";
import { appRouter } from "../../server/trpc/app-router";
import { createContext } from "../../server/trpc/trpc";

const run = crypto.randomBytes(3).toString("hex");
const TOOL_MODEL = `agents-tools-${run}`;
const PLAIN_MODEL = `agents-plain-${run}`;
let n = 0;

async function makeAccount(edition: "basic" | "professional" | "flagship" = "professional", roles: string[] = ["individual_developer"]) {
  const row = await getDb().account.create({
    data: {
      account: `ag${run}${++n}`,
      nickname: `Dev ${n}`,
      roles: roles as never,
      edition,
      editionExpiresAt: edition === "basic" ? null : new Date(Date.now() + 30 * 86_400_000),
    },
    select: { id: true, enterpriseId: true, roles: true },
  });
  return { ...row, roles: row.roles as string[] };
}

const input = (over: Record<string, unknown> = {}) => ({ name: "导游小助手", introduction: "Plans trips", model_key: TOOL_MODEL, ...over });

type TActor = Parameters<typeof agentsService.createAgent>[0];
/** The service as the editor's procedures call it: the raw input parsed first, a refused parse rejecting as the service's own refusals do. */
const agents = {
  ...agentsService,
  createAgent: async (actor: TActor, raw: unknown) => agentsService.createAgent(actor, ZAgentInput.parse(raw)),
  saveAgentDraft: async (actor: TActor, raw: unknown) => agentsService.saveAgentDraft(actor, ZSaveAgentDraftInput.parse(raw)),
};

async function refusal(p: Promise<unknown>, lng = "en") {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err, "expected a refusal").toBeTruthy();
  return mapError(err, lng);
}

const countRows = async (agentId: string) => ({
  versions: await getDb().agentVersion.count({ where: { agentId } }),
  agents: await getDb().agent.count({ where: { id: agentId } }),
});

let admin: Awaited<ReturnType<typeof makeAccount>>;

beforeAll(async () => {
  await insertModel({
    key: TOOL_MODEL,
    displayName: "Tools",
    kind: "text",
    upstreamModel: TOOL_MODEL,
    contextWindow: 8192,
    inputPriceMicro: 0,
    outputPriceMicro: 0,
    supportsTools: true,
    supportsReasoning: false,
    enabled: true,
  });
  await insertModel({
    key: PLAIN_MODEL,
    displayName: "Plain",
    kind: "text",
    upstreamModel: PLAIN_MODEL,
    contextWindow: 8192,
    inputPriceMicro: 0,
    outputPriceMicro: 0,
    supportsTools: false,
    supportsReasoning: false,
    enabled: true,
  });
  admin = await makeAccount("professional", ["platform_admin"]);
});

describe("creating and editing", () => {
  it("creates an agent with its first draft, and saving edits that one draft", async () => {
    const dev = await makeAccount();
    const created = await agents.createAgent(dev, input({ variables: [{ name: "city", type: "fill", required: true }] }));
    expect(created).toMatchObject({ name: "导游小助手", draft: { version: "1.0.0", state: "draft" }, live: null, config_editable: true });
    expect(created.config.variables[0]).toMatchObject({ name: "city", required: true });

    const saved = await agents.saveAgentDraft(dev, { id: created.id, agent: input({ name: "导游", prompt: "Help with {{city}}" }) });
    expect(saved.versions).toHaveLength(1);
    expect(saved).toMatchObject({ name: "导游", config: { prompt: "Help with {{city}}" } });
  });

  it("refuses bad input in the user's language and writes nothing", async () => {
    const dev = await makeAccount();
    const before = await getDb().agent.count({ where: { ownerAccountId: dev.id } });
    const tooLong = await refusal(agents.createAgent(dev, input({ name: "abcdefghijklmnopq" })));
    expect(tooLong.envelope.description).toBe("An agent name is at most 8 characters (two Latin letters count as one)");
    expect((tooLong.envelope.data as { fields: { path: string; message: string }[] }).fields).toContainEqual({
      path: "name",
      message: "An agent name is at most 8 characters (two Latin letters count as one)",
    });
    const price = await refusal(agents.createAgent(dev, input({ use_price_micro: 50_000 })), "zh_hans");
    expect((price.envelope.data as { fields: { message: string }[] }).fields[0].message).toBe("价格为 0 或不低于 0.1 元");
    const plugins = await refusal(agents.createAgent(dev, input({ model_key: PLAIN_MODEL, plugins: ["web_reader"] })));
    expect(plugins.envelope.description).toBe("This model does not support plugins");
    const model = await refusal(agents.createAgent(dev, input({ model_key: "no-such-model" })));
    expect(model.code).toBe("model_unavailable");
    expect(await getDb().agent.count({ where: { ownerAccountId: dev.id } })).toBe(before);
  });

  it("keeps a basic account to one agent, naming the edition to upgrade to", async () => {
    const dev = await makeAccount("basic");
    await agents.createAgent(dev, input());
    const second = await refusal(agents.createAgent(dev, input({ name: "第二个" })));
    expect(second.envelope.description).toBe("Your edition does not include this: upgrade to Professional");
    expect(await getDb().agent.count({ where: { ownerAccountId: dev.id } })).toBe(1);
  });

  it("does not let two racing creations pass the edition limit", async () => {
    const dev = await makeAccount("basic");
    const results = await Promise.allSettled([agents.createAgent(dev, input()), agents.createAgent(dev, input({ name: "并发" }))]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await getDb().agent.count({ where: { ownerAccountId: dev.id } })).toBe(1);
  });
});

describe("lifecycle", () => {
  it("publishes, then editing makes a new draft; the published version never changes", async () => {
    const dev = await makeAccount();
    const a = await agents.createAgent(dev, input({ update_note: "first" }));
    const published = await agents.publishAgent(dev, { id: a.id });
    expect(published).toMatchObject({ live: { version: "1.0.0", state: "published" }, draft: null, config_editable: false });
    const liveId = published.live!.id;
    const liveConfig = (await getDb().agentVersion.findUnique({ where: { id: liveId } }))!.config;

    // Same version number again: refused, nothing written.
    const same = await refusal(agents.saveAgentDraft(dev, { id: a.id, agent: input({ prompt: "changed" }) }));
    expect(same.envelope.description).toBe("The new version number must be higher than 1.0.0");
    expect(await countRows(a.id)).toEqual({ versions: 1, agents: 1 });

    const edited = await agents.saveAgentDraft(dev, { id: a.id, agent: input({ version: "1.1.0", prompt: "changed", update_note: "second" }) });
    expect(edited).toMatchObject({ draft: { version: "1.1.0" }, live: { id: liveId, state: "published" }, config: { prompt: "changed" } });
    expect((await getDb().agentVersion.findUnique({ where: { id: liveId } }))!.config).toEqual(liveConfig);

    // Publishing the upgrade retires the old live version, with no way back.
    const upgraded = await agents.publishAgent(dev, { id: a.id });
    expect(upgraded.live).toMatchObject({ version: "1.1.0", state: "published" });
    expect(upgraded.versions.find((v) => v.id === liveId)!.state).toBe("upgraded");
    const log = await agents.getUpdateLog(dev, { id: a.id });
    expect(log.entries.map((e) => [e.version, e.update_note])).toEqual([
      ["1.1.0", "second"],
      ["1.0.0", "first"],
    ]);
    // Publishing again with no draft is a refused move, in words.
    const again = await refusal(agents.publishAgent(dev, { id: a.id }));
    expect(again.code).toBe("invalid_state_transition");
  });

  it("goes on the shelf only through review; rejection keeps the reason for the owner", async () => {
    const dev = await makeAccount();
    const a = await agents.createAgent(dev, input());
    const submitted = await agents.submitAgent(dev, { id: a.id });
    expect(submitted.under_review).toMatchObject({ version: "1.0.0" });
    expect((await refusal(agents.submitAgent(dev, { id: a.id }))).code).toBe("invalid_state_transition");

    // Only platform administrators review.
    expect((await refusal(agents.approveAgentVersion(dev, { versionId: submitted.under_review!.id }))).code).toBe("no_permission");
    const queue = await agents.listReviewQueue(admin);
    expect(queue.map((q) => q.id)).toContain(submitted.under_review!.id);

    const rejected = await agents.rejectAgentVersion(admin, { versionId: submitted.under_review!.id, reason: "Copies another agent" });
    expect(rejected).toMatchObject({ state: "removed", removed_reason: "Copies another agent" });
    const seen = await agents.getAgent(dev, { id: a.id });
    expect(seen.removed).toMatchObject({ removed_reason: "Copies another agent" });
    // A removed version never returns: approving it now is refused.
    const late = await refusal(agents.approveAgentVersion(admin, { versionId: submitted.under_review!.id }), "en");
    expect(late.envelope.description).toBe('An agent that is "Removed" cannot become "On shelf"');

    // The owner fixes it in a new draft with a higher number and submits again; approval lists it.
    await agents.saveAgentDraft(dev, { id: a.id, agent: input({ version: "1.0.1", update_note: "fixed" }) });
    const resubmitted = await agents.submitAgent(dev, { id: a.id });
    const approved = await agents.approveAgentVersion(admin, { versionId: resubmitted.under_review!.id });
    expect(approved).toMatchObject({ state: "on_shelf", version: "1.0.1" });
    // Once listed, changes go through review: publishing around the reviewers is refused.
    await agents.saveAgentDraft(dev, { id: a.id, agent: input({ version: "1.1.0" }) });
    expect((await refusal(agents.publishAgent(dev, { id: a.id }))).code).toBe("invalid_state_transition");
    // The update log of a listed agent is public.
    expect((await agents.getUpdateLog(null, { id: a.id })).entries.map((e) => e.version)).toEqual(["1.0.1"]);
  });

  it("a reason is required to reject or take down", async () => {
    const dev = await makeAccount();
    const a = await agents.createAgent(dev, input());
    const s = await agents.submitAgent(dev, { id: a.id });
    expect((await refusal(agents.rejectAgentVersion(admin, { versionId: s.under_review!.id, reason: "  " }))).code).toBe("validation_failed");
    expect((await getDb().agentVersion.findUnique({ where: { id: s.under_review!.id } }))!.state).toBe("under_review");
  });

  it("withdraws a waiting submission back to a draft", async () => {
    const dev = await makeAccount();
    const a = await agents.createAgent(dev, input());
    await agents.submitAgent(dev, { id: a.id });
    const back = await agents.withdrawAgent(dev, { id: a.id });
    expect(back).toMatchObject({ draft: { version: "1.0.0" }, under_review: null });
  });

  it("two reviewers approving at once: one wins, the other is refused", async () => {
    const dev = await makeAccount();
    const a = await agents.createAgent(dev, input());
    const s = await agents.submitAgent(dev, { id: a.id });
    const results = await Promise.allSettled([
      agents.approveAgentVersion(admin, { versionId: s.under_review!.id }),
      agents.approveAgentVersion(admin, { versionId: s.under_review!.id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("an invalid agent shows why and recovers", async () => {
    const dev = await makeAccount();
    const a = await agents.createAgent(dev, input());
    await agents.publishAgent(dev, { id: a.id });
    await agents.invalidateAgent(a.id, "training set failed");
    expect(await agents.getAgent(dev, { id: a.id })).toMatchObject({ invalid_reason: "training set failed", live: { state: "invalid" } });
    await agents.restoreAgent(a.id);
    expect(await agents.getAgent(dev, { id: a.id })).toMatchObject({ invalid_reason: null, live: { state: "published" } });
  });
});

describe("tenancy and ordering", () => {
  it("another account's agent answers not found on every verb", async () => {
    const owner = await makeAccount();
    const other = await makeAccount();
    const a = await agents.createAgent(owner, input());
    for (const call of [
      () => agents.getAgent(other, { id: a.id }),
      () => agents.saveAgentDraft(other, { id: a.id, agent: input() }),
      () => agents.publishAgent(other, { id: a.id }),
      () => agents.submitAgent(other, { id: a.id }),
      () => agents.deleteAgent(other, { id: a.id }),
      () => agents.reorderAgents(other, { ids: [a.id] }),
      () => agents.getUpdateLog(other, { id: a.id }),
      () => agents.getAgentForChat(other, a.id, "debug"),
    ])
      expect((await refusal(call())).code).toBe("not_found");
    expect(await agents.getAgent(owner, { id: a.id })).toMatchObject({ draft: { state: "draft" } });
  });

  it("reorders my agents and deletes one", async () => {
    const dev = await makeAccount("flagship");
    const one = await agents.createAgent(dev, input({ name: "一" }));
    const two = await agents.createAgent(dev, input({ name: "二" }));
    const three = await agents.createAgent(dev, input({ name: "三" }));
    expect((await agents.reorderAgents(dev, { ids: [three.id, one.id, two.id] })).map((a) => a.name)).toEqual(["三", "一", "二"]);
    await agents.deleteAgent(dev, { id: one.id });
    expect((await agents.listAgents(dev)).map((a) => a.name)).toEqual(["三", "二"]);
  });

  it("answers 110003 through tRPC when not logged in, and serves the owner", async () => {
    const app = express();
    app.use("/trpc", createExpressMiddleware({ router: appRouter, createContext }));
    const server: Server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trpc`;
    try {
      const anon = await fetch(`${base}/agents.list`).then((r) => r.json());
      expect(anon.error.json.data.envelope.status).toBe(110003);
      const dev = await makeAccount();
      await agents.createAgent(dev, input({ name: "远程" }));
      const session = await startSession(dev.id, { ip: "127.0.0.1" });
      const mine = await fetch(`${base}/agents.list`, { headers: { cookie: `zl_session=${session.token}` } }).then((r) => r.json());
      expect(mine.result.data.json.map((a: { name: string }) => a.name)).toEqual(["远程"]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("models in use", () => {
  it("refuses to delete a model an agent runs on, and allows it once the agent is gone", async () => {
    const key = `agents-del-${run}`;
    const model = await insertModel({
      key,
      displayName: "Del",
      kind: "text",
      upstreamModel: key,
      contextWindow: 8192,
      inputPriceMicro: 0,
      outputPriceMicro: 0,
      supportsTools: false,
      supportsReasoning: false,
      enabled: true,
    });
    const dev = await makeAccount();
    const a = await agents.createAgent(dev, input({ model_key: key }));
    const refused = await refusal(deleteModel(model.id));
    expect(refused.envelope).toMatchObject({
      status: 420302,
      description: "This model is still used by 1 agent versions and 0 channels: disable it instead of deleting it",
    });
    expect(await getDb().model.count({ where: { id: model.id } })).toBe(1);
    await agents.deleteAgent(dev, { id: a.id });
    await deleteModel(model.id);
    expect(await getDb().model.count({ where: { id: model.id } })).toBe(0);
  });
});

describe("defaults", () => {
  it("fills the model parameters' defaults", () => {
    expect(ZAgentInput.parse(input()).parameters).toMatchObject({ max_tokens: 1024, temperature: 0.7, top_p: 1, n: 1, stream: true });
  });
});
