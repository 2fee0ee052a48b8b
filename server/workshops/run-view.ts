// A run as the run view shows it: its status and why it ended, the roles with their agents' names
// and avatars, and the messages in order. The host's instructions to agents are the developer's to
// see; one to the person, for the turn they are asked to take, is theirs.
import type * as runs from "./runs.repository";
import type * as repo from "./workshops.repository";
import type { TDefinition, TEndReason, TRunMessageView, TRunStatus, TRunView } from "./workshops.schema";

/** Who looks at a run: a signed-in account (the developer, or an app's consumer) or an app's anonymous visitor. */
export type TRunViewer = { account: { id: string } | null; visitorId: string | null };

export function toRunView(run: runs.TRunRow, def: TDefinition, messages: runs.TMessageRow[], agents: repo.TRoleAgentRow[], developer: boolean): TRunView {
  const byId = new Map(agents.map((a) => [a.id, a]));
  const waiting = messages.find((m) => m.status === "waiting");
  return {
    id: run.id,
    workshopId: run.workshopId,
    status: run.status as TRunStatus,
    endReason: (run.endReason as TEndReason | null) ?? null,
    nodeIndex: run.nodeIndex,
    waitingFor: run.status === "waiting_user" ? (waiting?.roleName ?? null) : null,
    waitingInstruction: run.status === "waiting_user" ? waiting?.instruction || null : null,
    roles: def.roles.map((r) => {
      const agent = r.agent_id ? byId.get(r.agent_id) : undefined;
      return { name: r.name, type: r.type, hosting: r.hosting, avatarUrl: agent?.avatarUrl ?? null, agentName: agent?.name ?? null };
    }),
    nodes: def.nodes.map((n) => ({ name: n.name, speechMode: n.speech_mode })),
    messages: messages.filter((m) => m.status !== "waiting").map((m) => toMessageView(m, developer)),
  };
}

export function toMessageView(m: runs.TMessageRow, developer: boolean): TRunMessageView {
  return {
    id: m.id,
    seq: m.seq,
    nodeIndex: m.nodeIndex,
    role: m.roleName,
    kind: m.kind as TRunMessageView["kind"],
    content: m.content,
    status: m.status,
    ...(developer && m.instruction ? { instruction: m.instruction } : {}),
  };
}
