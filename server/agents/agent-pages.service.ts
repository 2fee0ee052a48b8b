// What the builder's pages read besides the agents router: whether one more agent fits the
// account's edition (asked before the editor is filled in, not after), and the listed versions an
// administrator may take down.
import { assertRole } from "../accounts/access";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertWithinLimit } from "../accounts/entitlements.service";
import type { TEditionKey } from "../accounts/editions";
import { mapError } from "../errors/map-error";
import { isAppError } from "../errors/app-error";
import * as repo from "./agents.repository";

type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;

/** The edition's refusal in the reader's language, its number of agents, and the first edition allowing more (null: none). */
export type TAgentQuotaRefusal = { message: string; limit: number | null; upgrade: TEditionKey | null };

/** Null when another agent may be created, else why not. */
export async function describeAgentQuota(actor: TActor, lng?: string): Promise<TAgentQuotaRefusal | null> {
  try {
    await assertWithinLimit(actor.id, "agents", await repo.countAgentsOf(actor.id));
    return null;
  } catch (err) {
    if (!isAppError(err)) throw err;
    const data = (err.data ?? {}) as { limit?: number; upgrade?: TEditionKey | null };
    return { message: mapError(err, lng).envelope.description, limit: data.limit ?? null, upgrade: data.upgrade ?? null };
  }
}

/** Versions on the market's shelf, oldest listing first, for administrators. */
export async function listShelvedVersions(actor: TActor) {
  assertRole(actor, "platform_admin");
  const rows = await repo.listVersionsInState("on_shelf");
  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    agent_id: r.agentId,
    name: r.agent.name,
    avatar_url: r.agent.avatarUrl,
    owner: r.agent.owner.nickname || r.agent.owner.account,
    published_at: r.publishedAt?.toISOString() ?? null,
  }));
}
