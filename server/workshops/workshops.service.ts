// Workshops as their developer edits them: the list, the basic information, the draft of roles and
// nodes (saved over the revision the editor loaded), and the agents its roles may name. What the
// schema cannot see is checked here: every agent a role names is the developer's own live agent,
// or one on the market's shelf they bought or that costs nothing; picture and video agents speak
// only in the last node. Another account's workshop reads as not found.
import { ZodError } from "zod";
import type { TActor } from "../accounts/accounts.schema";
import { assertOwned } from "../accounts/access";
import type { TDbOrTx } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../turns/turn";
import * as repo from "./workshops.repository";
import {
  ZDefinition,
  isPlayedByAgent,
  isSameDefinition,
  mediaNodeIssues,
  type TDefinition,
  type TSaveDefinitionInput,
  type TUsableAgent,
  type TWorkshopDetail,
  type TWorkshopInput,
  type TWorkshopSummary,
} from "./workshops.schema";

const issuesError = (issues: { path: (string | number)[]; message: string }[]) =>
  new ZodError(issues.map((i) => ({ code: "custom" as const, path: i.path, message: i.message, input: undefined })));

export async function listWorkshops(actor: TActor): Promise<TWorkshopSummary[]> {
  return (await repo.listWorkshopsOf(actor.id)).map(toSummary);
}

export async function getWorkshop(actor: TActor, id: string): Promise<TWorkshopDetail> {
  const row = await loadOwn(actor, id);
  const parsed = ZDefinition.safeParse(row.definition);
  return { ...toSummary(row), revision: row.revision, definition: parsed.success ? parsed.data : null };
}

export async function createWorkshop(actor: TActor, input: TWorkshopInput) {
  const id = newId();
  await repo.createWorkshop({ id, ownerAccountId: actor.id, name: input.name, description: input.description, iconUrl: input.icon_url, definition: {} });
  return { id };
}

export async function updateWorkshop(actor: TActor, input: TWorkshopInput & { id: string }) {
  await loadOwn(actor, input.id);
  await repo.updateWorkshopInfo(input.id, { name: input.name, description: input.description, iconUrl: input.icon_url });
  return { id: input.id };
}

export async function saveDefinition(actor: TActor, input: TSaveDefinitionInput) {
  const row = await loadOwn(actor, input.id);
  await assertUsableAgents(actor, input.definition);
  // A save that changes nothing keeps the revision: published apps stay in sync with it.
  if (row.revision === input.revision && isSameDefinition(row.definition, input.definition)) return { revision: input.revision };
  if (!(await repo.saveDefinition(input.id, input.revision, input.definition))) throw new AppError("workshop_edited_elsewhere");
  return { revision: input.revision + 1 };
}

export async function deleteWorkshop(actor: TActor, id: string) {
  await loadOwn(actor, id);
  await repo.markWorkshopDeleted(id, new Date());
  return { ok: true as const };
}

/** The agents the developer's roles may name: their own live agents, then the shelf agents they may use that they already named. */
export async function listUsableAgents(actor: TActor): Promise<TUsableAgent[]> {
  const rows = await repo.listOwnLiveAgents(actor.id);
  const kinds = await kindsOf(rows);
  return rows.map((a) => ({ id: a.id, name: a.name, avatarUrl: a.avatarUrl, modelKind: kinds.get(a.id) ?? "text", own: true }));
}

/**
 * Every agent the definition names may be used by the developer, and picture or video agents
 * speak only in the last node with agents. A refused agent is told as not usable, whoever owns it.
 */
export async function assertUsableAgents(actor: TActor, d: TDefinition, tx?: TDbOrTx) {
  const ids = [...new Set(d.roles.filter(isPlayedByAgent).map((r) => r.agent_id))];
  const rows = new Map((await repo.findRoleAgents(ids, tx)).map((a) => [a.id, a]));
  const issues: { path: (string | number)[]; message: string }[] = [];
  for (const [i, role] of d.roles.entries()) {
    if (!isPlayedByAgent(role)) continue;
    const row = rows.get(role.agent_id);
    if (!row || !(await mayUse(actor, row, tx))) issues.push({ path: ["definition", "roles", i, "agent_id"], message: "workshops:validation.agent_unusable" });
  }
  if (issues.length) throw issuesError(issues);
  const kinds = await kindsOf([...rows.values()], tx);
  const media = mediaNodeIssues(d, (id) => kinds.get(id));
  if (media.length) throw issuesError(media.map((m) => ({ ...m, path: ["definition", ...m.path] })));
}

/** The developer's own live agent; or another's on the shelf, bought outright or free of any price. */
async function mayUse(actor: TActor, a: repo.TRoleAgentRow, tx?: TDbOrTx) {
  const version = a.versions[0];
  if (!version) return false;
  if (a.ownerAccountId === actor.id) return true;
  if (version.state !== "on_shelf") return false;
  const config = version.config as { use_price_micro?: number; purchase_price_micro?: number };
  if (!config.use_price_micro && !config.purchase_price_micro) return true;
  return repo.hasAgentBuyout(actor.id, a.id, tx);
}

/** Each agent's model kind (text, image, video...), by agent id, from the model registry. */
async function kindsOf(rows: repo.TRoleAgentRow[], tx?: TDbOrTx) {
  const keyOf = (a: repo.TRoleAgentRow) => (a.versions[0]?.config as { model_key?: string } | undefined)?.model_key ?? "";
  const kinds = await repo.findModelKinds([...new Set(rows.map(keyOf).filter(Boolean))], tx);
  return new Map(rows.map((a) => [a.id, kinds.get(keyOf(a)) ?? "text"]));
}

async function loadOwn(actor: TActor, id: string) {
  const row = await repo.findWorkshop(id);
  return assertOwned(row ? { ...row, accountId: row.ownerAccountId, enterpriseId: null } : null, actor);
}

function toSummary(row: repo.TWorkshopRow): TWorkshopSummary {
  const d = row.definition as { roles?: unknown[]; nodes?: unknown[] };
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    iconUrl: row.iconUrl,
    roleCount: Array.isArray(d?.roles) ? d.roles.length : 0,
    nodeCount: Array.isArray(d?.nodes) ? d.nodes.length : 0,
    runCount: row._count.runs,
    updatedAt: row.updatedAt.toISOString(),
  };
}
