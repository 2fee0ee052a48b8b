// The engine: carries a run turn by turn, in the worker, as the job `workshops.carry`. Each step
// reads the run and its messages afresh, so the state is what the rows say: a worker killed in the
// middle of a turn leaves that turn's message "streaming", and whichever worker takes the run next
// (its lease lapsed) answers that same message again. The turn's reply id is the message's id, so
// its charge is the same posting, taken once. Who speaks is decided by next-speaker.ts; only an
// on-demand node asks its host (host.ts). A run ends on its rounds or cycles (in its last node),
// the host's END, a stop, its time or turn budget, the developer's money, nobody eligible, a loop,
// or a failure, and records which.
import { toChatAgent } from "../../agents/agents.service";
import { getEnv } from "../../env";
import { codeForStatus } from "../../errors/codes";
import { getCachedRouting } from "../../models/gateway.service";
import { billWorkshopTurn } from "../../money/metering/chat-charges.service";
import { AppError, isAppError } from "../../errors/app-error";
import { logger } from "../../lib/logger";
import { mapError } from "../../errors/map-error";
import { runTurn } from "../../turns/index";
import * as runs from "../runs.repository";
import { readSpeaker as readSpeakerRow, type TSpeakerReading } from "../speaker.repository";
import { HOST_END, ZDefinition, type TDefinition, type TEndReason, type TNode, type TRole } from "../workshops.schema";
import { askHost } from "./host";
import { decideNextStep, type TNextStep } from "./next-speaker";
import { notifiedRoles, type TRunMessage } from "./role-view";
import { buildRoleTurn } from "./role-turn";
import { createRunSink, runRowStore } from "./run-sink";

/** A job carries at most this many steps before handing the run to a fresh job. */
const STEPS_PER_JOB = 400;

type TStepResult = "continue" | "waiting" | "ended" | "idle";
type TRun = runs.TRunRow & { def: TDefinition };

/** Carries the run as far as it goes now: to its end, or to the person's turn. */
export async function carryRun(runId: string, workerId: string): Promise<TStepResult | "busy"> {
  const leaseMs = getEnv().WORKSHOP_LEASE_MS;
  const now = new Date();
  if (!(await runs.leaseRun(runId, workerId, now, new Date(now.getTime() + leaseMs)))) return "busy";
  // Renewed well before it lapses, so a live worker never loses a run it is carrying.
  const renew = setInterval(() => {
    const at = new Date();
    runs.leaseRun(runId, workerId, at, new Date(at.getTime() + leaseMs)).catch(() => undefined);
  }, leaseMs / 4);
  try {
    const carried = newCarry();
    for (let i = 0; i < STEPS_PER_JOB; i++) {
      const result = await stepRun(runId, carried);
      if (result !== "continue") return result;
    }
    return "continue";
  } finally {
    clearInterval(renew);
    await runs.releaseRun(runId, workerId).catch(() => undefined);
  }
}

/**
 * What a worker keeps of a run between two of its steps while it holds the run: the messages as
 * they were (only the holder writes them, except the person's, which come while no one holds it),
 * and the one its last turn finished, to be read again.
 */
export type TCarry = { messages: runs.TMessageRow[] | null; changed: string | null };
export const newCarry = (): TCarry => ({ messages: null, changed: null });

/** The run's messages: all of them on a first step, else the kept ones with the last turn's read again. */
async function readMessages(runId: string, carried: TCarry) {
  if (!carried.messages) return runs.listMessages(runId);
  const fresh = carried.changed ? await runs.findMessage(carried.changed) : null;
  return carried.messages.map((m) => (fresh && m.id === fresh.id ? fresh : m));
}

