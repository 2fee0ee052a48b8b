// Apps of every type: create and edit, the owner's lists and recycle bin, and the lifecycle
// moves (app-lifecycle.ts), including the administrators' review.
import { ZodError } from "zod";
import { type TDbOrTx, withTransaction } from "../db/transaction";
import { pinVersion } from "../workshops/workshop-versions.service";
import { AppError } from "../errors/app-error";
import { assertOwned, assertRole } from "../accounts/access";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertFeature, assertWithinLimit } from "../accounts/entitlements.service";
import { moveApp, type TAppMove } from "./app-lifecycle";
import { isServedByLink } from "../app-review-policy";
import * as repo from "./apps.repository";
import {
  isOwnMediaPath,
  MEDIA_FILES_PATH,
  parseAppSettings,
  type TAppCategory,
  type TAppIdInput,
  type TAppInput,
  type TListAppsInput,
  type TRemoveAppInput,
  type TUpdateAppInput,
  type TAppReviewItem,
  type TAppState,
  type TAppType,
  type TAppView,
  type TDigitalHumanSettings,
} from "./apps.schema";
import { ownVoiceIdOf } from "../digital/videos.schema";

type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;

const fieldError = (path: string, message: string) => new ZodError([{ code: "custom", path: path.split("."), message, input: undefined }]);

/** The form's view of a stored app: what /create_app edits with ?id=. */
export function toAppInput(row: repo.TAppRow): TAppInput {
  return {
    type: row.type as TAppType,
    name: row.name,
    name_en: row.nameEn,
    icon_url: row.iconUrl,
    introduction: row.introduction,
    introduction_en: row.introductionEn,
    category_id: row.categoryId ?? 0,
    tags: row.tags,
    platform: row.platform as TAppInput["platform"],
    agent_ids: row.agents.map((a) => a.agentId),
    style: row.style,
    recommended_questions: row.recommendedQuestions as string[],
    menu_items: row.menuItems as TAppInput["menu_items"],
    input_modes: row.inputModes as TAppInput["input_modes"],
    output_modes: row.outputModes as TAppInput["output_modes"],
    auto_play: row.autoPlay,
    speaker: row.speaker,
    background_url: row.backgroundUrl,
    welcome_messages: row.welcomeMessages as string[],
    mode: row.mode,
    plans: row.plans.map((p) => ({ kind: p.kind, quantity: p.quantity, price_micro: Number(p.priceMicro), daily_limit: p.dailyLimit })),
    trial_days: row.trialDays,
    free_per_day: row.freePerDay,
    share_ratio: row.shareRatio,
    is_public: row.isPublic,
    in_app_centre: row.inAppCentre,
    input_content: (row.inputContent as TAppInput["input_content"] | null) ?? { enabled: false, variables: [] },
    settings: (row.settings as Record<string, unknown>) ?? {},
  };
}

function toView(row: repo.TAppRow, names: Map<string, string>): TAppView {
  return {
    id: row.id,
    type: row.type as TAppType,
    state: row.state as TAppState,
    removed_reason: row.removedReason,
    link_open: isServedByLink(row),
    name: row.name,
    icon_url: row.iconUrl,
    introduction: row.introduction,
    category_id: row.categoryId,
    agent_ids: row.agents.map((a) => a.agentId),
    agent_names: row.agents.map((a) => names.get(a.agentId) ?? ""),
    is_public: row.isPublic,
    in_app_centre: row.inAppCentre,
    free_per_day: row.freePerDay,
    owner_account_id: row.ownerAccountId,
    submitted_at: row.submittedAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    deleted_at: row.deletedAt?.toISOString() ?? null,
    input: toAppInput(row),
  };
}

async function toViews(rows: repo.TAppRow[], tx?: TDbOrTx) {
  const names = new Map((await repo.findAgentNames([...new Set(rows.flatMap((r) => r.agents.map((a) => a.agentId)))], tx)).map((a) => [a.id, a.name]));
  return rows.map((r) => toView(r, names));
}

