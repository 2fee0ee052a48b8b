// Who takes part, before any run exists: the run page shows the roles (with their agents' names and
// avatars) and the nodes, as a run's view will, so a person sees who is in the room before giving a
// topic. The developer sees their draft; an app's consumer the version the app pins.
import type { TActor } from "../accounts/accounts.schema";
import * as repo from "./workshops.repository";
import { getWorkshop } from "./workshops.service";
import { ZDefinition, type TDefinition, type TRunView } from "./workshops.schema";

export type TLineup = Pick<TRunView, "roles" | "nodes">;

/** The draft's lineup, or null while the draft is not complete enough to run. */
export async function getDraftLineup(actor: TActor, workshopId: string) {
  const workshop = await getWorkshop(actor, workshopId);
  return { workshop, lineup: workshop.definition ? await toLineup(workshop.definition) : null };
}

/** The lineup of a pinned version, or null when the version is gone or unreadable. */
export async function getVersionLineup(versionId: string): Promise<TLineup | null> {
  const version = await repo.findVersion(versionId);
  const parsed = version ? ZDefinition.safeParse(version.definition) : null;
  return parsed?.success ? toLineup(parsed.data) : null;
}

async function toLineup(def: TDefinition): Promise<TLineup> {
  const agents = new Map((await repo.findRoleAgents([...new Set(def.roles.map((r) => r.agent_id).filter(Boolean))])).map((a) => [a.id, a]));
  return {
    roles: def.roles.map((r) => {
      const agent = r.agent_id ? agents.get(r.agent_id) : undefined;
      return { name: r.name, type: r.type, hosting: r.hosting, avatarUrl: agent?.avatarUrl ?? null, agentName: agent?.name ?? null };
    }),
    nodes: def.nodes.map((n) => ({ name: n.name, speechMode: n.speech_mode })),
  };
}
