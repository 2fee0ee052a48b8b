// Agents and their versions (docs/decisions/0004-agent-versions.md). An agent is edited as one
// draft version; a version that left draft is never changed again. Going live (published for the
// owner, or on the market's shelf after review) turns the previous live version into "upgraded",
// with no way back.
import { type TDbOrTx, withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { assertOwned, assertRole } from "../accounts/access";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertWithinLimit } from "../accounts/entitlements.service";
import { findModelByKey } from "../models/models.repository";
import { ZodError } from "zod";
import { LIVE_AGENT_STATES, moveAgent, type TAgentState } from "./agent-lifecycle";
import * as repo from "./agents.repository";
import { deepFreeze } from "../lib/deep-freeze";
import {
  compareVersions,
  ZAgentInput,
  type TAgentDetail,
  type TAgentIdInput,
  type TAgentInput,
  type TAgentReviewItem,
  type TAgentSummary,
  type TAgentVersionView,
  type TReorderAgentsInput,
  type TReviewDecisionInput,
  type TSaveAgentDraftInput,
  type TSubmitAgentInput,
  type TUpdateLog,
} from "./agents.schema";

type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;
type TVersion = repo.TAgentVersionRow;

const LIVE_STATES: readonly string[] = LIVE_AGENT_STATES;
/** A submission waiting for the reviewers: a draft's, or a published version's as it is. */
const REVIEW_STATES: readonly TAgentState[] = ["under_review", "published_in_review"];

function toVersionView(v: TVersion): TAgentVersionView {
  return {
    id: v.id,
    version: v.version,
    state: v.state,
    update_note: v.updateNote,
    removed_reason: v.removedReason,
    submitted_at: v.submittedAt?.toISOString() ?? null,
    reviewed_at: v.reviewedAt?.toISOString() ?? null,
    published_at: v.publishedAt?.toISOString() ?? null,
    created_at: v.createdAt.toISOString(),
  };
}

/** The roles a set of versions (newest first) plays for its agent. */
function classify(versions: TVersion[]) {
  return {
    live: versions.find((v) => LIVE_STATES.includes(v.state)) ?? null,
    draft: versions.find((v) => v.state === "draft") ?? null,
    underReview: versions.find((v) => REVIEW_STATES.includes(v.state as TAgentState)) ?? null,
    removed: versions.find((v) => v.state === "removed") ?? null,
  };
}

function toSummary(agent: repo.TAgentRow, versions: TVersion[]): TAgentSummary {
  const c = classify(versions);
  const view = (v: TVersion | null) => (v ? toVersionView(v) : null);
  return {
    id: agent.id,
    name: agent.name,
    avatar_url: agent.avatarUrl,
    sort_order: agent.sortOrder,
    invalid_reason: agent.invalidReason,
    live: view(c.live),
    draft: view(c.draft),
    under_review: view(c.underReview),
    removed: view(c.removed),
    updated_at: agent.updatedAt.toISOString(),
  };
}

/** A new version's number must be above every number that has left draft (no reuse, no rollback). */
function assertVersionHigher(version: string, versions: TVersion[]) {
  const used = versions.filter((v) => v.state !== "draft").map((v) => v.version);
  const highest = used.sort(compareVersions).at(-1);
  if (highest && compareVersions(version, highest) <= 0)
    throw new AppError("version_not_higher", { params: { version: highest }, data: { fields: [{ path: "version", message: "version_not_higher" }] } });
}

/** The model must exist, and must call tools if the agent uses plugins or networking. */
async function assertModelFits(input: TAgentInput, tx: TDbOrTx) {
  const model = await findModelByKey(input.model_key, tx);
  if (!model || !model.enabled)
    throw new AppError("model_unavailable", { params: { model: input.model_key }, data: { fields: [{ path: "model_key", message: "model_unavailable" }] } });
  if ((input.plugins.length || input.networking) && !model.supportsTools)
    throw new AppError("model_no_plugins", { data: { fields: [{ path: "plugins", message: "model_no_plugins" }] } });
}