/** One step of the run: one turn (or the decision that ends a node or waits for the person). The caller holds the run. */
export async function stepRun(runId: string, carried: TCarry = newCarry()): Promise<TStepResult> {
  const [row, messages] = await Promise.all([runs.findRun(runId), readMessages(runId, carried)]);
  carried.messages = null;
  if (!row || row.status !== "running") return "idle";
  const run: TRun = { ...row, def: definitionOf(row) };
  if (run.stopRequested) return end(run, "user");
  if (Date.now() > deadlineOf(run)) return end(run, "time");
  if (messages.some((m) => m.status === "waiting")) return (await runs.setRunStatus(runId, "running", "waiting_user")) ? "waiting" : "idle";
  const pending = messages.find((m) => m.status === "streaming");
  if (pending) return speak(run, pending, messages, await readSpeaker(run, pending.roleName), carried);
  if (messages.filter((m) => m.kind !== "topic").length >= run.def.limits.max_turns) return end(run, "budget");

  const node = run.def.nodes[run.nodeIndex];
  const spoken = messages
    .filter((m) => m.nodeIndex === run.nodeIndex && m.kind !== "topic" && (m.status === "done" || m.status === "stopped" || m.status === "censored"))
    .map((m) => ({ role: m.roleName, content: m.content }));
  const next = decideNextStep(node, spoken);
  const chosen = next.kind === "speak" ? { ...next, instruction: "", hostCalls: 0 } : await choose(run, node, next, messages);
  if (chosen.kind === "end") return endNode(run, chosen.reason);
  const role = run.def.roles.find((r) => r.name === chosen.role)!;
  const seq = messages[messages.length - 1].seq + 1;
  const waits = role.type === "user" && !role.hosting;
  // The turn's message and what its speaker needs are written and read at once.
  const [message, speaker] = await Promise.all([
    runs.upsertTurnMessage({
      id: runs.messageIdOf(runId, seq),
      runId,
      seq,
      nodeIndex: run.nodeIndex,
      roleName: role.name,
      kind: role.type === "user" ? "user" : "agent",
      instruction: chosen.instruction,
      hostCalls: chosen.hostCalls,
      visibleTo: [],
      status: waits ? "waiting" : "streaming",
    }),
    waits ? null : readSpeaker(run, role.name),
  ]);
  if (!speaker) return (await runs.setRunStatus(runId, "running", "waiting_user")) ? "waiting" : "idle";
  return speak(run, message, [...messages, message], speaker, carried);
}

type TChosen = { kind: "end"; reason: TEndReason } | { kind: "speak"; role: string; instruction: string; hostCalls: number };

/** The step decided: on-demand speech asks the host, and its END or its choice (else the fallback) stands. */
async function choose(run: TRun, node: TNode, next: Exclude<TNextStep, { kind: "speak" }>, messages: runs.TMessageRow[]): Promise<TChosen> {
  if (next.kind === "end") return next;
  const hostRole = run.def.roles.find((r) => r.name === node.host)!;
  const host = await loadAgent(run, hostRole);
  const controller = new AbortController();
  const { decision, calls } = await askHost({
    host,
    hostRole: hostRole.name,
    ownerId: run.ownerAccountId,
    definition: run.def,
    node,
    messages: toRunMessages(messages),
    eligible: next.eligible,
    signal: controller.signal,
  });
  await runs.addHostCalls(run.id, calls);
  if (decision?.next === HOST_END) return { kind: "end", reason: "host" };
  return { kind: "speak", role: decision?.next ?? next.fallback, instruction: decision?.instruction ?? "", hostCalls: calls };
}

/** The developer, the role's agent and the developer's balances, read together. */
function readSpeaker(run: TRun, roleName: string): Promise<TSpeakerReading> {
  const role = run.def.roles.find((r) => r.name === roleName);
  return readSpeakerRow(run.ownerAccountId, role?.agent_id ?? "");
}

