// A workshop's definition (roles and nodes), its editor's inputs and its views. Every rule a
// workshop is held to lives here, so the editor and the server refuse the same input with the same
// message key. No server imports: the browser uses this file too.
import { z } from "zod";

export const SPEECH_MODES = ["sequential", "on_demand", "free"] as const;
export type TSpeechMode = (typeof SPEECH_MODES)[number];
/**
 * What a role reads of the conversation when it speaks: everything it was told of; only the
 * user's first message and the previous speaker's last one; or the previous speaker's last one alone.
 */
export const RECEIVE_RANGES = ["all", "first_and_previous", "previous"] as const;
export type TReceiveRange = (typeof RECEIVE_RANGES)[number];
/** Who is told of a message: every role, or only the roles it @mentions (and the host, and the person). */
export const NOTIFY_SCOPES = ["all", "mentioned"] as const;
export type TNotifyScope = (typeof NOTIFY_SCOPES)[number];
export const ROLE_TYPES = ["agent", "user"] as const;
export type TRoleType = (typeof ROLE_TYPES)[number];
/** Why a node, and so a run, ended. */
export const END_REASONS = ["rounds", "cycles", "host", "user", "budget", "time", "no_speaker", "loop", "failed"] as const;
export type TEndReason = (typeof END_REASONS)[number];
export const RUN_STATUSES = ["running", "waiting_user", "ended"] as const;
export type TRunStatus = (typeof RUN_STATUSES)[number];

export const WORKSHOP_LIMITS = {
  roles: 10,
  nodes: 10,
  /** Maximum rounds a node may be given: sequential speech is kept short. */
  roundsSequential: 10,
  roundsOther: 50,
  cycles: 20,
  contentsPerNode: 2,
  /** All of a workshop's node contents together, in characters. */
  contentChars: 30_000,
  roleDescription: 500,
  name: 40,
  description: 500,
  topic: 2000,
  userMessage: 4000,
  /** A run stops after this many turns in all, whatever its nodes allow. */
  turnsMax: 200,
  minutesMax: 120,
} as const;

/** The role name the host's answer uses to end the node. */
export const HOST_END = "END";
export const ROLE_NAME_RE = /^[A-Za-z0-9_-]{2,32}$/;

export const ZRole = z.object({
  name: z.string("workshops:validation.role_name").trim().regex(ROLE_NAME_RE, "workshops:validation.role_name"),
  type: z.enum(ROLE_TYPES, "workshops:validation.role_type"),
  /** The agent who plays the role: every agent role, and a hosted user role. */
  agent_id: z.string().trim().max(40).default(""),
  /** A user role played by an agent; an unhosted one waits for the person. */
  hosting: z.boolean().default(false),
  description: z.string().trim().max(WORKSHOP_LIMITS.roleDescription, "workshops:validation.role_description").default(""),
});
export type TRole = z.infer<typeof ZRole>;

export const ZNodeContent = z.object({
  title: z.string().trim().min(1, "workshops:validation.content_title").max(60, "workshops:validation.content_title"),
  text: z.string().trim().min(1, "workshops:validation.content_text").max(WORKSHOP_LIMITS.contentChars, "workshops:validation.content_limit"),
});
export type TNodeContent = z.infer<typeof ZNodeContent>;

const requiredCount = (key: string, max: number) =>
  z
    .number(`workshops:validation.${key}_required`)
    .int(`workshops:validation.${key}_required`)
    .min(1, `workshops:validation.${key}_required`)
    .max(max, `workshops:validation.${key}_max`);

export const ZNode = z.object({
  name: z.string().trim().min(1, "workshops:validation.node_name").max(40, "workshops:validation.node_name"),
  speech_mode: z.enum(SPEECH_MODES, "workshops:validation.speech_mode"),
  /** The roles who speak in this node, in speaking order. */
  roles: z.array(z.string().trim()).min(1, "workshops:validation.node_roles").max(WORKSHOP_LIMITS.roles, "workshops:validation.node_roles"),
  max_rounds: requiredCount("max_rounds", WORKSHOP_LIMITS.roundsOther),
  max_cycles: requiredCount("max_cycles", WORKSHOP_LIMITS.cycles),
  /** An agent role who picks each next speaker: on-demand speech needs one. */
  host: z.string().trim().max(32).default(""),
  /** May a role speak twice in a row. */
  allow_repeat: z.boolean().default(false),
  receive_range: z.enum(RECEIVE_RANGES, "workshops:validation.receive_range").default("all"),
  notification_scope: z.enum(NOTIFY_SCOPES, "workshops:validation.notification_scope").default("all"),
  contents: z.array(ZNodeContent).max(WORKSHOP_LIMITS.contentsPerNode, "workshops:validation.contents_max").default([]),
});
export type TNode = z.infer<typeof ZNode>;

