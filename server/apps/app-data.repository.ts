// The queries behind an app's data (/application): counts per China-time day, feedback, the
// dialogue list with its filters and one dialogue's messages. Exports are app-export.repository.ts.
import { Prisma } from "../db/generated/client";
import { getDb, type TDbOrTx } from "../db/client";
import type { TDialogueFilters } from "./app-data.schema";
import { CHINA_OFFSET_MS } from "../lib/china-time";

const APP = { id: true, ownerAccountId: true, enterpriseId: true, name: true, iconUrl: true, type: true, state: true } as const satisfies Prisma.AppSelect;
export type TDataAppRow = Prisma.AppGetPayload<{ select: typeof APP }>;

export async function findAppForData(id: string, tx: TDbOrTx = getDb()): Promise<TDataAppRow | null> {
  return tx.app.findFirst({ where: { id, deletedAt: null }, select: APP });
}

/** The UTC instants a range of China days covers: [start, end). */
export function toUtcBounds(range: { from: string; to: string }) {
  const start = new Date(Date.parse(`${range.from}T00:00:00Z`) - CHINA_OFFSET_MS);
  const end = new Date(Date.parse(`${range.to}T00:00:00Z`) + 86_400_000 - CHINA_OFFSET_MS);
  return { start, end };
}

const dayInt = (day: string) => Number(day.replaceAll("-", ""));
// Columns are timestamp(3) holding UTC; compare with UTC wall-clock values.
const utc = (at: Date) => Prisma.sql`(${at.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
// The China day of a UTC timestamp column, as YYYY-MM-DD text.
const chinaDay = (column: Prisma.Sql) => Prisma.sql`to_char(${column} + interval '8 hours', 'YYYY-MM-DD')`;

type TDayCounts = { day: string; users: number; dialogues: number; messages: number };

/**
 * Per day: people who wrote (a dialogue's account or visitor, and AppUse's actors: an API call
 * need not keep a dialogue), dialogues with a message that day, and messages (questions and replies).
 */
export async function countPerDay(appId: string, range: { from: string; to: string }, tx: TDbOrTx = getDb()): Promise<TDayCounts[]> {
  const { start, end } = toUtcBounds(range);
  const rows = await tx.$queryRaw<{ day: string; users: bigint; dialogues: bigint; messages: bigint }[]>`
    WITH msg AS (
      SELECT ${chinaDay(Prisma.sql`m.created_at`)} AS day, m.dialogue_id, m.role::text AS role,
             COALESCE('a:' || d.account_id, 'v:' || d.visitor_id) AS who
      FROM chat_message m JOIN dialogue d ON d.id = m.dialogue_id
      WHERE d.app_id = ${appId} AND m.created_at >= ${utc(start)} AND m.created_at < ${utc(end)}
    ), actors AS (
      SELECT day, who FROM msg WHERE role = 'user' AND who IS NOT NULL
      UNION
      SELECT to_char(to_date(u.day::text, 'YYYYMMDD'), 'YYYY-MM-DD'), COALESCE('a:' || u.account_id, 'v:' || u.visitor_id, 'k:' || u.api_key_id)
      FROM app_use u WHERE u.app_id = ${appId} AND u.day BETWEEN ${dayInt(range.from)} AND ${dayInt(range.to)}
    ), days AS (SELECT day FROM msg UNION SELECT day FROM actors)
    SELECT days.day,
      (SELECT COUNT(DISTINCT who) FROM actors a WHERE a.day = days.day AND a.who IS NOT NULL) AS users,
      (SELECT COUNT(DISTINCT dialogue_id) FROM msg WHERE msg.day = days.day) AS dialogues,
      (SELECT COUNT(*) FROM msg WHERE msg.day = days.day) AS messages
    FROM days ORDER BY days.day`;
  return rows.map((r) => ({ day: r.day, users: Number(r.users), dialogues: Number(r.dialogues), messages: Number(r.messages) }));
}

/** Over the whole range: distinct people and dialogues (not the sum of the days), messages, feedback. */
export async function countTotals(appId: string, range: { from: string; to: string }, tx: TDbOrTx = getDb()) {
  const { start, end } = toUtcBounds(range);
  const [row] = await tx.$queryRaw<{ users: bigint; dialogues: bigint; messages: bigint; liked: bigint; disliked: bigint }[]>`
    WITH msg AS (
      SELECT m.dialogue_id, m.role::text AS role, m.feedback::text AS feedback, COALESCE('a:' || d.account_id, 'v:' || d.visitor_id) AS who
      FROM chat_message m JOIN dialogue d ON d.id = m.dialogue_id
      WHERE d.app_id = ${appId} AND m.created_at >= ${utc(start)} AND m.created_at < ${utc(end)}
    ), actors AS (
      SELECT who FROM msg WHERE role = 'user' AND who IS NOT NULL
      UNION
      SELECT COALESCE('a:' || u.account_id, 'v:' || u.visitor_id, 'k:' || u.api_key_id)
      FROM app_use u WHERE u.app_id = ${appId} AND u.day BETWEEN ${dayInt(range.from)} AND ${dayInt(range.to)}
    )
    SELECT (SELECT COUNT(DISTINCT who) FROM actors WHERE who IS NOT NULL) AS users,
           (SELECT COUNT(DISTINCT dialogue_id) FROM msg) AS dialogues,
           (SELECT COUNT(*) FROM msg) AS messages,
           (SELECT COUNT(*) FROM msg WHERE feedback = 'liked') AS liked,
           (SELECT COUNT(*) FROM msg WHERE feedback = 'disliked') AS disliked`;
  return {
    users: Number(row.users),
    dialogues: Number(row.dialogues),
    messages: Number(row.messages),
    liked: Number(row.liked),
    disliked: Number(row.disliked),
  };
}

/** The dialogue list's filters as a Prisma condition. Dialogues the user deleted are not shown. */
export function dialogueWhere(appId: string, filters: TDialogueFilters): Prisma.DialogueWhereInput {
  const and: Prisma.DialogueWhereInput[] = [{ appId, deletedAt: null }];
  if (filters.range) {
    const { start, end } = toUtcBounds(filters.range);
    and.push({ createdAt: { gte: start, lt: end } });
  }
  if (filters.source) and.push({ source: filters.source });
  if (filters.feedback === "liked" || filters.feedback === "disliked") and.push({ messages: { some: { feedback: filters.feedback } } });
  if (filters.feedback === "any") and.push({ messages: { some: { feedback: { in: ["liked", "disliked"] } } } });
  if (filters.feedback === "none") and.push({ messages: { none: { feedback: { in: ["liked", "disliked"] } } } });
  if (filters.keyword) {
    const contains = { contains: filters.keyword, mode: "insensitive" as const };
    and.push({ OR: [{ title: contains }, { messages: { some: { content: contains } } }] });
  }
  return { AND: and };
}

const DIALOGUE = {
  id: true,
  title: true,
  source: true,
  accountId: true,
  visitorId: true,
  createdAt: true,
  lastMessageAt: true,
  account: { select: { nickname: true, account: true } },
  _count: { select: { messages: true } },
} as const satisfies Prisma.DialogueSelect;
export type TDataDialogueRow = Prisma.DialogueGetPayload<{ select: typeof DIALOGUE }>;

export async function listDialoguesPage(appId: string, filters: TDialogueFilters, opts: { skip: number; take: number }, tx: TDbOrTx = getDb()) {
  const where = dialogueWhere(appId, filters);
  const [rows, total] = await Promise.all([
    tx.dialogue.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: opts.skip, take: opts.take, select: DIALOGUE }),
    tx.dialogue.count({ where }),
  ]);
  return { rows, total };
}

/** Dialogues in export order (oldest first), a page at a time after the last id seen. */
export async function listDialoguesAfter(
  appId: string,
  filters: TDialogueFilters,
  after: { at: Date; id: string } | null,
  take: number,
  tx: TDbOrTx = getDb(),
) {
  const where = dialogueWhere(appId, filters);
  const page: Prisma.DialogueWhereInput = after ? { OR: [{ createdAt: { gt: after.at } }, { createdAt: after.at, id: { gt: after.id } }] } : {};
  return tx.dialogue.findMany({ where: { AND: [where, page] }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take, select: DIALOGUE });
}

export async function countDialogues(appId: string, filters: TDialogueFilters, tx: TDbOrTx = getDb()) {
  return tx.dialogue.count({ where: dialogueWhere(appId, filters) });
}

/** Liked and disliked replies of each dialogue. */
export async function countFeedbackOf(dialogueIds: string[], tx: TDbOrTx = getDb()) {
  if (!dialogueIds.length) return new Map<string, { liked: number; disliked: number }>();
  const rows = await tx.chatMessage.groupBy({
    by: ["dialogueId", "feedback"],
    where: { dialogueId: { in: dialogueIds }, feedback: { in: ["liked", "disliked"] } },
    _count: { _all: true },
  });
  const map = new Map<string, { liked: number; disliked: number }>();
  for (const r of rows) {
    const entry = map.get(r.dialogueId) ?? { liked: 0, disliked: 0 };
    if (r.feedback === "liked") entry.liked = r._count._all;
    if (r.feedback === "disliked") entry.disliked = r._count._all;
    map.set(r.dialogueId, entry);
  }
  return map;
}

export async function findAppDialogueForData(appId: string, dialogueId: string, tx: TDbOrTx = getDb()) {
  return tx.dialogue.findFirst({ where: { id: dialogueId, appId, deletedAt: null }, select: DIALOGUE });
}

const MESSAGE = { id: true, dialogueId: true, role: true, content: true, feedback: true, status: true, createdAt: true } as const;

/** Messages of these dialogues, oldest first. */
export async function listMessagesOf(dialogueIds: string[], tx: TDbOrTx = getDb()) {
  if (!dialogueIds.length) return [];
  return tx.chatMessage.findMany({ where: { dialogueId: { in: dialogueIds } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: MESSAGE });
}
