// A role's turn as a turn of the chat pipeline: the role's agent answers with its own prompt,
// training sets, tools and model, charged like any reply; what it reads is the workshop's
// transcript as its node lets it see it, with the workshop's part of the system prompt (who is
// in the room, the node's contents, the host's instruction) after the agent's own.
import type { TChatAgent } from "../../agents/agents.service";
import { buildTurn, type TActor, type TTurn, type TTurnContext } from "../../turns/index";
import type { TTurnRowStore } from "../../turns/turn";
import type { TDefinition, TNode, TRole } from "../workshops.schema";
import { toRoleTranscript, visibleMessages, type TRunMessage } from "./role-view";

export type TRoleTurnInput = {
  owner: TActor;
  definition: TDefinition;
  node: TNode;
  role: TRole;
  agent: TChatAgent;
  messages: TRunMessage[];
  instruction: string;
  ctx: Omit<TTurnContext, "agent" | "existing" | "rows" | "document">;
  runId: string;
  replyId: string;
  rows: TTurnRowStore;
};

export async function buildRoleTurn(p: TRoleTurnInput): Promise<TTurn> {
  const visible = visibleMessages(p.messages, p.role.name, p.node);
  const transcript = toRoleTranscript(visible, p.role.name);
  // Retrieval looks for what the role is answering: the last thing it was told.
  const query = [...visible].reverse().find((m) => m.role !== p.role.name)?.content ?? visible[visible.length - 1]?.content ?? "";
  const ctx: TTurnContext = { ...p.ctx, agent: p.agent, existing: null, rows: [], document: null };
  const turn = await buildTurn(
    p.owner,
    { content: query.slice(0, 8000) || p.role.name, variables: {}, ctype: 0, ufids: [], images: [], agent_id: p.agent.agentId },
    ctx,
  );
  const system = turn.messages.filter((m) => m.role === "system");
  const messages = [...system];
  const room = roomText(p.definition, p.node, p.role);
  if (system.length && typeof system[0].content === "string") messages[0] = { role: "system", content: `${system[0].content}\n\n${room}` };
  else messages.unshift({ role: "system", content: room });
  messages.push(...transcript);
  const cue = cueText(p.role.name, p.instruction);
  const last = messages[messages.length - 1];
  if (last.role === "user" && typeof last.content === "string") messages[messages.length - 1] = { role: "user", content: `${last.content}\n\n${cue}` };
  else messages.push({ role: "user", content: cue });
  return { ...turn, messages, dialogueId: p.runId, replyId: p.replyId, rows: p.rows, title: p.role.name };
}

/** The workshop's part of the system prompt: the role, the others, the node's contents. */
function roomText(d: TDefinition, node: TNode, role: TRole) {
  const others = d.roles.filter((r) => r.name !== role.name).map((r) => `- ${r.name}${r.description ? `: ${r.description}` : ""}`);
  const lines = [
    `You are ${role.name} in a workshop conversation with several participants${role.description ? `. Your part: ${role.description}` : ""}.`,
    others.length ? `The other participants:\n${others.join("\n")}` : "",
    `Current stage: ${node.name}.`,
    ...node.contents.map((c) => `Material "${c.title}":\n${c.text}`),
    "Lines of the others are shown as [Name]: text. Write only your own contribution, without a name prefix. Mention a participant as @Name to address them.",
  ];
  return lines.filter(Boolean).join("\n\n");
}

function cueText(roleName: string, instruction: string) {
  return instruction ? `(${roleName}, it is your turn. The host asks you: ${instruction})` : `(${roleName}, it is your turn.)`;
}
