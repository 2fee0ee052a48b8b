// AgentUse rows (Prisma only here): one per reply given to someone using an agent they do not own.
import { getDb, type TDbOrTx } from "../../db/client";

export type TAgentUseBasis = "trial" | "use" | "buyout" | "free";

export async function insertAgentUse(
  row: { agentId: string; accountId: string; basis: TAgentUseBasis; ledgerTransactionId: string | null },
  db: TDbOrTx = getDb(),
) {
  await db.agentUse.create({ data: row, select: { id: true } });
}
