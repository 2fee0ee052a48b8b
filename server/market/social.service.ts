// The market's social actions: follow a developer (never yourself), like and collect an
// app or agent once each, comment (500 words) and reply (150), delete your own. Reading is public;
// acting needs a signed-in account. Every refusal names its reason and changes nothing: the
// reaction row, the comment and the app's counters are written in one transaction.
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertNoSensitiveInput } from "../content/content.service";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import * as catalog from "./catalog.repository";
import { decodeCursor, encodeCursor, isKeyCursor } from "./cursor";
import * as repo from "./social.repository";
import {
  ZTarget,
  type TCommentId,
  type TCommentInput,
  type TCommentView,
  type TFollowInput,
  type TFollowState,
  type TListCommentsInput,
  type TListRepliesInput,
  type TPage,
  type TReactionInput,
  type TReactionState,
  type TTargetType,
  type TViewerState,
} from "./market.schema";

export type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;
type TTarget = { targetType: TTargetType; targetId: string };

/** An on-shelf app is open to anyone (private ones by link), a sub-account app to its enterprise's staff. */
function canSeeApp(app: { ownerAccountId: string; enterpriseId: string | null; mode: string }, viewer: TActor | null) {
  if (app.mode !== "sub_account") return true;
  if (!viewer) return false;
  return viewer.id === app.ownerAccountId || Boolean(app.enterpriseId && viewer.enterpriseId === app.enterpriseId);
}

/** The owner of an app or agent the viewer may see on the market; not_found otherwise. */
export async function getOpenTargetOwner(viewer: TActor | null, target: TTarget): Promise<string> {
  if (target.targetType === "app") {
    const app = await catalog.findAppOnShelf(target.targetId);
    if (!app || !canSeeApp(app, viewer)) throw new AppError("not_found");
    return app.ownerAccountId;
  }
  const agent = await catalog.findAgentOnShelf(target.targetId);
  if (!agent) throw new AppError("not_found");
  return agent.ownerAccountId;
}

// --- Follow -------------------------------------------------------------------------------------

export async function followDeveloper(actor: TActor, { accountId }: TFollowInput): Promise<TFollowState> {
  if (accountId === actor.id) throw new AppError("cannot_follow_self");
  if (!(await repo.findAccountSummary(accountId))) throw new AppError("not_found");
  if (!(await repo.insertFollow(actor.id, accountId))) throw new AppError("repeat_action");
  return { following: true, followers: await repo.countFollowers(accountId) };
}

export async function unfollowDeveloper(actor: TActor, { accountId }: TFollowInput): Promise<TFollowState> {
  await repo.deleteFollow(actor.id, accountId);
  return { following: false, followers: await repo.countFollowers(accountId) };
}

// --- Like and collect ---------------------------------------------------------------------------

export async function addReaction(actor: TActor, input: TReactionInput): Promise<TReactionState> {
  await getOpenTargetOwner(actor, input);
  const reaction = { targetType: input.targetType, targetId: input.targetId, accountId: actor.id, kind: input.kind };
  await withTransaction(async (tx) => {
    if (!(await repo.insertReaction(reaction, tx))) throw new AppError(input.kind === "like" ? "already_liked" : "already_collected");
    if (input.targetType === "app") await repo.bumpAppCounter(input.targetId, input.kind, 1, tx);
  });
  return reactionState(input.kind, true);
}

function reactionState(kind: TReactionInput["kind"], on: boolean): TReactionState {
  return kind === "like" ? { liked: on } : { collected: on };
}

/** Undoing what was not done is not an error: the state asked for holds either way. */
export async function removeReaction(actor: TActor, input: TReactionInput): Promise<TReactionState> {
  const reaction = { targetType: input.targetType, targetId: input.targetId, accountId: actor.id, kind: input.kind };
  await withTransaction(async (tx) => {
    if ((await repo.deleteReaction(reaction, tx)) && input.targetType === "app") await repo.bumpAppCounter(input.targetId, input.kind, -1, tx);
  });
  return reactionState(input.kind, false);
}

