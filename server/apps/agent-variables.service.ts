// The variables of the agents apps run, as the runtime will check them: the H5 chat asks visitors
// for them before the first message, and the app form tells the developer which are required.
import { z } from "zod";
import { ZVariable, type TVariable } from "../agents/agents.schema";
import { listLiveConfigsOf } from "./agent-variables.repository";

const ZVariables = z.array(ZVariable);

/** Each agent's live variables (none for an agent without a live version). */
export async function readLiveVariables(agentIds: string[]): Promise<Map<string, TVariable[]>> {
  const rows = await listLiveConfigsOf(agentIds);
  const byAgent = new Map<string, TVariable[]>(agentIds.map((id) => [id, []]));
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.agentId)) continue;
    seen.add(row.agentId);
    // A configuration that no longer parses asks for nothing here; the runtime refuses it on its own.
    const parsed = ZVariables.safeParse((row.config as { variables?: unknown } | null)?.variables ?? []);
    byAgent.set(row.agentId, parsed.success ? parsed.data : []);
  }
  return byAgent;
}

/** What the app form shows of one variable. */
export type TAgentVariableNote = { name: string; required: boolean; hasDefault: boolean };

export const toVariableNotes = (variables: TVariable[]): TAgentVariableNote[] =>
  variables.map((v) => ({ name: v.name, required: v.required, hasDefault: Boolean(v.default) }));