/** Training sets must be the agent owner's own, not deleted: anything else is refused on the field. */
async function assertOwnTrainingSets(ownerAccountId: string, input: TAgentInput, tx: TDbOrTx) {
  const foreign = await repo.findForeignTrainingSetIds(ownerAccountId, input.training_set_ids, tx);
  if (foreign.length) throw new ZodError([{ code: "custom", path: ["training_set_ids"], message: "validation.training_set_unknown", input: foreign }]);
}

async function loadOwned(actor: TActor, agentId: string, tx?: TDbOrTx) {
  const agent = await repo.findAgentById(agentId, tx);
  return assertOwned(agent ? { ...agent, accountId: agent.ownerAccountId } : null, actor, { enterpriseWide: true });
}

export async function listAgents(actor: TActor): Promise<TAgentSummary[]> {
  const agents = await repo.listAgentsOf(actor.id);
  const versions = await repo.listVersionsOfAgents(agents.map((a) => a.id));
  return agents.map((a) =>
    toSummary(
      a,
      versions.filter((v) => v.agentId === a.id),
    ),
  );
}

export async function getAgent(actor: TActor, { id }: TAgentIdInput): Promise<TAgentDetail> {
  const agent = await loadOwned(actor, id);
  const versions = await repo.listVersionsOf(agent.id);
  const c = classify(versions);
  const source = c.draft ?? c.underReview ?? c.live ?? versions[0];
  return {
    ...toSummary(agent, versions),
    config: ZAgentInput.parse(source.config),
    config_version_id: source.id,
    config_editable: source.state === "draft",
    versions: versions.map(toVersionView),
  };
}

export async function createAgent(actor: TActor, input: TAgentInput): Promise<TAgentDetail> {
  const id = await withTransaction(async (tx) => {
    await repo.lockAccountAgents(actor.id, tx);
    await assertWithinLimit(actor.id, "agents", await repo.countAgentsOf(actor.id, tx), new Date(), tx);
    await assertModelFits(input, tx);
    await assertOwnTrainingSets(actor.id, input, tx);
    const agent = await repo.insertAgent(
      {
        ownerAccountId: actor.id,
        enterpriseId: actor.enterpriseId,
        name: input.name,
        avatarUrl: input.avatar_url ?? null,
        sortOrder: (await repo.maxSortOrderOf(actor.id, tx)) + 1,
      },
      tx,
    );
    await repo.insertVersion({ agentId: agent.id, version: input.version, config: input, updateNote: input.update_note }, tx);
    return agent.id;
  });
  return getAgent(actor, { id });
}

/** Saves the editor: edits the draft, or starts a new draft when none exists (never a live version). */
export async function saveAgentDraft(actor: TActor, { id, agent: input }: TSaveAgentDraftInput): Promise<TAgentDetail> {
  await withTransaction(async (tx) => {
    const agent = await loadOwned(actor, id, tx);
    await repo.lockAgent(id, tx);
    const versions = await repo.listVersionsOf(id, tx);
    assertVersionHigher(input.version, versions);
    await assertModelFits(input, tx);
    await assertOwnTrainingSets(agent.ownerAccountId, input, tx);
    const draft = classify(versions).draft;
    if (draft) await repo.updateVersionById(draft.id, { version: input.version, config: input, updateNote: input.update_note }, tx);
    else await repo.insertVersion({ agentId: id, version: input.version, config: input, updateNote: input.update_note }, tx);
    await repo.updateAgentById(id, { name: input.name, avatarUrl: input.avatar_url ?? null }, tx);
  });
  return getAgent(actor, { id });
}

/**
 * Moves one version and, when it goes live, retires the version that was live before it. A
 * published version listed after review keeps the date it first went live (its update-log entry).
 */