export const ZRunLimits = z.object({
  max_turns: z.number().int().min(1, "workshops:validation.max_turns").max(WORKSHOP_LIMITS.turnsMax, "workshops:validation.max_turns").default(100),
  max_minutes: z.number().int().min(1, "workshops:validation.max_minutes").max(WORKSHOP_LIMITS.minutesMax, "workshops:validation.max_minutes").default(30),
});

type TIssueSink = { addIssue: (issue: { code: "custom"; message: string; path: (string | number)[] }) => void };

export const ZDefinition = z
  .object({
    roles: z.array(ZRole).min(1, "workshops:validation.roles_required").max(WORKSHOP_LIMITS.roles, "workshops:validation.roles_max"),
    nodes: z.array(ZNode).min(1, "workshops:validation.nodes_required").max(WORKSHOP_LIMITS.nodes, "workshops:validation.nodes_max"),
    limits: ZRunLimits.default({ max_turns: 100, max_minutes: 30 }),
  })
  .superRefine((d, ctx) => {
    checkRoles(d.roles, ctx);
    d.nodes.forEach((node, i) => checkNode(node, i, d.roles, ctx));
    const chars = d.nodes.reduce((n, node) => n + node.contents.reduce((m, c) => m + c.text.length, 0), 0);
    if (chars > WORKSHOP_LIMITS.contentChars) ctx.addIssue({ code: "custom", message: "workshops:validation.content_limit", path: ["nodes"] });
  });
export type TDefinition = z.infer<typeof ZDefinition>;
export type TDefinitionInput = z.input<typeof ZDefinition>;

function checkRoles(roles: TRole[], ctx: TIssueSink) {
  const seen = new Set<string>();
  roles.forEach((role, i) => {
    const key = role.name.toLowerCase();
    if (seen.has(key)) ctx.addIssue({ code: "custom", message: "workshops:validation.role_duplicate", path: ["roles", i, "name"] });
    seen.add(key);
    if (key === HOST_END.toLowerCase()) ctx.addIssue({ code: "custom", message: "workshops:validation.role_name_reserved", path: ["roles", i, "name"] });
    if (isPlayedByAgent(role) && !role.agent_id) ctx.addIssue({ code: "custom", message: "workshops:validation.role_agent", path: ["roles", i, "agent_id"] });
  });
  if (roles.filter((r) => r.type === "user").length > 1)
    ctx.addIssue({ code: "custom", message: "workshops:validation.one_user_role", path: ["roles", roles.findLastIndex((r) => r.type === "user"), "type"] });
}

function checkNode(node: TNode, i: number, roles: TRole[], ctx: TIssueSink) {
  const at = (...path: (string | number)[]) => ["nodes", i, ...path];
  const byName = new Map(roles.map((r) => [r.name, r]));
  node.roles.forEach((name, j) => {
    if (!byName.has(name)) ctx.addIssue({ code: "custom", message: "workshops:validation.node_role_unknown", path: at("roles", j) });
  });
  if (new Set(node.roles).size !== node.roles.length) ctx.addIssue({ code: "custom", message: "workshops:validation.node_role_twice", path: at("roles") });
  const roundsMax = node.speech_mode === "sequential" ? WORKSHOP_LIMITS.roundsSequential : WORKSHOP_LIMITS.roundsOther;
  if (node.max_rounds > roundsMax) ctx.addIssue({ code: "custom", message: `workshops:validation.max_rounds_${node.speech_mode}`, path: at("max_rounds") });
  if (node.speech_mode === "on_demand" && !node.host) ctx.addIssue({ code: "custom", message: "workshops:validation.host_required", path: at("host") });
  if (node.host) {
    const host = byName.get(node.host);
    if (!host || host.type !== "agent") ctx.addIssue({ code: "custom", message: "workshops:validation.host_agent", path: at("host") });
  }
}

/** Played by an agent: an agent role, or a user role the person left to an agent. */
export const isPlayedByAgent = (role: Pick<TRole, "type" | "hosting">) => role.type === "agent" || role.hosting;

/**
 * Picture and video models answer with a generation, not words the next speaker can read: only
 * the last node that has agents speaking may use them. `kindOf` tells an agent's model kind (the
 * editor knows it from its agent list, the server reads it).
 */
/** Whether a stored definition says the same as `d`, as the schema reads both: saving it again changes nothing. */
export function isSameDefinition(stored: unknown, d: TDefinition) {
  const parsed = ZDefinition.safeParse(stored);
  return parsed.success && JSON.stringify(parsed.data) === JSON.stringify(d);
}