/** One role's turn through the chat pipeline, into its message. */
async function speak(run: TRun, message: runs.TMessageRow, messages: runs.TMessageRow[], speaker: TSpeakerReading, carried: TCarry): Promise<TStepResult> {
  const role = run.def.roles.find((r) => r.name === message.roleName);
  const node = run.def.nodes[message.nodeIndex];
  if (!role || !node) return failTurn(run, message.id, new Error("role missing"));
  const control = createRunSink(run.id, message.id, deadlineOf(run));
  let ran: Promise<void>;
  try {
    const { owner, wallet } = speaker;
    if (!owner) return end(run, "failed");
    const agent = toChatAgent(owner, speaker.agent, speaker.version, "live");
    const bill = billWorkshopTurn({
      payer: owner.id,
      wallet,
      agent: { agentId: agent.agentId, name: agent.name },
      app: run.appId ? { id: run.appId, name: "" } : null,
    });
    const m = (await getCachedRouting(agent.config.model_key, owner.id)).model;
    const model = m ? { key: m.key, kind: m.kind, supportsTools: m.supportsTools, contextWindow: m.contextWindow, enabled: m.enabled } : null;
    const prior = messages.filter((x) => x.seq < message.seq && x.status !== "waiting" && x.status !== "streaming");
    const turn = await buildRoleTurn({
      owner,
      definition: run.def,
      node,
      role,
      agent,
      messages: toRunMessages(prior),
      instruction: message.instruction,
      ctx: { model, bill },
      runId: run.id,
      replyId: message.id,
      rows: runRowStore((content) => notifiedRoles(node, run.def.roles, role.name, content)),
    });
    ran = runTurn(turn, control.sink, run.language);
  } catch (err) {
    control.sink.fail(mapError(err, run.language).envelope);
    return failTurn(run, message.id, err);
  }
  const outcome = await control.outcome(ran);
  if (outcome.kind === "failed") return failTurn(run, message.id, outcome.error);
  if (outcome.kind === "cancelled" || (outcome.kind === "finished" && outcome.stopped)) return end(run, Date.now() > deadlineOf(run) ? "time" : "user");
  // The next step reads this turn's message again and keeps the rest as they are.
  carried.messages = messages;
  carried.changed = message.id;
  return "continue";
}

/** A turn that could not be given: the developer's money ran out (budget), else the run failed. */
async function failTurn(run: TRun, messageId: string, err: unknown): Promise<TStepResult> {
  await runs.finishMessage(messageId, { content: "", status: "failed", promptTokens: 0, completionTokens: 0 }).catch(() => undefined);
  const code = isAppError(err)
    ? err.code
    : typeof (err as { status?: unknown })?.status === "number"
      ? codeForStatus((err as { status: number }).status)
      : undefined;
  if (code === "balance_insufficient" || code === "app_owner_balance_insufficient") return end(run, "budget");
  const description = (err as { description?: string; message?: string })?.description ?? (err as Error)?.message ?? String(err);
  if (!code) logger.warn({ err, runId: run.id }, "a workshop turn failed");
  return end(run, "failed", code ?? description.slice(0, 300));
}

/** A node's end moves the run to the next node; the last node's end is the run's. */
async function endNode(run: TRun, reason: TEndReason): Promise<TStepResult> {
  if (run.nodeIndex + 1 < run.def.nodes.length) {
    await runs.advanceNode(run.id, run.nodeIndex, reason);
    return "continue";
  }
  return end(run, reason);
}

async function end(run: TRun, reason: TEndReason, error: string | null = null): Promise<TStepResult> {
  await runs.endRun(run.id, reason, new Date(), error);
  return "ended";
}

/** Runs' frozen definitions, parsed once per process: a run's definition never changes. */
const definitions = new Map<string, TDefinition>();
function definitionOf(row: runs.TRunRow) {
  let def = definitions.get(row.id);
  if (!def) {
    if (definitions.size >= 500) definitions.clear();
    definitions.set(row.id, (def = ZDefinition.parse(row.definition)));
  }
  return def;
}

const deadlineOf = (run: TRun) => run.createdAt.getTime() + run.def.limits.max_minutes * 60_000;

/** The role's agent at its live version, as the developer runs it: another's agent runs only from the shelf. */
async function loadAgent(run: TRun, role: TRole) {
  const speaker = await readSpeakerRow(run.ownerAccountId, role.agent_id);
  if (!speaker.owner) throw new AppError("not_found");
  return toChatAgent(speaker.owner, speaker.agent, speaker.version, "live");
}

function toRunMessages(rows: runs.TMessageRow[]): TRunMessage[] {
  return rows
    .filter((m) => m.kind === "topic" || m.status === "done" || m.status === "stopped")
    .map((m) => ({ seq: m.seq, role: m.roleName, kind: m.kind, content: m.content, visibleTo: m.visibleTo }));
}