export async function getViewerState(viewer: TActor | null, target: TTarget, ownerId: string): Promise<TViewerState> {
  if (!viewer) return { liked: false, collected: false, following: false, isOwner: false, signedIn: false };
  const [kinds, following] = await Promise.all([repo.listOwnReactions(target.targetType, target.targetId, viewer.id), repo.isFollowing(viewer.id, ownerId)]);
  return { liked: kinds.has("like"), collected: kinds.has("collect"), following, isOwner: viewer.id === ownerId, signedIn: true };
}

// --- Comments -----------------------------------------------------------------------------------

function toCommentView(row: repo.TCommentRow, viewer: TActor | null): TCommentView {
  return {
    id: row.id,
    content: row.content,
    createdAt: row.created_at.toISOString(),
    author: { id: row.account_id, nickname: row.nickname, avatarUrl: row.avatar_url },
    replyCount: row.reply_count,
    mine: viewer?.id === row.account_id,
  };
}

export async function addComment(actor: TActor, input: TCommentInput): Promise<TCommentView> {
  await getOpenTargetOwner(actor, input);
  if (input.parentId) {
    // A reply answers a visible top-level comment of the same app or agent.
    const parent = await repo.findComment(input.parentId);
    if (!parent || parent.parentId || parent.targetType !== input.targetType || parent.targetId !== input.targetId) throw new AppError("not_found");
  }
  await assertNoSensitiveInput(input.content);
  const author = await repo.findAccountSummary(actor.id);
  if (!author) throw new AppError("not_logged_in");
  const row = await withTransaction(async (tx) => {
    const created = await repo.insertComment(
      { targetType: input.targetType, targetId: input.targetId, accountId: actor.id, parentId: input.parentId ?? null, content: input.content },
      tx,
    );
    if (input.targetType === "app") await repo.bumpAppCounter(input.targetId, "comment", 1, tx);
    return created;
  });
  return {
    id: row.id,
    content: input.content,
    createdAt: row.createdAt.toISOString(),
    author: { id: author.id, nickname: author.nickname, avatarUrl: author.avatarUrl },
    replyCount: 0,
    mine: true,
  };
}

/** Only the author deletes a comment (someone else's answers not_found); its replies go with it. */
export async function deleteComment(actor: TActor, { id }: TCommentId) {
  const comment = await repo.findComment(id);
  if (!comment || comment.accountId !== actor.id) throw new AppError("not_found");
  await withTransaction(async (tx) => {
    const removed = await repo.deleteCommentThread(id, tx);
    if (removed && comment.targetType === "app") await repo.bumpAppCounter(comment.targetId, "comment", -removed, tx);
  });
  return { id };
}

function toPage(rows: (repo.TCommentRow & { at_key: string })[], limit: number, viewer: TActor | null): TPage<TCommentView> {
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items: items.map((r) => toCommentView(r, viewer)), nextCursor: more && last ? encodeCursor({ k: last.at_key, id: last.id }) : null };
}

export async function listComments(viewer: TActor | null, input: TListCommentsInput): Promise<TPage<TCommentView>> {
  await getOpenTargetOwner(viewer, input);
  const after = decodeCursor(input.cursor, isKeyCursor);
  const rows = await repo.listComments({
    targetType: input.targetType,
    targetId: input.targetId,
    after: after && { at: after.k, id: after.id },
    limit: input.limit,
  });
  return toPage(rows, input.limit, viewer);
}

export async function listReplies(viewer: TActor | null, input: TListRepliesInput): Promise<TPage<TCommentView>> {
  const parent = await repo.findComment(input.parentId);
  if (!parent || parent.parentId) throw new AppError("not_found");
  await getOpenTargetOwner(viewer, { targetType: parent.targetType as TTargetType, targetId: parent.targetId });
  const after = decodeCursor(input.cursor, isKeyCursor);
  const rows = await repo.listComments({ parentId: parent.id, after: after && { at: after.k, id: after.id }, limit: input.limit });
  return toPage(rows, input.limit, viewer);
}

/** One top-level comment, for /discussion?id=<comment> (the thread page). */
export async function getCommentThreadHead(viewer: TActor | null, { id }: TCommentId) {
  const comment = await repo.findComment(id);
  if (!comment || comment.parentId) throw new AppError("not_found");
  const target = ZTarget.parse({ targetType: comment.targetType, targetId: comment.targetId });
  await getOpenTargetOwner(viewer, target);
  return target;
}