export function mediaNodeIssues(d: Pick<TDefinition, "roles" | "nodes">, kindOf: (agentId: string) => string | undefined) {
  const byName = new Map(d.roles.map((r) => [r.name, r]));
  const agentOf = (name: string) => {
    const role = byName.get(name);
    return role && isPlayedByAgent(role) ? role.agent_id : null;
  };
  const agentNodes = d.nodes.map((n, i) => ({ n, i })).filter(({ n }) => n.roles.some((r) => agentOf(r)));
  const last = agentNodes[agentNodes.length - 1]?.i ?? -1;
  const issues: { path: (string | number)[]; message: string }[] = [];
  for (const { n, i } of agentNodes) {
    if (i === last) continue;
    const j = n.roles.findIndex((r) => {
      const id = agentOf(r);
      const kind = id ? kindOf(id) : undefined;
      return kind === "image" || kind === "video";
    });
    if (j >= 0) issues.push({ path: ["nodes", i, "roles", j], message: "workshops:validation.media_last_node" });
  }
  return issues;
}

export const ZWorkshopInput = z.object({
  name: z.string("workshops:validation.name").trim().min(1, "workshops:validation.name").max(WORKSHOP_LIMITS.name, "workshops:validation.name"),
  description: z.string().trim().max(WORKSHOP_LIMITS.description, "workshops:validation.description").default(""),
  icon_url: z.string().trim().max(500).default(""),
});
export type TWorkshopInput = z.infer<typeof ZWorkshopInput>;

export const ZCreateWorkshopInput = ZWorkshopInput;
export const ZUpdateWorkshopInput = ZWorkshopInput.extend({ id: z.string().min(1).max(40) });
export const ZSaveDefinitionInput = z.object({
  id: z.string().min(1).max(40),
  /** The revision the editor loaded: saving over a newer one is refused. */
  revision: z.number().int().min(1),
  definition: ZDefinition,
});
export type TSaveDefinitionInput = z.infer<typeof ZSaveDefinitionInput>;
export const ZWorkshopIdInput = z.object({ id: z.string().min(1).max(40) });

/** Starting a run: the topic opens the conversation as the user's first message. */
export const ZStartRunInput = z.object({
  topic: z.string("workshops:validation.topic").trim().min(1, "workshops:validation.topic").max(WORKSHOP_LIMITS.topic, "workshops:validation.topic"),
});
export type TStartRunInput = z.infer<typeof ZStartRunInput>;
export const ZPostRunMessageInput = z.object({
  content: z
    .string("workshops:validation.message")
    .trim()
    .min(1, "workshops:validation.message")
    .max(WORKSHOP_LIMITS.userMessage, "workshops:validation.message"),
});

export const ZWorkshopSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  iconUrl: z.string(),
  roleCount: z.number(),
  nodeCount: z.number(),
  runCount: z.number(),
  updatedAt: z.string(),
});
export type TWorkshopSummary = z.infer<typeof ZWorkshopSummary>;
/** The editor's view: the draft as saved, or null while it is still an empty or half-made one. */
export const ZWorkshopDetail = ZWorkshopSummary.extend({ revision: z.number(), definition: z.unknown() });
export type TWorkshopDetail = TWorkshopSummary & { revision: number; definition: TDefinition | null };
export const ZUsableAgent = z.object({ id: z.string(), name: z.string(), avatarUrl: z.string().nullable(), modelKind: z.string(), own: z.boolean() });
export type TUsableAgent = z.infer<typeof ZUsableAgent>;
export const ZRunSummary = z.object({ id: z.string(), topic: z.string(), status: z.string(), endReason: z.string().nullable(), createdAt: z.string() });
export type TRunSummary = z.infer<typeof ZRunSummary>;

/** What changed between an app's pinned version and the draft: roles and nodes added, removed or changed, by name. */
export const ZDefinitionChanges = z.object({
  roles: z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) }),
  nodes: z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) }),
  limits: z.boolean(),
});
export type TDefinitionChanges = z.infer<typeof ZDefinitionChanges>;
/** An app that publishes the workshop, with the version it pins and what syncing would change. */
export const ZWorkshopApp = z.object({
  appId: z.string(),
  name: z.string(),
  state: z.string(),
  versionNumber: z.number().nullable(),
  inSync: z.boolean(),
  changes: ZDefinitionChanges,
});
export type TWorkshopApp = z.infer<typeof ZWorkshopApp>;
export const ZSyncAppInput = z.object({ app_id: z.string().min(1).max(40) });

export type TRunMessageView = {
  id: string;
  seq: number;
  nodeIndex: number;
  role: string;
  kind: "topic" | "agent" | "user";
  content: string;
  status: string;
  /** The host's instruction to this speaker: the developer sees it while debugging. */
  instruction?: string;
};
export type TRunView = {
  id: string;
  workshopId: string;
  status: TRunStatus;
  endReason: TEndReason | null;
  nodeIndex: number;
  /** The role whose turn it is while the run waits for the person. */
  waitingFor: string | null;
  /** What the host asked of the person for that turn (on-demand speech): addressed to them, so theirs to read. */
  waitingInstruction: string | null;
  roles: { name: string; type: TRoleType; hosting: boolean; avatarUrl: string | null; agentName: string | null }[];
  nodes: { name: string; speechMode: TSpeechMode }[];
  messages: TRunMessageView[];
};
