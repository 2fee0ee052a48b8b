// An app's data as its owner reads it on /application (data per day, dialogue details with
// filters, export). Shared by the page and the server. Days are China-time calendar days
// (YYYY-MM-DD), the same days AppUse counts free uses by.
import { z } from "zod";
import { CHINA_OFFSET_MS } from "../lib/china-time";

export const APP_SOURCES = ["h5", "api", "bot"] as const;
export type TAppSource = (typeof APP_SOURCES)[number];
export const FEEDBACK_FILTERS = ["liked", "disliked", "any", "none"] as const;
export type TFeedbackFilter = (typeof FEEDBACK_FILTERS)[number];

/** The longest range one overview or export covers. */
export const MAX_RANGE_DAYS = 366;
export const DIALOGUE_PAGE_SIZES = [10, 20, 50] as const;
export const KEYWORD_MAX = 50;

const ZId = z.string().min(1).max(40);
const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.date")
  .refine((d) => {
    // A real calendar day: "2026-02-30" parses (as March 2) but does not come back the same.
    const at = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === d;
  }, "validation.date");

/** Today in China time, as YYYY-MM-DD. */
export function toChinaDay(at: Date) {
  return new Date(at.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The day `n` days after `day` (negative: before). */
export function addDays(day: string, n: number) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included. */
export function listDays(from: string, to: string) {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

const ZRange = z
  .object({ from: ZDay, to: ZDay })
  .refine((r) => r.from <= r.to, { message: "validation.date_range", path: ["to"] })
  .refine((r) => listDays(r.from, r.to).length <= MAX_RANGE_DAYS, { message: "validation.date_range", path: ["to"] });

export const ZAppRef = z.object({ appId: ZId });
export const ZAppOverviewInput = z.object({ appId: ZId, range: ZRange });

/** What narrows the dialogue list and the export. Empty fields narrow nothing. */
export const ZDialogueFilters = z.object({
  range: ZRange.optional(),
  source: z.enum(APP_SOURCES).optional(),
  feedback: z.enum(FEEDBACK_FILTERS).optional(),
  keyword: z.string().trim().max(KEYWORD_MAX, "validation.too_long").optional(),
});
export const ZListAppDialoguesInput = z.object({
  appId: ZId,
  filters: ZDialogueFilters.default({}),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(50).default(20),
});
export const ZAppDialogueRef = z.object({ appId: ZId, dialogueId: ZId });
export const ZStartAppExportInput = z.object({ appId: ZId, filters: ZDialogueFilters.default({}) });
export const ZAppExportRef = z.object({ exportId: ZId });

export type TDialogueFilters = z.infer<typeof ZDialogueFilters>;
export type TAppRef = z.infer<typeof ZAppRef>;
export type TAppOverviewInput = z.infer<typeof ZAppOverviewInput>;
export type TListAppDialoguesInput = z.infer<typeof ZListAppDialoguesInput>;
export type TAppDialogueRef = z.infer<typeof ZAppDialogueRef>;
export type TStartAppExportInput = z.infer<typeof ZStartAppExportInput>;
export type TAppExportRef = z.infer<typeof ZAppExportRef>;

// --- What the procedures answer -------------------------------------------------------------

const ZCounts = z.object({ users: z.number(), dialogues: z.number(), messages: z.number() });
export const ZAppDayRow = ZCounts.extend({ day: z.string() });
export type TAppDayRow = z.infer<typeof ZAppDayRow>;
export const ZAppOverview = z.object({
  app: z.object({ id: z.string(), name: z.string(), icon_url: z.string(), type: z.string(), state: z.string() }),
  days: z.array(ZAppDayRow),
  totals: ZCounts.extend({ liked: z.number(), disliked: z.number() }),
});
export type TAppOverview = z.infer<typeof ZAppOverview>;

export const ZAppDialogueSummary = z.object({
  id: z.string(),
  title: z.string(),
  source: z.string().nullable(),
  /** Who chatted: an account's nickname, or "visitor" with the first characters of the visitor id. */
  user: z.object({ kind: z.enum(["account", "visitor"]), label: z.string() }),
  message_count: z.number(),
  liked: z.number(),
  disliked: z.number(),
  created_at: z.string(),
  last_message_at: z.string(),
});
export type TAppDialogueSummary = z.infer<typeof ZAppDialogueSummary>;
export const ZAppDialoguePage = z.object({ items: z.array(ZAppDialogueSummary), total: z.number(), page: z.number(), page_size: z.number() });
export type TAppDialoguePage = z.infer<typeof ZAppDialoguePage>;

export const ZAppMessageView = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  feedback: z.enum(["none", "liked", "disliked"]),
  status: z.string(),
  created_at: z.string(),
});
export type TAppMessageView = z.infer<typeof ZAppMessageView>;
export const ZAppDialogueDetail = ZAppDialogueSummary.extend({ messages: z.array(ZAppMessageView) });
export type TAppDialogueDetail = z.infer<typeof ZAppDialogueDetail>;

export const ZAppExportView = z.object({
  id: z.string(),
  state: z.enum(["pending", "running", "done", "failed"]),
  /** 0-100 while running; 100 when done. */
  progress: z.number(),
  row_count: z.number(),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** Set when done: where the owner downloads the file. */
  download_url: z.string().nullable(),
});
export type TAppExportView = z.infer<typeof ZAppExportView>;