function toData(owner: { id: string; enterpriseId: string | null }, input: TAppInput): repo.TAppData {
  return {
    ownerAccountId: owner.id,
    enterpriseId: owner.enterpriseId,
    type: input.type,
    name: input.name,
    nameEn: input.name_en,
    iconUrl: input.icon_url,
    introduction: input.introduction,
    introductionEn: input.introduction_en,
    categoryId: input.category_id,
    tags: input.tags,
    platform: input.platform,
    style: input.style,
    recommendedQuestions: input.recommended_questions,
    menuItems: input.menu_items,
    inputModes: input.input_modes,
    outputModes: input.output_modes,
    autoPlay: input.auto_play,
    speaker: input.speaker,
    backgroundUrl: input.background_url,
    welcomeMessages: input.welcome_messages,
    mode: input.mode,
    trialDays: input.trial_days,
    freePerDay: input.free_per_day,
    shareRatio: input.share_ratio,
    isPublic: input.is_public,
    inAppCentre: input.in_app_centre,
    inputContent: input.input_content,
    settings: parseAppSettings(input.type, input.settings) as object,
  };
}

const toPlans = (input: TAppInput): repo.TPlanData[] =>
  input.plans.map((p) => ({ kind: p.kind, quantity: p.quantity, priceMicro: BigInt(p.price_micro), dailyLimit: p.daily_limit }));

/**
 * What the schema cannot see: the category exists, and every agent the app names (its agents, and
 * a workshop's agent roles) is the owner's and live. Another account's agent reads as not live:
 * its existence is not told.
 */
async function assertReferences(ownerId: string, input: TAppInput, tx: TDbOrTx) {
  assertOwnMedia(ownerId, input);
  await assertOwnDigitalParts(ownerId, input, tx);
  if (!(await repo.categoryExists(input.category_id, tx))) throw fieldError("category_id", "apps:validation.category_unknown");
  const live = await repo.findOwnLiveAgents(ownerId, input.agent_ids, tx);
  if (live.length !== input.agent_ids.length) throw fieldError("agent_ids", "apps:validation.agent_not_live");
}

/**
 * A workshop app runs a version of one of its owner's workshops: pinned when the app is made or
 * given another workshop, kept otherwise (a sync by hand moves it on). Its agents are the
 * workshop's own agent roles. Another account's workshop reads as not found.
 */
async function pinWorkshop(ownerId: string, input: TAppInput, kept: Record<string, unknown> | null, tx: TDbOrTx): Promise<TAppInput> {
  if (input.type !== "workshop") return input;
  const settings = parseAppSettings("workshop", input.settings) as { workshop_id: string };
  const pinned = await pinVersion(ownerId, settings.workshop_id, tx);
  const versionId = kept?.workshop_id === settings.workshop_id && typeof kept.version_id === "string" ? kept.version_id : pinned.versionId;
  return { ...input, agent_ids: pinned.agentIds, settings: { workshop_id: settings.workshop_id, version_id: versionId } };
}

/**
 * A library file an app shows (icon, background, a menu item's picture) is one of the owner's own:
 * its URL is public, so naming another account's would show their file as this app's.
 */
function assertOwnMedia(ownerId: string, input: TAppInput) {
  const pictures: Array<[string, string | null | undefined]> = [
    ["icon_url", input.icon_url],
    ["background_url", input.background_url],
    ...input.menu_items.map((m, i): [string, string | undefined] => [`menu_items.${i}.image_url`, m.image_url]),
  ];
  const foreign = pictures.find(([, url]) => url?.startsWith(MEDIA_FILES_PATH) && !isOwnMediaPath(url, ownerId));
  if (foreign) throw fieldError(foreign[0], "apps:validation.media_not_own");
}

/** A digital-human app's figure, own voice and background are the owner's: another account's read as not there. */
async function assertOwnDigitalParts(ownerId: string, input: TAppInput, tx: TDbOrTx) {
  if (input.type !== "digital_human") return;
  const scene = parseAppSettings(input.type, input.settings) as TDigitalHumanSettings;
  const voiceId = ownVoiceIdOf(scene.voice_id);
  const wanted = { figureId: scene.figure_id || undefined, voiceId: voiceId ?? undefined, itemId: scene.background_item_id };
  const found = await repo.findOwnDigitalParts(ownerId, wanted, tx);
  if ((wanted.figureId && !found.figure) || (voiceId !== null && !found.voice) || (wanted.itemId && !found.item)) throw new AppError("not_found");
}

