// An app's data for its owner (/application): users, dialogues and messages per day, feedback,
// the dialogue list with filters and one dialogue's messages. Anyone else's app is not_found.
import { assertOwned } from "../accounts/access";
import { AppError } from "../errors/app-error";
import type { TSessionAccount } from "../accounts/accounts.schema";
import * as repo from "./app-data.repository";
import {
  listDays,
  type TAppDialogueRef,
  type TAppOverviewInput,
  type TListAppDialoguesInput,
  type TAppDialogueDetail,
  type TAppDialoguePage,
  type TAppDialogueSummary,
  type TAppMessageView,
  type TAppOverview,
} from "./app-data.schema";

export type TDataActor = Pick<TSessionAccount, "id" | "enterpriseId" | "roles">;

/** The app when the actor owns it; not_found for anyone else's, a deleted one, or a bad id. */
export async function getOwnedApp(actor: TDataActor, appId: string) {
  const app = await repo.findAppForData(appId);
  return assertOwned(app ? { ...app, accountId: app.ownerAccountId, enterpriseId: null } : null, actor);
}

export async function getAppOverview(actor: TDataActor, { appId, range }: TAppOverviewInput): Promise<TAppOverview> {
  const app = await getOwnedApp(actor, appId);
  const [perDay, totals] = await Promise.all([repo.countPerDay(app.id, range), repo.countTotals(app.id, range)]);
  const byDay = new Map(perDay.map((d) => [d.day, d]));
  // Every day of the range, quiet days as zeros, so the chart's bars line up with the dates.
  const days = listDays(range.from, range.to).map((day) => byDay.get(day) ?? { day, users: 0, dialogues: 0, messages: 0 });
  return { app: { id: app.id, name: app.name, icon_url: app.iconUrl, type: app.type, state: app.state }, days, totals };
}

/** Who chatted, as the owner may see it: a nickname, or an anonymous visitor's short tag. */
export function describeUser(row: Pick<repo.TDataDialogueRow, "accountId" | "visitorId" | "account">): TAppDialogueSummary["user"] {
  if (row.accountId && row.account) return { kind: "account", label: row.account.nickname || row.account.account };
  return { kind: "visitor", label: (row.visitorId ?? "").slice(0, 8) };
}

function toSummary(row: repo.TDataDialogueRow, feedback: { liked: number; disliked: number } | undefined): TAppDialogueSummary {
  return {
    id: row.id,
    title: row.title,
    source: row.source,
    user: describeUser(row),
    message_count: row._count.messages,
    liked: feedback?.liked ?? 0,
    disliked: feedback?.disliked ?? 0,
    created_at: row.createdAt.toISOString(),
    last_message_at: row.lastMessageAt.toISOString(),
  };
}

export async function listAppDialogues(actor: TDataActor, { appId, filters, page, pageSize }: TListAppDialoguesInput): Promise<TAppDialoguePage> {
  const app = await getOwnedApp(actor, appId);
  const { rows, total } = await repo.listDialoguesPage(app.id, filters, { skip: (page - 1) * pageSize, take: pageSize });
  const feedback = await repo.countFeedbackOf(rows.map((r) => r.id));
  return { items: rows.map((r) => toSummary(r, feedback.get(r.id))), total, page, page_size: pageSize };
}

/** A censored reply failed output review: it is never shown again, to the owner neither. */
export function toMessageView(m: { id: string; role: string; content: string; feedback: string; status: string; createdAt: Date }): TAppMessageView {
  return {
    id: m.id,
    role: m.role as TAppMessageView["role"],
    content: m.status === "censored" ? "" : m.content,
    feedback: m.feedback as TAppMessageView["feedback"],
    status: m.status,
    created_at: m.createdAt.toISOString(),
  };
}

export async function getAppDialogue(actor: TDataActor, { appId, dialogueId }: TAppDialogueRef): Promise<TAppDialogueDetail> {
  const app = await getOwnedApp(actor, appId);
  const row = await repo.findAppDialogueForData(app.id, dialogueId);
  if (!row) throw new AppError("not_found");
  const [feedback, messages] = await Promise.all([repo.countFeedbackOf([row.id]), repo.listMessagesOf([row.id])]);
  return { ...toSummary(row, feedback.get(row.id)), messages: messages.map(toMessageView) };
}
