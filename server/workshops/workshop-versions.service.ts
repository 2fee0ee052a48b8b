// Versions: what an app publishes is a frozen copy of the workshop, so the developer's later edits
// reach its consumers only when the developer syncs the app by hand, after seeing what changed.
// A version is taken from a draft that runs (complete, its agents usable); one taken from the same
// revision is reused rather than copied again.
import type { TDbOrTx } from "../db/transaction";
import { AppError } from "../errors/app-error";
import * as repo from "./workshops.repository";
import { assertUsableAgents } from "./workshops.service";
import { isSameDefinition, ZDefinition, type TDefinition, type TDefinitionChanges } from "./workshops.schema";

/** The version an app pins now: the latest, when it is of the current draft, else a new one. */
export async function pinVersion(ownerAccountId: string, workshopId: string, tx?: TDbOrTx) {
  const row = await repo.findWorkshop(workshopId, tx);
  if (!row || row.ownerAccountId !== ownerAccountId) throw new AppError("not_found");
  const parsed = ZDefinition.safeParse(row.definition);
  if (!parsed.success) throw new AppError("workshop_incomplete");
  await assertUsableAgents({ id: ownerAccountId, roles: [], enterpriseId: null }, parsed.data, tx);
  const agentIds = await ownRoleAgents(ownerAccountId, parsed.data, tx);
  const latest = await repo.findLatestVersion(workshopId, tx);
  if (latest && latest.revision === row.revision) return { versionId: latest.id, number: latest.number, agentIds };
  const created = await repo.createVersion({ workshopId, number: (latest?.number ?? 0) + 1, revision: row.revision, definition: parsed.data }, tx);
  return { versionId: created.id, number: created.number, agentIds };
}

/** The owner's own agents among the roles: the app lists them as the agents it runs. */
async function ownRoleAgents(ownerAccountId: string, d: TDefinition, tx?: TDbOrTx) {
  const ids = [...new Set(d.roles.map((r) => r.agent_id).filter(Boolean))];
  return (await repo.findRoleAgents(ids, tx)).filter((a) => a.ownerAccountId === ownerAccountId).map((a) => a.id);
}

/** A pinned version beside the workshop's draft: its number, whether the draft moved on, and how. */
export async function compareWithDraft(ownerAccountId: string, workshopId: string, versionId: string | null) {
  const [row, version] = await Promise.all([repo.findWorkshop(workshopId), versionId ? repo.findVersion(versionId) : null]);
  if (!row || row.ownerAccountId !== ownerAccountId) return null;
  const pinned = version && version.workshopId === workshopId ? ZDefinition.safeParse(version.definition) : null;
  const draft = ZDefinition.safeParse(row.definition);
  const changes = diffDefinitions(pinned?.success ? pinned.data : null, draft.success ? draft.data : null);
  // Edits undone since the pin leave the app in sync: what its consumers run is the draft.
  const inSync = Boolean(version && (version.revision === row.revision || (pinned?.success && isSameDefinition(row.definition, pinned.data))));
  return { versionNumber: version?.number ?? null, inSync, changes };
}

/** Roles and nodes added, removed or changed (by name) from `before` to `after`, and whether the run limits changed. */
export function diffDefinitions(before: TDefinition | null, after: TDefinition | null): TDefinitionChanges {
  const byName = <T extends { name: string }>(list: T[] | undefined) => new Map((list ?? []).map((x) => [x.name, JSON.stringify(x)]));
  const diff = (a: Map<string, string>, b: Map<string, string>) => ({
    added: [...b.keys()].filter((k) => !a.has(k)),
    removed: [...a.keys()].filter((k) => !b.has(k)),
    changed: [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k)),
  });
  return {
    roles: diff(byName(before?.roles), byName(after?.roles)),
    nodes: diff(byName(before?.nodes), byName(after?.nodes)),
    limits: JSON.stringify(before?.limits ?? null) !== JSON.stringify(after?.limits ?? null),
  };
}