async function moveVersion(tx: TDbOrTx, version: TVersion, to: TAgentState, extra: { reason?: string; reviewerId?: string; refusal?: string } = {}) {
  const moved = moveAgent(version.state as TAgentState, to, { reason: extra.reason });
  const now = new Date();
  const goesLive = (to === "published" || to === "on_shelf") && !version.publishedAt;
  if (goesLive) {
    const versions = await repo.listVersionsOf(version.agentId, tx);
    assertVersionHigher(
      version.version,
      versions.filter((v) => v.id !== version.id),
    );
    for (const v of versions)
      if (v.id !== version.id && LIVE_STATES.includes(v.state))
        await repo.updateVersionById(v.id, { state: moveAgent(v.state as TAgentState, "upgraded").state }, tx);
    await repo.updateAgentById(version.agentId, { invalidReason: null }, tx);
  }
  return repo.updateVersionById(
    version.id,
    {
      state: moved.state,
      ...(to === "removed" ? { removedReason: moved.reason } : {}),
      // A refused listing of a published version: the reason is kept with it, still live.
      ...(extra.refusal ? { removedReason: extra.refusal } : {}),
      ...(to === "under_review" || to === "published_in_review" ? { submittedAt: now, removedReason: null } : {}),
      ...(to === "draft" ? { submittedAt: null } : {}),
      ...(extra.reviewerId ? { reviewedAt: now, reviewedById: extra.reviewerId } : {}),
      ...(goesLive ? { publishedAt: now } : {}),
    },
    tx,
  );
}

type TClassified = ReturnType<typeof classify>;
type TOwnMove = { version: TVersion; to: TAgentState } | null;

async function moveOwnAgent(actor: TActor, id: string, intended: TAgentState, pick: (c: TClassified) => TOwnMove) {
  await withTransaction(async (tx) => {
    await loadOwned(actor, id, tx);
    await repo.lockAgent(id, tx);
    const versions = await repo.listVersionsOf(id, tx);
    const c = classify(versions);
    const picked = pick(c);
    if (!picked)
      throw new AppError("invalid_state_transition", {
        params: { from: `$t:common:agent_state.${versions[0]?.state ?? "draft"}`, to: `$t:common:agent_state.${intended}` },
      });
    const { version, to } = picked;
    // One submission at a time, whichever version it is.
    if (REVIEW_STATES.includes(to) && c.underReview) throw new AppError("repeat_action");
    // A withdrawn submission may not overwrite a newer draft.
    if (to === "draft" && c.draft) throw new AppError("repeat_action");
    // A listed agent changes only through review: publishing around it would bypass the reviewers.
    if (to === "published" && c.live?.state === "on_shelf")
      throw new AppError("invalid_state_transition", { params: { from: "$t:common:agent_state.on_shelf", to: "$t:common:agent_state.published" } });
    if (to !== "draft" && version.state === "draft") await assertModelFits(ZAgentInput.parse(version.config), tx);
    await moveVersion(tx, version, to);
  });
  return getAgent(actor, { id });
}

/** The owner publishes the draft for their own use (apps, debug), outside the market. */
export const publishAgent = async (actor: TActor, { id }: TAgentIdInput) =>
  moveOwnAgent(actor, id, "published", (c) => c.draft && { version: c.draft, to: "published" });

/**
 * The owner submits a version for review before it goes on the market's shelf: the draft, or the
 * version published for their own use as it is (it keeps serving them while it waits). Unnamed,
 * the draft when there is one, else the published version.
 */
export async function submitAgent(actor: TActor, { id, source }: TSubmitAgentInput) {
  return moveOwnAgent(actor, id, "under_review", (c) => {
    const published = c.live?.state === "published" ? c.live : null;
    const pick = source ?? (c.draft ? "draft" : "published");
    if (pick === "draft") return c.draft && { version: c.draft, to: "under_review" };
    return published && { version: published, to: "published_in_review" };
  });
}

/** The owner takes back a submission that is still waiting for review: a draft again, or simply published again. */
export const withdrawAgent = async (actor: TActor, { id }: TAgentIdInput) =>
  moveOwnAgent(
    actor,
    id,
    "draft",
    (c) => c.underReview && { version: c.underReview, to: c.underReview.state === "published_in_review" ? "published" : "draft" },
  );

