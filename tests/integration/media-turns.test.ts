// An agent on a picture or video model answers with generated media: in the debug chat and in an
// H5 app whose output modes include the kind, its reply is a generation job on the loopback Kling,
// with progress as `media_generate` function events and the results on close (`media`, `image`)
// and in the stored reply. An app that does not show pictures refuses before anything is charged.
// A workshop's picture turn resumed after its worker died waits for the job it had ordered. The
// worker's steps run in this process while the chat waits.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { dropSingleton } from "../../server/lib/singleton";
import { startFakeKling, type TFakeKling } from "../fakes/fake-kling";
import { createTestApp } from "../helpers/apps";
import { dataOf, makeAgent, makeUser, sendSse, useChatHarness } from "../helpers/chat-runtime";
import { addMediaModel, balanceOf, runMediaWorkerSteps } from "../helpers/media-jobs";
import { carryToRest, makeRoleAgent, makeWorkshopOf } from "../helpers/workshops";
import { submitImageJob } from "../../server/media/media-jobs.service";
import { stepRun } from "../../server/workshops/engine/run-engine";
import { startDebugRun } from "../../server/workshops/runs.service";
import { messageIdOf, upsertTurnMessage } from "../../server/workshops/runs.repository";

const h = useChatHarness();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-media-turns-"));
const PRICE = 250_000;
let kling: TFakeKling;
let imageModel: string;
let stopWorkerSteps: () => Promise<void> = async () => {};

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  process.env.MEDIA_POLL_BASE_MS = "100";
  resetEnvCache();
  dropSingleton("file-store");
  kling = await startFakeKling();
  imageModel = (await addMediaModel({ kind: "image", upstream: "kling-v1", type: "kling", baseUrl: kling.url, secret: kling.secret, unitPriceMicro: PRICE }))
    .key;
  await getDb().mediaJob.updateMany({ where: { state: { in: ["queued", "generating", "background"] } }, data: { state: "failed", errorCode: "test_cleared" } });
  stopWorkerSteps = runMediaWorkerSteps();
});

afterAll(async () => {
  await stopWorkerSteps();
  await kling?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("an agent that draws", () => {
  it("answers the debug chat with a generated picture: progress events, the picture on close and in the stored reply", async () => {
    kling.behave({ pollsUntilDone: 2 });
    const owner = await makeUser(h.api.base);
    const agent = await makeAgent(h, owner, { config: { model_key: imageModel, role_style: "Ink painting, soft brush", prompt: "" } });
    const before = await balanceOf(owner.id);
    const r = await sendSse(h.api.base, owner, { agent_id: agent.agentId, content: "a crane by the lake" });

    const progress = dataOf(r, "function").filter((f) => f.name === "media_generate");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1).params.result.state).toBe("done");
    const close = dataOf(r, "close")[0];
    expect(close.media).toHaveLength(1);
    expect(close.media[0]).toMatchObject({ kind: "image", mime: "image/png" });
    expect(close.image).toEqual([close.media[0].url]);

    const submit = kling.requests.find((q) => q.method === "POST" && q.body?.prompt?.includes("a crane by the lake"))!;
    expect(submit.body.prompt).toBe("Ink painting, soft brush\na crane by the lake");
    const reply = await getDb().chatMessage.findUniqueOrThrow({ where: { id: close.id } });
    expect(reply.content).toContain(`](${close.media[0].url})`);
    expect(reply.status).toBe("done");
    const job = await getDb().mediaJob.findFirstOrThrow({ where: { originRef: close.id } });
    expect(job).toMatchObject({ origin: "agent", state: "done", ownerAccountId: owner.id });
    // Gift credit pays the channel fee first; the picture's price comes on top.
    expect(await balanceOf(owner.id)).toBeLessThanOrEqual(before);
  });

  it("answers in an H5 app that shows pictures, and an app that does not refuses before charging anything", async () => {
    kling.behave({ pollsUntilDone: 1 });
    const owner = await makeUser(h.api.base);
    const agent = await makeAgent(h, owner, { config: { model_key: imageModel }, publish: true });
    const actor = { id: owner.id, roles: [] as never[], enterpriseId: null };
    const withImages = await createTestApp({ owner: actor, agentId: agent.agentId, input: { output_modes: ["text", "image"] } });
    const textOnly = await createTestApp({ owner: actor, agentId: agent.agentId, input: { output_modes: ["text"] } });
    const jobsBefore = await getDb().mediaJob.count({ where: { ownerAccountId: owner.id } });

    const refused = await sendSse(h.api.base, owner, { app_id: textOnly.appId, content: "a fox" }, { path: "/api/v2/app/send_message/sse" });
    expect(dataOf(refused, "error")[0].description).toMatch(/cannot show this kind of answer/);
    expect(await getDb().mediaJob.count({ where: { ownerAccountId: owner.id } })).toBe(jobsBefore);
    expect(await getDb().dialogue.count({ where: { appId: textOnly.appId } })).toBe(0);

    const r = await sendSse(h.api.base, owner, { app_id: withImages.appId, content: "a fox in snow" }, { path: "/api/v2/app/send_message/sse" });
    const close = dataOf(r, "close")[0];
    expect(close, JSON.stringify(r.events)).toBeTruthy();
    expect(close.media?.[0]?.kind).toBe("image");
    const job = await getDb().mediaJob.findFirstOrThrow({ where: { originRef: close.id } });
    expect(job).toMatchObject({ origin: "app", appId: withImages.appId, state: "done" });
  });

  it("tells the chat when the picture could not be made, and nothing stays charged for it", async () => {
    kling.behave({ pollsUntilDone: 1, outcome: "content_output" });
    const owner = await makeUser(h.api.base);
    const agent = await makeAgent(h, owner, { config: { model_key: imageModel } });
    const r = await sendSse(h.api.base, owner, { agent_id: agent.agentId, content: "something refused" });
    expect(dataOf(r, "error")[0].description).toMatch(/failed review/);
    const job = await getDb().mediaJob.findFirstOrThrow({ where: { ownerAccountId: owner.id }, orderBy: { createdAt: "desc" } });
    expect(job.state).toBe("failed_review");
    expect(Number(job.chargedMicro)).toBe(0);
  });
});

