// Runs as people start and follow them: a developer's debug run of the draft, and a consumer's run
// of an app's pinned version (within the app's plans and free counts, one use per run). Starting
// charges the developer the run's price (once, under the run's id) and hands the run to the
// worker; the person speaks when the run waits for them; a stop is noticed by the worker between
// two deltas. Who may see a run: its developer for a debug run, its consumer for an app's run.
import type { TActor } from "../accounts/accounts.schema";
import { assertNoSensitiveInput } from "../content/content.service";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { enqueueJob } from "../jobs/jobs";
import { chargeMetered } from "../money/metering/metering.service";
import { newId } from "../turns/turn";
import { notifiedRoles } from "./engine/role-view";
import * as runs from "./runs.repository";
import { toRunView, type TRunViewer } from "./run-view";
import { assertUsableAgents } from "./workshops.service";
import * as repo from "./workshops.repository";
import { ZDefinition, type TDefinition, type TStartRunInput } from "./workshops.schema";

export type { TRunViewer };

/** A developer's run of their draft, as it stands now. */
export async function startDebugRun(actor: TActor, workshopId: string, input: TStartRunInput, lng: string) {
  const row = await repo.findWorkshop(workshopId);
  if (!row || row.ownerAccountId !== actor.id) throw new AppError("not_found");
  const def = runnableDefinition(row.definition);
  await assertUsableAgents(actor, def);
  await assertNoSensitiveInput(input.topic);
  const id = newId();
  await withTransaction(async (tx) => {
    await chargeRun(actor.id, id, row.name, tx);
    await runs.createRun({ ...newRun(id, row.id, null, def, actor.id, input.topic, lng), source: "debug" }, tx);
  });
  await carryLater(id);
  return { id };
}

/**
 * A run of a pinned version for an app's consumer; the app's area has checked who may open the app
 * and claimed the use. The app's owner pays; one who cannot turns the consumer away in the app's words.
 */
export async function startPinnedRun(p: {
  appId: string;
  ownerAccountId: string;
  workshopId: string;
  versionId: string;
  consumer: TRunViewer;
  source: string;
  topic: string;
  lng: string;
}) {
  const version = await repo.findVersion(p.versionId);
  const workshop = version ? await repo.findWorkshop(version.workshopId) : null;
  if (!version || !workshop || workshop.ownerAccountId !== p.ownerAccountId || version.workshopId !== p.workshopId) throw new AppError("not_found");
  const def = runnableDefinition(version.definition);
  await assertNoSensitiveInput(p.topic);
  const id = newId();
  await withTransaction(async (tx) => {
    await chargeRun(p.ownerAccountId, id, workshop.name, tx, true);
    await runs.createRun(
      {
        ...newRun(id, workshop.id, version.id, def, p.ownerAccountId, p.topic, p.lng),
        appId: p.appId,
        consumerAccountId: p.consumer.account?.id ?? null,
        visitorId: p.consumer.account ? null : p.consumer.visitorId,
        source: p.source,
      },
      tx,
    );
  });
  await carryLater(id);
  return { id };
}

/** The person's words, when the run waits for them. */
export async function postRunMessage(viewer: TRunViewer, runId: string, content: string) {
  const run = await loadVisible(viewer, runId);
  if (run.status === "ended") throw new AppError("workshop_run_ended");
  if (run.status !== "waiting_user") throw new AppError("workshop_not_your_turn");
  await assertNoSensitiveInput(content);
  const def = ZDefinition.parse(run.definition);
  const waiting = (await runs.listMessages(runId)).find((m) => m.status === "waiting");
  if (!waiting) throw new AppError("workshop_not_your_turn");
  const node = def.nodes[waiting.nodeIndex];
  const moved = await withTransaction(async (tx) => {
    if (!(await runs.fillWaitingMessage(waiting.id, content, notifiedRoles(node, def.roles, waiting.roleName, content), tx))) return false;
    return runs.setRunStatus(runId, "waiting_user", "running", tx);
  });
  if (!moved) throw new AppError("workshop_not_your_turn");
  await carryLater(runId);
  return getRunView(viewer, runId);
}

