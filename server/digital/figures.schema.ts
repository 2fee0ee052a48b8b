// Figures' inputs and outputs (tRPC digitalFigures.*, the upload route), and the shape of a figure's
// stored check, shared by the pages and the server. No server imports: the browser uses this file too.
import { z } from "zod";
import { FIGURE_NAME_MAX, FILMING_PROBLEMS, ORIENTATIONS, ZFilmingFacts, ZKeySettings } from "./digital.schema";

export const FIGURE_KINDS = ["green_screen", "trained"] as const;
export const FIGURE_STATES = ["checking", "check_failed", "ready", "training", "train_failed"] as const;
export type TFigureState = (typeof FIGURE_STATES)[number];

/**
 * Where the worker is with a figure's files: measuring the filming video, preparing its loop and
 * keyed still (after the check, and again after each new key), done, or failed to read the file.
 */
export const CHECK_STAGES = ["measuring", "preparing", "done", "failed"] as const;
export type TCheckStage = (typeof CHECK_STAGES)[number];

const ZJudged = z.object({ facts: ZFilmingFacts, problems: z.array(z.enum(FILMING_PROBLEMS)) });
/** The figure's `check` column: what the worker measured and the problems that refuse it. */
export const ZFigureCheck = z.object({
  stage: z.enum(CHECK_STAGES),
  figure: ZJudged.nullable(),
  greeting: ZJudged.nullable(),
  /** When the loop and keyed still were last written (their keys stay the same: the page's URLs change with it). */
  preparedAt: z.string().nullable(),
});
export type TFigureCheck = z.infer<typeof ZFigureCheck>;
export const EMPTY_CHECK: TFigureCheck = { stage: "measuring", figure: null, greeting: null, preparedAt: null };

/** A stored check as far as it reads as one; anything else reads as "still measuring". */
export function readFigureCheck(value: unknown): TFigureCheck {
  const parsed = ZFigureCheck.safeParse(value);
  return parsed.success ? parsed.data : EMPTY_CHECK;
}

const ZId = z.string().min(1).max(64);
export const ZFigureName = z.string().trim().min(1, "validation.required").max(FIGURE_NAME_MAX, "figures:validation.name_too_long");
export const ZFigureIdInput = z.object({ id: ZId });
export const ZRenameFigureInput = z.object({ id: ZId, name: ZFigureName });
export const ZSaveKeyInput = ZKeySettings.extend({ id: ZId });
/** The upload's text fields: the name is optional (the file's own name is used without it). */
export const ZUploadFigureFields = z.object({ name: z.string().optional() });

export type TFigureIdInput = z.infer<typeof ZFigureIdInput>;
export type TRenameFigureInput = z.infer<typeof ZRenameFigureInput>;
export type TSaveKeyInput = z.infer<typeof ZSaveKeyInput>;

/** A provider's avatar training of the figure: none ordered, running since `orderedAt`, trained, or failed (errorCode: the errors namespace's key). */
export const TRAINING_STATES = ["none", "training", "trained", "failed"] as const;
export const ZFigureTraining = z.object({
  state: z.enum(TRAINING_STATES),
  orderedAt: z.string().nullable(),
  provider: z.string().nullable(),
  errorCode: z.string().nullable(),
  /** Whether an order may be placed now: a usable figure, not trained or training, with enough filmed talk. */
  canOrder: z.boolean(),
  /** The filming clip is shorter than a provider needs (TRAINING_MIN_MS). */
  tooShort: z.boolean(),
  /** The person's consent clip, which an order needs first. */
  consentUrl: z.string().nullable(),
});

/** A figure as the pages see it: never its file keys, only the URLs its files are served at. */
export const ZFigureView = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(FIGURE_KINDS),
  state: z.enum(FIGURE_STATES),
  orientation: z.enum(ORIENTATIONS),
  /** The keyed still (PNG with alpha); null until prepared. */
  posterUrl: z.string().nullable(),
  /** The clip to play and key: the prepared loop, or the filming video until then. */
  loopUrl: z.string().nullable(),
  /** The filming video; null for a bought figure (its seller's original). */
  sourceUrl: z.string().nullable(),
  greetingUrl: z.string().nullable(),
  key: ZKeySettings,
  stage: z.enum(CHECK_STAGES),
  check: ZFigureCheck.omit({ stage: true, preparedAt: true }),
  /** The errors namespace's key when the files could not be read or prepared. */
  errorCode: z.string().nullable(),
  training: ZFigureTraining,
  /** Bought from another creator (a copy using the seller's prepared files): never for sale, never trained. */
  purchased: z.boolean(),
  /** Offered to other creators at this price (micro-Z); null when not for sale. */
  salePriceMicro: z.number().nullable(),
  createdAt: z.string(),
});
export type TFigureView = z.infer<typeof ZFigureView>;
export const ZFigureList = z.object({ items: z.array(ZFigureView) });
export const ZTrainingOrder = z.object({ figure: ZFigureView, holdMicro: z.number() });
export const ZRemovedFigure = z.object({ id: z.string() });