describe("a workshop's picture turn", () => {
  it("resumed after its worker died, waits for the picture it had ordered instead of ordering and paying again", async () => {
    kling.behave({ pollsUntilDone: 2 });
    const owner = await makeUser(h.api.base);
    const writer = await makeRoleAgent(h, owner, () => "A heron at dawn, please.");
    const painter = await makeAgent(h, owner, { config: { model_key: imageModel }, publish: true });
    const ws = await makeWorkshopOf(owner, {
      roles: [
        { name: "Writer", type: "agent", agent_id: writer.agentId },
        { name: "Painter", type: "agent", agent_id: painter.agentId },
      ],
      nodes: [{ name: "Studio", speech_mode: "sequential", roles: ["Writer", "Painter"], max_rounds: 2, max_cycles: 1 }],
    });
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Draw a bird" }, "en");
    // The writer speaks; then the painter's turn is cut off by a dead worker after it ordered the picture.
    expect(await stepRun(id)).toBe("continue");
    const turnId = messageIdOf(id, 2);
    await upsertTurnMessage({
      id: turnId,
      runId: id,
      seq: 2,
      nodeIndex: 0,
      roleName: "Painter",
      kind: "agent",
      instruction: "",
      hostCalls: 0,
      visibleTo: [],
      status: "streaming",
    });
    await submitImageJob(
      { id: owner.id },
      { model: imageModel, prompt: "A heron at dawn", aspectRatio: "1:1", quality: "standard", count: 1 },
      { origin: "agent", originRef: turnId },
    );

    expect(await carryToRest(id)).toBe("ended");
    const jobs = await getDb().mediaJob.findMany({ where: { originRef: turnId } });
    expect(jobs).toHaveLength(1);
    expect(jobs[0].state).toBe("done");
    expect(kling.requests.filter((q) => q.method === "POST" && q.body?.prompt?.includes("A heron at dawn"))).toHaveLength(1);
    const painted = await getDb().workshopMessage.findUniqueOrThrow({ where: { id: turnId } });
    expect(painted.status).toBe("done");
    expect(painted.content).toMatch(/!\[[^\]]*\]\(\/files\//);
  });
});