/** Stops the run: at once when it waits for the person, else at the worker's next look. */
export async function stopRun(viewer: TRunViewer, runId: string) {
  const run = await loadVisible(viewer, runId);
  if (run.status !== "ended") {
    await runs.requestStop(runId);
    if (run.status === "waiting_user") await runs.endRun(runId, "user", new Date());
  }
  return getRunView(viewer, runId);
}

export async function getRunView(viewer: TRunViewer, runId: string) {
  const run = await loadVisible(viewer, runId);
  const def = ZDefinition.parse(run.definition);
  const [messages, agents] = await Promise.all([runs.listMessages(runId), repo.findRoleAgents([...new Set(def.roles.map((r) => r.agent_id).filter(Boolean))])]);
  return toRunView(run, def, messages, agents, viewer.account?.id === run.ownerAccountId);
}

/** The developer's runs of a workshop, newest first. */
export async function listDebugRuns(actor: TActor, workshopId: string) {
  const row = await repo.findWorkshop(workshopId);
  if (!row || row.ownerAccountId !== actor.id) throw new AppError("not_found");
  return (await runs.listRuns({ workshopId, source: "debug" })).map(toRunSummary);
}

/** The consumer's runs of an app, newest first. */
export async function listConsumerRuns(consumer: TRunViewer, appId: string) {
  // Nobody to match (no account, no visitor): nothing, never everyone's anonymous runs.
  if (!consumer.account && !consumer.visitorId) return [];
  const rows = await runs.listRuns(
    consumer.account ? { appId, consumerAccountId: consumer.account.id } : { appId, visitorId: consumer.visitorId, consumerAccountId: null },
  );
  return rows.map(toRunSummary);
}

/** Runs of the workshops queue: carried by the engine (the worker binds it). */
export async function carryLater(runId: string) {
  await enqueueJob("workshops.carry", { runId }, { jobId: `${runId}-${Date.now()}` });
}

function runnableDefinition(raw: unknown): TDefinition {
  const parsed = ZDefinition.safeParse(raw);
  if (!parsed.success) throw new AppError("workshop_incomplete");
  return parsed.data;
}

function newRun(id: string, workshopId: string, versionId: string | null, def: TDefinition, ownerAccountId: string, topic: string, lng: string): runs.TNewRun {
  const person = def.roles.find((r) => r.type === "user");
  return {
    id,
    workshopId,
    versionId,
    definition: def,
    ownerAccountId,
    appId: null,
    consumerAccountId: null,
    visitorId: null,
    source: "debug",
    topic,
    language: lng,
    topicRole: person?.name ?? "user",
  };
}

/** The run's price, borne by the developer; an app's owner who cannot pay turns the consumer away with the app's words. */
async function chargeRun(ownerId: string, runId: string, name: string, tx: Parameters<typeof chargeMetered>[1], forApp = false) {
  try {
    await chargeMetered({ accountId: ownerId, what: "workshop_run", ref: `workshop-run/${runId}`, quantity: 1, memo: { runId, workshop: name } }, tx);
  } catch (err) {
    if (forApp && (err as { code?: string })?.code === "balance_insufficient") throw new AppError("app_owner_balance_insufficient");
    throw err;
  }
}

async function loadVisible(viewer: TRunViewer, runId: string) {
  const run = await runs.findRun(runId);
  if (!run || !maySee(viewer, run)) throw new AppError("not_found");
  return run;
}

function maySee(viewer: TRunViewer, run: runs.TRunRow) {
  if (run.source === "debug") return Boolean(viewer.account) && viewer.account?.id === run.ownerAccountId;
  if (run.consumerAccountId) return viewer.account?.id === run.consumerAccountId;
  return !viewer.account && Boolean(viewer.visitorId) && viewer.visitorId === run.visitorId;
}

const toRunSummary = (r: { id: string; topic: string; status: string; endReason: string | null; createdAt: Date }) => ({
  id: r.id,
  topic: r.topic,
  status: r.status,
  endReason: r.endReason,
  createdAt: r.createdAt.toISOString(),
});