/** Sub-account mode serves the owner's enterprise staff only: enterprise and education editions. */
async function assertModeAllowed(ownerId: string, input: TAppInput) {
  if (input.mode !== "sub_account") return;
  try {
    await assertFeature(ownerId, "subAccounts");
  } catch {
    throw fieldError("mode", "apps:validation.sub_account_edition");
  }
}

async function loadOwned(actor: TActor, id: string, tx?: TDbOrTx, opts: { deleted?: boolean } = { deleted: false }) {
  const row = await repo.findAppById(id, tx, opts);
  return assertOwned(row ? { ...row, accountId: row.ownerAccountId } : null, actor, { enterpriseWide: true });
}

async function getView(id: string, tx?: TDbOrTx) {
  const row = await repo.findAppById(id, tx);
  if (!row) throw new AppError("not_found");
  return (await toViews([row], tx))[0];
}

export async function createApp(actor: TActor, app: TAppInput): Promise<TAppView> {
  let input = app;
  await assertModeAllowed(actor.id, input);
  const id = await withTransaction(async (tx) => {
    await repo.lockAccountApps(actor.id, tx);
    await assertWithinLimit(actor.id, "apps", await repo.countAppsOf(actor.id, tx), new Date(), tx);
    input = await pinWorkshop(actor.id, input, null, tx);
    await assertReferences(actor.id, input, tx);
    const data = toData(actor, input);
    const appId = await repo.insertApp(data, input.agent_ids, toPlans(input), tx);
    await repo.writeSearchLexemes(
      { id: appId, name: input.name, tags: input.tags, introduction: input.introduction, nameEn: input.name_en, introductionEn: input.introduction_en },
      tx,
    );
    return appId;
  });
  return getView(id);
}

/** Saves the form. A listed app that is edited goes back to review (the form says so). */
export async function updateApp(actor: TActor, { id, app }: TUpdateAppInput): Promise<TAppView> {
  let input = app;
  await withTransaction(async (tx) => {
    const found = await loadOwned(actor, id, tx);
    await repo.lockApp(id, tx);
    const row = (await repo.findAppById(id, tx))!;
    if (input.type !== row.type) throw fieldError("type", "apps:validation.type");
    input = await pinWorkshop(found.ownerAccountId, input, row.settings as Record<string, unknown>, tx);
    await assertModeAllowed(found.ownerAccountId, input);
    await assertReferences(found.ownerAccountId, input, tx);
    const { ownerAccountId: _o, enterpriseId: _e, ...data } = toData({ id: found.ownerAccountId, enterpriseId: found.enterpriseId }, input);
    const back = row.state === "on_shelf" ? moveApp("on_shelf", "edit_listed") : null;
    await repo.updateAppById(id, { ...data, ...(back ? { state: back.state, submittedAt: new Date(), listedAt: null } : {}) }, tx);
    await repo.replaceAgentsAndPlans(id, input.agent_ids, toPlans(input), tx);
    await repo.writeSearchLexemes(
      { id, name: input.name, tags: input.tags, introduction: input.introduction, nameEn: input.name_en, introductionEn: input.introduction_en },
      tx,
    );
  });
  return getView(id);
}

export async function getApp(actor: TActor, { id }: TAppIdInput): Promise<TAppView> {
  await loadOwned(actor, id);
  return getView(id);
}

/** The owner's apps by type and state, or the recycle bin (/del_app). */
export async function listApps(actor: TActor, filter: TListAppsInput): Promise<TAppView[]> {
  return toViews(await repo.listAppsOf(actor.id, filter));
}