export async function reorderAgents(actor: TActor, { ids }: TReorderAgentsInput) {
  await withTransaction(async (tx) => {
    await repo.lockAccountAgents(actor.id, tx);
    const own = new Set((await repo.listAgentsOf(actor.id, tx)).map((a) => a.id));
    if (ids.some((id) => !own.has(id)) || new Set(ids).size !== ids.length) throw new AppError("not_found");
    for (const [i, id] of ids.entries()) await repo.updateAgentById(id, { sortOrder: i + 1 }, tx);
  });
  return listAgents(actor);
}

export async function deleteAgent(actor: TActor, { id }: TAgentIdInput) {
  await withTransaction(async (tx) => {
    await loadOwned(actor, id, tx);
    await repo.updateAgentById(id, { deletedAt: new Date() }, tx);
  });
  return { id };
}

/** The versions that went live, newest first. Public once the agent is on the market's shelf. */
export async function getUpdateLog(actor: TActor | null, { id }: TAgentIdInput): Promise<TUpdateLog> {
  const agent = await repo.findAgentById(id);
  if (!agent) throw new AppError("not_found");
  const versions = await repo.listVersionsOf(id);
  const listed = versions.some((v) => v.state === "on_shelf");
  if (!listed) {
    if (!actor) throw new AppError("not_found");
    await loadOwned(actor, id);
  }
  const entries = versions
    .filter((v) => v.publishedAt)
    .map((v) => ({ version: v.version, update_note: v.updateNote, published_at: v.publishedAt!.toISOString() }));
  return { name: agent.name, entries };
}

// --- Review (platform administrators) -------------------------------------------------------

export async function listReviewQueue(actor: TActor): Promise<TAgentReviewItem[]> {
  assertRole(actor, "platform_admin");
  const rows = await repo.listVersionsInState(REVIEW_STATES);
  return rows.map((r) => ({
    ...toVersionView(r),
    agent_id: r.agentId,
    name: r.agent.name,
    avatar_url: r.agent.avatarUrl,
    owner: r.agent.owner.nickname || r.agent.owner.account,
    config: ZAgentInput.parse(r.config),
  }));
}

type TDecision = "approve" | "reject" | "take_down";
/**
 * Where each decision moves a version, by the state it is in. A refused listing of a published
 * version leaves it published (the owner's own use goes on), with the reason kept beside it.
 */
const DECISIONS: Record<TDecision, Partial<Record<TAgentState, TAgentState>>> = {
  approve: { under_review: "on_shelf", published_in_review: "on_shelf" },
  reject: { under_review: "removed", published_in_review: "published" },
  take_down: { on_shelf: "removed" },
};
const DECISION_TARGET: Record<TDecision, TAgentState> = { approve: "on_shelf", reject: "removed", take_down: "removed" };

async function decide(actor: TActor, { versionId, reason }: TReviewDecisionInput, decision: TDecision) {
  assertRole(actor, "platform_admin");
  return withTransaction(async (tx) => {
    const found = await repo.findVersionById(versionId, tx);
    if (!found) throw new AppError("not_found");
    await repo.lockAgent(found.agentId, tx);
    const version = (await repo.findVersionById(versionId, tx))!;
    const from = version.state as TAgentState;
    const to = DECISIONS[decision][from];
    if (!to)
      throw new AppError(from === DECISION_TARGET[decision] ? "repeat_action" : "invalid_state_transition", {
        data: { from, to: DECISION_TARGET[decision] },
        params: { from: `$t:common:agent_state.${from}`, to: `$t:common:agent_state.${DECISION_TARGET[decision]}` },
      });
    if (decision === "reject" && to === "published") {
      if (!reason?.trim()) throw new AppError("validation_failed", { data: { fields: [{ path: "reason", message: "validation.required" }] } });
      return toVersionView(await moveVersion(tx, version, to, { refusal: reason.trim() }));
    }
    return toVersionView(await moveVersion(tx, version, to, { reason, reviewerId: actor.id }));
  });
}

