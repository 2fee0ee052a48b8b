// The live versions' configurations of the agents an app runs, for what the app pages show of
// their variables (Prisma only here).
import { getDb, type TDbOrTx } from "../db/client";

/** Newest first, live states only: the first row of an agent is the version its app chats run. */
export async function listLiveConfigsOf(agentIds: string[], tx: TDbOrTx = getDb()) {
  if (!agentIds.length) return [];
  return tx.agentVersion.findMany({
    where: { agentId: { in: agentIds }, state: { in: ["published", "published_in_review", "on_shelf", "invalid"] }, agent: { deletedAt: null } },
    orderBy: { createdAt: "desc" },
    select: { agentId: true, config: true },
  });
}