async function moveOwn(actor: TActor, { id }: TAppIdInput, move: TAppMove) {
  await withTransaction(async (tx) => {
    await loadOwned(actor, id, tx);
    await repo.lockApp(id, tx);
    const row = (await repo.findAppById(id, tx))!;
    // Going back to review checks the app still may run what it names (an agent deleted since).
    if (move === "submit" || move === "put_back") await assertReferences(row.ownerAccountId, toAppInput(row), tx);
    const moved = moveApp(row.state as TAppState, move);
    await repo.updateAppById(
      id,
      {
        state: moved.state,
        ...(moved.state === "under_review" ? { submittedAt: new Date(), removedReason: null } : {}),
        ...(moved.state === "off_shelf" ? { listedAt: null } : {}),
      },
      tx,
    );
  });
  return getView(id);
}

/** The owner resubmits a removed app. */
export const submitApp = (actor: TActor, input: TAppIdInput) => moveOwn(actor, input, "submit");
export const takeDownApp = (actor: TActor, input: TAppIdInput) => moveOwn(actor, input, "take_down");
/** Putting an app back on the shelf goes through review again. */
export const putBackApp = (actor: TActor, input: TAppIdInput) => moveOwn(actor, input, "put_back");

/** Moves the app to the recycle bin (/del_app). A listed app is taken down first: never served. */
export async function deleteApp(actor: TActor, { id }: TAppIdInput) {
  await withTransaction(async (tx) => {
    await loadOwned(actor, id, tx);
    await repo.lockApp(id, tx);
    const row = (await repo.findAppById(id, tx))!;
    const down = row.state === "on_shelf" ? moveApp("on_shelf", "take_down") : null;
    await repo.updateAppById(id, { deletedAt: new Date(), ...(down ? { state: down.state, listedAt: null } : {}) }, tx);
  });
  return { id };
}

export async function restoreApp(actor: TActor, { id }: TAppIdInput): Promise<TAppView> {
  await withTransaction(async (tx) => {
    await loadOwned(actor, id, tx, { deleted: true });
    await repo.lockApp(id, tx);
    await repo.updateAppById(id, { deletedAt: null }, tx);
  });
  return getView(id);
}

/** Deletes an app in the recycle bin for good, with its agents' links, plans and keys. */
export async function purgeApp(actor: TActor, { id }: TAppIdInput) {
  await withTransaction(async (tx) => {
    await loadOwned(actor, id, tx, { deleted: true });
    await repo.lockApp(id, tx);
    await repo.deleteAppById(id, tx);
  });
  return { id };
}

export async function listCategories(): Promise<TAppCategory[]> {
  return (await repo.listCategories()).map((c) => ({ id: c.id, slug: c.slug, names: c.names as Record<string, string> }));
}

// --- Review (platform administrators) -------------------------------------------------------

export async function listReviewQueue(actor: TActor): Promise<TAppReviewItem[]> {
  assertRole(actor, "platform_admin");
  const rows = await repo.listAppsInState("under_review");
  const views = await toViews(rows);
  return views.map((v, i) => ({ ...v, owner: rows[i].owner.nickname || rows[i].owner.account }));
}

async function decide(actor: TActor, id: string, move: "approve" | "remove", reason?: string) {
  assertRole(actor, "platform_admin");
  await withTransaction(async (tx) => {
    if (!(await repo.findAppById(id, tx, { deleted: false }))) throw new AppError("not_found");
    await repo.lockApp(id, tx);
    const row = (await repo.findAppById(id, tx))!;
    const moved = moveApp(row.state as TAppState, move, { reason });
    const now = new Date();
    // A removal is remembered until an approval: a resubmitted app stays closed to its link till then.
    await repo.updateAppById(
      id,
      {
        state: moved.state,
        removedReason: moved.reason,
        removedAt: moved.state === "removed" ? now : null,
        reviewedAt: now,
        reviewedById: actor.id,
        listedAt: moved.state === "on_shelf" ? now : null,
      },
      tx,
    );
  });
  return getView(id);
}

export async function approveApp(actor: TActor, { id }: TAppIdInput) {
  return decide(actor, id, "approve");
}

export async function removeApp(actor: TActor, { id, reason }: TRemoveAppInput) {
  return decide(actor, id, "remove", reason);
}
