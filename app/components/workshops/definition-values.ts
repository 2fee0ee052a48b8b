// Between the roles-and-nodes editor and a workshop's definition. The form holds the definition's
// own shape (so a schema issue's path is the form field's name), with empty numbers kept empty
// until the schema names them. The check is the server's: ZDefinition, then the rule that picture
// and video agents speak only in the last node, read from the agents' model kinds.
import {
  ZDefinition,
  mediaNodeIssues,
  type TDefinition,
  type TNodeContent,
  type TReceiveRange,
  type TNotifyScope,
  type TRoleType,
  type TSpeechMode,
} from "../../../server/workshops/workshops.schema";

export type TRoleValues = { name: string; type: TRoleType; agent_id: string; hosting: boolean; description: string };
export type TNodeValues = {
  name: string;
  speech_mode: TSpeechMode;
  roles: string[];
  max_rounds: number | null;
  max_cycles: number | null;
  host: string;
  allow_repeat: boolean;
  receive_range: TReceiveRange;
  notification_scope: TNotifyScope;
  contents: TNodeContent[];
};
export type TDefinitionValues = { roles: TRoleValues[]; nodes: TNodeValues[]; limits: { max_turns: number | null; max_minutes: number | null } };

export type TIssue = { path: (string | number)[]; message: string };
export type TChecked = { ok: true; definition: TDefinition } | { ok: false; issues: TIssue[] };

export const newRole = (type: TRoleType = "agent"): TRoleValues => ({ name: "", type, agent_id: "", hosting: false, description: "" });

export const newNode = (name: string): TNodeValues => ({
  name,
  speech_mode: "sequential",
  roles: [],
  max_rounds: 6,
  max_cycles: 2,
  host: "",
  allow_repeat: false,
  receive_range: "all",
  notification_scope: "all",
  contents: [],
});

/** The saved draft as the form shows it; a new workshop starts with one agent role and one node. */
export function toDefinitionValues(def: TDefinition | null, firstNodeName: string): TDefinitionValues {
  if (!def) return { roles: [newRole()], nodes: [newNode(firstNodeName)], limits: { max_turns: 100, max_minutes: 30 } };
  return {
    roles: def.roles.map((r) => ({ ...r })),
    nodes: def.nodes.map((n) => ({ ...n, roles: [...n.roles], contents: n.contents.map((c) => ({ ...c })) })),
    limits: { ...def.limits },
  };
}

/** What is sent: an empty number stays missing, so the schema names the field. */
export function fromDefinitionValues(v: TDefinitionValues) {
  const num = (n: number | null | undefined) => (typeof n === "number" ? n : undefined);
  return {
    roles: (v.roles ?? []).map((r) => ({ ...r, agent_id: r.type === "agent" || r.hosting ? r.agent_id || "" : "", hosting: r.type === "user" && r.hosting })),
    nodes: (v.nodes ?? []).map((n) => ({ ...n, max_rounds: num(n.max_rounds), max_cycles: num(n.max_cycles), contents: n.contents ?? [] })),
    limits: { max_turns: num(v.limits?.max_turns), max_minutes: num(v.limits?.max_minutes) },
  };
}

/** The server's checks, in the browser: the schema, then where picture and video agents may speak. */
export function checkDefinition(v: TDefinitionValues, kindOf: (agentId: string) => string | undefined): TChecked {
  const parsed = ZDefinition.safeParse(fromDefinitionValues(v));
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => ({ path: i.path as (string | number)[], message: i.message })) };
  const media = mediaNodeIssues(parsed.data, kindOf);
  return media.length ? { ok: false, issues: media } : { ok: true, definition: parsed.data };
}

/** A server field path ("definition.nodes.0.max_rounds") as the form's path. */
export function toFormPath(path: string): (string | number)[] {
  const parts = path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return parts[0] === "definition" ? parts.slice(1) : parts;
}

/**
 * Where an issue is shown: on a field of the form, or (a rule about a whole list: no roles, the
 * contents' total) on the section it concerns. A node's speaker at some place is the node's
 * speakers field.
 */
export function placeIssue(path: (string | number)[]): { field: (string | number)[] } | { section: "roles" | "nodes" | "limits" } {
  const [list, index, key] = path;
  if (list === "limits") return key === undefined && typeof index === "string" ? { field: ["limits", index] } : { section: "limits" };
  if (list !== "roles" && list !== "nodes") return { section: "nodes" };
  if (typeof index !== "number" || key === undefined) return { section: list };
  if (list === "nodes" && key === "roles") return { field: ["nodes", index, "roles"] };
  if (list === "nodes" && key === "contents" && path.length < 5) return { field: ["nodes", index, "contents"] };
  return { field: path.slice(0, list === "nodes" && key === "contents" ? 5 : 3) };
}

/** The total characters of every node's contents: a workshop holds at most 30,000. */
export const countContentChars = (nodes: Pick<TNodeValues, "contents">[] | undefined) =>
  (nodes ?? []).reduce((n, node) => n + (node?.contents ?? []).reduce((m, c) => m + (c?.text?.trim().length ?? 0), 0), 0);

/**
 * Nodes follow their roles: a role renamed is renamed where nodes name it (as a speaker or as the
 * host); `to` empty takes a removed role out of them.
 */
export function renameRoleInNodes(nodes: TNodeValues[], from: string, to: string): TNodeValues[] {
  const map = (name: string) => (name === from ? to : name);
  return nodes.map((n) => ({ ...n, roles: n.roles.map(map).filter(Boolean), host: n.host ? map(n.host) : "" }));
}
