// An app's data as its owner reads it on /application (SPEC 2: data per day, dialogue details with
// filters, export). Shared by the page and the server. Days are China-time calendar days
// (YYYY-MM-DD), the same days AppUse counts free uses by.
import { z } from "zod";

export const APP_SOURCES = ["h5", "api", "bot"] as const;
export type TAppSource = (typeof APP_SOURCES)[number];
export const FEEDBACK_FILTERS = ["liked", "disliked", "any", "none"] as const;
export type TFeedbackFilter = (typeof FEEDBACK_FILTERS)[number];

/** The longest range one overview or export covers. */
export const MAX_RANGE_DAYS = 366;
export const DIALOGUE_PAGE_SIZES = [10, 20, 50] as const;
export const KEYWORD_MAX = 50;
/** China has kept one offset all year since 1991: a day starts at 16:00 UTC the day before. */
export const CHINA_OFFSET_MS = 8 * 3_600_000;

const ZId = z.string().min(1).max(40);
const ZDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "validation.date").refine((d) => {
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
export type TListAppDialoguesInput = z.input<typeof ZListAppDialoguesInput>;

export type TAppDayRow = { day: string; users: number; dialogues: number; messages: number };
export type TAppOverview = {
  app: { id: string; name: string; icon_url: string; type: string; state: string };
  days: TAppDayRow[];
  totals: { users: number; dialogues: number; messages: number; liked: number; disliked: number };
};

export type TAppDialogueSummary = {
  id: string;
  title: string;
  source: string | null;
  /** Who chatted: an account's nickname, or "visitor" with the first characters of the visitor id. */
  user: { kind: "account" | "visitor"; label: string };
  message_count: number;
  liked: number;
  disliked: number;
  created_at: string;
  last_message_at: string;
};
export type TAppDialoguePage = { items: TAppDialogueSummary[]; total: number; page: number; page_size: number };

export type TAppMessageView = { id: string; role: "user" | "assistant"; content: string; feedback: "none" | "liked" | "disliked"; status: string; created_at: string };
export type TAppDialogueDetail = TAppDialogueSummary & { messages: TAppMessageView[] };

export type TAppExportView = {
  id: string;
  state: "pending" | "running" | "done" | "failed";
  /** 0-100 while running; 100 when done. */
  progress: number;
  row_count: number;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  /** Set when done: where the owner downloads the file. */
  download_url: string | null;
};
