// What the H5 pages (/share, /mobi/dialogue, /mobi/intro) may show of an app, and to whom
// (docs/security.md, the tenant rule): only apps served by their link (on the shelf, or waiting for
// review under the "listing" review policy: app-review-policy.ts) are shown to anyone but their
// owner; a private app opens by its link; a sub_account app only for signed-in staff of the owner's
// enterprise (and the owner).
import type { TVariable } from "../agents/agents.schema";
import { readLiveVariables } from "./agent-variables.service";
import { isServedByLink } from "../app-review-policy";
import { findH5App, type TH5AppRow } from "./h5-view.repository";
import { readAppStage } from "./digital-stage.service";
import type { TH5Stage } from "../digital/app-stage.schema";

export type TH5Viewer = { id: string; enterpriseId: string | null } | null;

export type TH5MenuItem = { title: string; replyType: "text" | "link" | "picture_text"; content: string; imageUrl?: string };

/** The public view of an app: no plans, keys or owner internals. */
export type TH5App = {
  id: string;
  /** A workshop app runs on its own page (/workshop?app=), not in the chat. */
  type: string;
  name: string;
  nameEn: string;
  iconUrl: string;
  introduction: string;
  introductionEn: string;
  tags: string[];
  category: string | null;
  style: "conversation" | "qa";
  recommendedQuestions: string[];
  menuItems: TH5MenuItem[];
  inputModes: string[];
  outputModes: string[];
  autoPlay: boolean;
  backgroundUrl: string | null;
  welcomeMessages: string[];
  freePerDay: number;
  developer: { nickname: string; avatarUrl: string | null };
  isOwner: boolean;
  /** The variables of the agent's live version, filled in before the first message. */
  variables: TVariable[];
  /** A digital-human app's stage: its figure over its background, speaking the replies. */
  stage: TH5Stage | null;
};

/** Why a page cannot show the app; each is an `h5:error.<reason>` text on /mobi/error. */
export type TH5Refusal = "missing" | "removed" | "off_shelf" | "under_review" | "no_permission" | "login_required";

export type TH5Lookup = { ok: true; app: TH5App } | { ok: false; reason: TH5Refusal; removedReason?: string | null };

const readStrings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map((v) => (typeof v === "string" ? v : typeof v === "object" && v && "text" in v ? String((v as { text: unknown }).text) : "")).filter(Boolean)
    : [];

function readMenu(value: unknown): TH5MenuItem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v): TH5MenuItem[] => {
    if (!v || typeof v !== "object") return [];
    const m = v as Record<string, unknown>;
    // Stored as the editor sends it (reply_type, image_url); the schema comment's camelCase read too.
    const type = m.reply_type ?? m.replyType;
    const image = m.image_url ?? m.imageUrl;
    const replyType = type === "link" || type === "picture_text" ? type : "text";
    const title = typeof m.title === "string" ? m.title : "";
    if (!title) return [];
    return [{ title, replyType, content: typeof m.content === "string" ? m.content : "", imageUrl: typeof image === "string" ? image : undefined }];
  });
}

function readCategoryName(names: unknown, slug: string): string {
  if (names && typeof names === "object") {
    const n = names as Record<string, unknown>;
    const first = n.zh_hans ?? n.en ?? Object.values(n)[0];
    if (typeof first === "string") return first;
  }
  return slug;
}

export function toH5App(row: TH5AppRow, isOwner: boolean, variables: TVariable[] = [], stage: TH5Stage | null = null): TH5App {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    nameEn: row.nameEn,
    iconUrl: row.iconUrl,
    introduction: row.introduction,
    introductionEn: row.introductionEn,
    tags: row.tags,
    category: row.category ? readCategoryName(row.category.names, row.category.slug) : null,
    style: row.style === "qa" ? "qa" : "conversation",
    recommendedQuestions: readStrings(row.recommendedQuestions),
    menuItems: readMenu(row.menuItems),
    inputModes: row.inputModes.length ? row.inputModes : ["text"],
    outputModes: row.outputModes.length ? row.outputModes : ["text"],
    autoPlay: row.autoPlay,
    backgroundUrl: row.backgroundUrl,
    welcomeMessages: readStrings(row.welcomeMessages),
    freePerDay: row.freePerDay,
    developer: { nickname: row.owner.nickname, avatarUrl: row.owner.avatarUrl },
    isOwner,
    variables,
    stage,
  };
}

/** Decides what `viewer` may see of app `id`; ids that are not well-formed read as missing. */
export async function lookupH5App(id: string | null | undefined, viewer: TH5Viewer): Promise<TH5Lookup> {
  if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return { ok: false, reason: "missing" };
  const row = await findH5App(id);
  if (!row || row.deletedAt) return { ok: false, reason: "missing" };
  const isOwner = viewer?.id === row.ownerAccountId;
  if (!isOwner) {
    if (row.state === "removed") return { ok: false, reason: "removed", removedReason: row.removedReason };
    if (row.state === "off_shelf") return { ok: false, reason: "off_shelf" };
    if (!isServedByLink(row)) return { ok: false, reason: "under_review" };
    if (row.mode === "sub_account") {
      if (!viewer) return { ok: false, reason: "login_required" };
      // The same rule as the runtime's assertMayOpen (app-access.service.ts).
      const enterpriseId = row.enterpriseId ?? row.owner.enterpriseId;
      if (!enterpriseId || viewer.enterpriseId !== enterpriseId) return { ok: false, reason: "no_permission" };
    }
  }
  const agentId = row.agents[0]?.agentId;
  const [variables, stage] = await Promise.all([
    agentId ? readLiveVariables([agentId]).then((v) => v.get(agentId) ?? []) : [],
    row.type === "digital_human" ? readAppStage(row) : null,
  ]);
  return { ok: true, app: toH5App(row, isOwner, variables, stage) };
}
