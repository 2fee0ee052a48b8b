// Training sets and their Q&A items as their owners edit them, with their limits. Shared
// by the pages and the server: both refuse the same input with the same message key (errors ns).
import { z } from "zod";

export const TRAINING_SET_TYPES = ["standard", "smart", "database"] as const;
export type TTrainingSetType = (typeof TRAINING_SET_TYPES)[number];
/** What the list shows: the stored state, or "unavailable" while the owner's storage service is paused. */
export const ZTrainingSetStateView = z.enum(["training", "done", "failed", "stopped", "disabled", "unavailable"]);
export type TTrainingSetStateView = z.infer<typeof ZTrainingSetStateView>;

export const TRAINING_SET_NAME_MAX = 30;
export const TRAINING_SET_INTRO_MAX = 300;
export const QA_QUESTION_MAX = 500;
export const QA_ANSWER_MAX = 5000;
/** Smart sets: at most this many files in one upload form. */
export const DOCUMENTS_PER_UPLOAD = 10;
/** An import file: at most this many data rows, and at most this many bytes. */
export const QA_IMPORT_MAX_ROWS = 5000;
export const QA_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const QA_PAGE_SIZES = [10, 20, 50, 100] as const;

/** Characters as the storage is counted (code points, like Postgres char_length). */
export const countChars = (text: string) => [...text].length;

/** Two questions are the same when they differ only in case and spacing. */
export const questionKey = (q: string) => q.trim().replace(/\s+/g, " ").toLowerCase();

const ZName = z.string().trim().min(1, "validation.training_set_name").max(TRAINING_SET_NAME_MAX, "validation.training_set_name");
const ZIntroduction = z.string().trim().max(TRAINING_SET_INTRO_MAX, "validation.too_long").default("");
const ZId = z.string().min(1).max(40);

export const ZTrainingSetId = z.object({ id: ZId });
export const ZCreateTrainingSetInput = z.object({ type: z.enum(["standard", "smart"]), name: ZName, introduction: ZIntroduction });
export const ZUpdateTrainingSetInput = z.object({ id: ZId, name: ZName, introduction: ZIntroduction });

export const ZQaQuestion = z.string().trim().min(1, "validation.qa_question").max(QA_QUESTION_MAX, "validation.qa_question");
export const ZQaAnswer = z.string().trim().min(1, "validation.qa_answer").max(QA_ANSWER_MAX, "validation.qa_answer");
export const ZQaItemFields = z.object({ question: ZQaQuestion, answer: ZQaAnswer });
export const ZAddQaItemInput = ZQaItemFields.extend({ id: ZId });
export const ZUpdateQaItemInput = ZQaItemFields.extend({ id: ZId, itemId: ZId });
export const ZQaItemRef = z.object({ id: ZId, itemId: ZId });
export const ZListQaItemsInput = z.object({
  id: ZId,
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(100).default(""),
});
export const ZDocumentRef = z.object({ id: ZId, documentId: ZId });
export const ZQaExportFormat = z.enum(["xlsx", "csv"]);

export type TTrainingSetIdInput = z.infer<typeof ZTrainingSetId>;
export type TCreateTrainingSetInput = z.infer<typeof ZCreateTrainingSetInput>;
export type TUpdateTrainingSetInput = z.infer<typeof ZUpdateTrainingSetInput>;
export type TQaItemFields = z.infer<typeof ZQaItemFields>;
export type TAddQaItemInput = z.infer<typeof ZAddQaItemInput>;
export type TUpdateQaItemInput = z.infer<typeof ZUpdateQaItemInput>;
export type TQaItemRef = z.infer<typeof ZQaItemRef>;
export type TListQaItemsInput = z.infer<typeof ZListQaItemsInput>;
export type TDocumentRef = z.infer<typeof ZDocumentRef>;
export type TQaExportFormat = z.infer<typeof ZQaExportFormat>;

/** An agent that uses a set: its draft or live version lists the set. */
export const ZTrainingSetAgent = z.object({ id: z.string(), name: z.string() });

export const ZTrainingSetSummary = z.object({
  id: z.string(),
  name: z.string(),
  introduction: z.string(),
  type: z.enum(TRAINING_SET_TYPES),
  state: ZTrainingSetStateView,
  progress: z.number(),
  char_count: z.number(),
  failure_reason: z.string().nullable(),
  agents: z.array(ZTrainingSetAgent),
  created_at: z.string(),
  updated_at: z.string(),
});

export const ZTrainingDocumentView = z.object({
  id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number(),
  char_count: z.number(),
  state: z.enum(["pending", "indexing", "done", "failed"]),
  error: z.string().nullable(),
  created_at: z.string(),
});

export const ZTrainingSetDetail = ZTrainingSetSummary.extend({
  item_count: z.number(),
  documents: z.array(ZTrainingDocumentView),
  chars_used: z.number(),
  chars_limit: z.number(),
});

export const ZQaItemView = z.object({ id: z.string(), question: z.string(), answer: z.string(), position: z.number(), updated_at: z.string() });
export const ZQaItemPage = z.object({ items: z.array(ZQaItemView), total: z.number(), page: z.number(), pageSize: z.number() });
/** What a delete answers: the id of what went (the set, the item or the document). */
export const ZDeletedId = z.object({ id: z.string() });

export type TTrainingSetAgent = z.infer<typeof ZTrainingSetAgent>;
export type TTrainingSetSummary = z.infer<typeof ZTrainingSetSummary>;
export type TTrainingDocumentView = z.infer<typeof ZTrainingDocumentView>;
export type TTrainingSetDetail = z.infer<typeof ZTrainingSetDetail>;
export type TQaItemView = z.infer<typeof ZQaItemView>;
export type TQaItemPage = z.infer<typeof ZQaItemPage>;

export const QA_REFUSAL_REASONS = ["empty_question", "empty_answer", "question_too_long", "answer_too_long", "duplicate_in_file", "duplicate_in_set"] as const;
export type TQaRefusalReason = (typeof QA_REFUSAL_REASONS)[number];
/** One data row of an import: its row number in the file, and whether it was added or why not. */
export type TQaImportRow = { row: number; question: string; status: "added" | "refused"; reason?: TQaRefusalReason; duplicate_of?: number };
export type TQaImportReport = { added: number; refused: number; rows: TQaImportRow[] };

/** The actions on a set's state (training-set-lifecycle.ts has the table). */
export const TRAINING_SET_ACTIONS = ["stop", "disable", "enable", "retrain"] as const;
export type TTrainingSetAction = (typeof TRAINING_SET_ACTIONS)[number];
export const ZTrainingSetActionInput = z.object({ id: ZId, action: z.enum(TRAINING_SET_ACTIONS) });
export type TTrainingSetActionInput = z.infer<typeof ZTrainingSetActionInput>;
