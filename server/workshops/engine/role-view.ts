// What a role reads when it speaks, and who is told of a message. A node's notification scope
// decides who is told (everyone, or only the roles a message @mentions with the host and the
// person); its receive range decides how much of what a role was told goes into its prompt. The
// role's own messages read as its replies, everyone else's as named lines, the way multi-agent
// chats are put to a chat model.
import type { TNode, TRole } from "../workshops.schema";
import { mentionedRoles } from "./next-speaker";

export type TRunMessage = { seq: number; role: string; kind: string; content: string; visibleTo: string[] };
export type TViewMessage = { role: "user" | "assistant"; content: string };

/** The role names told of a message by `speaker` in `node`. */
export function notifiedRoles(node: TNode, roles: TRole[], speaker: string, content: string): string[] {
  const names = roles.map((r) => r.name);
  if (node.notification_scope === "all") return names;
  const told = new Set([
    speaker,
    ...mentionedRoles(content, names),
    ...(node.host ? [node.host] : []),
    ...roles.filter((r) => r.type === "user").map((r) => r.name),
  ]);
  return names.filter((n) => told.has(n));
}

/** The messages `role` reads, by the node's receive range; the opening topic is told to everyone. */
export function visibleMessages(messages: TRunMessage[], role: string, node: TNode): TRunMessage[] {
  const told = messages.filter((m) => m.kind === "topic" || m.visibleTo.includes(role));
  if (node.receive_range === "all") return told;
  const last = told[told.length - 1];
  if (node.receive_range === "previous") return last ? [last] : [];
  const first = told.find((m) => m.kind === "topic");
  return first && last && first !== last ? [first, last] : first ? [first] : [];
}

/** The transcript as chat messages for `role`: its own lines as replies, others' named and merged. */
export function toRoleTranscript(visible: TRunMessage[], role: string): TViewMessage[] {
  const out: TViewMessage[] = [];
  for (const m of visible) {
    const own = m.role === role && m.kind !== "topic";
    const content = own ? m.content : `[${m.role}]: ${m.content}`;
    const prev = out[out.length - 1];
    if (prev && prev.role === "user" && !own) prev.content += `\n\n${content}`;
    else out.push({ role: own ? "assistant" : "user", content });
  }
  return out;
}