export const approveAgentVersion = (actor: TActor, input: TReviewDecisionInput) => decide(actor, input, "approve");
export const rejectAgentVersion = (actor: TActor, input: TReviewDecisionInput) => decide(actor, input, "reject");
export const takeDownAgentVersion = (actor: TActor, input: TReviewDecisionInput) => decide(actor, input, "take_down");

// --- For other areas ------------------------------------------------------------------------

/**
 * Marks an agent's live version invalid (a training set it uses failed or was paused),
 * with the reason shown next to it; restoreAgent undoes it when the dependency recovers.
 */
export async function invalidateAgent(agentId: string, reason: string) {
  await withTransaction(async (tx) => {
    await repo.lockAgent(agentId, tx);
    const live = classify(await repo.listVersionsOf(agentId, tx)).live;
    if (live && live.state !== "invalid") await repo.updateVersionById(live.id, { state: moveAgent(live.state as TAgentState, "invalid").state }, tx);
    await repo.updateAgentById(agentId, { invalidReason: reason }, tx);
  });
}

export async function restoreAgent(agentId: string) {
  await withTransaction(async (tx) => {
    await repo.lockAgent(agentId, tx);
    const live = classify(await repo.listVersionsOf(agentId, tx)).live;
    // A reviewed version was on the shelf before it went invalid; an unreviewed one was published.
    if (live?.state === "invalid") await repo.updateVersionById(live.id, { state: moveAgent("invalid", live.reviewedAt ? "on_shelf" : "published").state }, tx);
    await repo.updateAgentById(agentId, { invalidReason: null }, tx);
  });
}

/**
 * The configuration a chat runs with. The owner's debug chat runs the draft (what the editor
 * shows); everyone else runs the live version. Others' agents answer not-found.
 */
export async function getAgentForChat(actor: TActor, agentId: string, mode: "debug" | "live" = "debug"): Promise<TChatAgent> {
  const agent = await repo.findAgentById(agentId);
  const c = classify(agent ? await repo.listVersionsOf(agentId) : []);
  return toChatAgent(actor, agent, mode === "debug" ? (c.draft ?? c.underReview ?? c.live) : c.live, mode);
}

export type TChatAgent = { agentId: string; versionId: string; name: string; avatarUrl: string | null; config: TAgentInput };
/** Parsed configurations by version and edit time: a turn does not re-validate what did not change. */
const configCache = new Map<string, TAgentInput>();

/**
 * The access rule of a chat, for an agent and the version its mode runs (read together by the
 * chat runtime). Debug is the owner's (or their enterprise managers'). Live runs a version on the
 * market's shelf for anyone; a version published for the owner's own use (or one gone invalid) runs
 * only for the owner and their enterprise managers. Everyone else is told the agent does not exist.
 */
export function toChatAgent(
  actor: TActor,
  agent: { id: string; ownerAccountId: string; enterpriseId: string | null; name: string; avatarUrl: string | null } | null,
  version: { id: string; state: string; config: unknown; updatedAt?: Date } | null,
  mode: "debug" | "live",
): TChatAgent {
  if (!agent) throw new AppError("not_found");
  if (mode === "debug" || version?.state !== "on_shelf") assertOwned({ ...agent, accountId: agent.ownerAccountId }, actor, { enterpriseWide: true });
  if (!version) throw new AppError("not_found");
  const cacheKey = version.updatedAt ? `${version.id}|${version.updatedAt.getTime()}` : null;
  let config = cacheKey ? configCache.get(cacheKey) : undefined;
  if (!config) {
    // Frozen, not copied per turn: turns share it, and what is keyed on its parts (the gateway's
    // checked parameters, chat.service's paramsOf) stays warm from one turn to the next.
    config = deepFreeze(ZAgentInput.parse(version.config));
    if (cacheKey) {
      if (configCache.size >= 1000) configCache.clear();
      configCache.set(cacheKey, config);
    }
  }
  return { agentId: agent.id, versionId: version.id, name: agent.name, avatarUrl: agent.avatarUrl, config };
}
