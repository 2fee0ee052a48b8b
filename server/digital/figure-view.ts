// A figure's row as the pages see it: URLs for its files (never keys), its key settings, what the
// check found, where its avatar training stands, and whether it was bought or is offered for sale.
import { toPublicFileUrl } from "../uploads/uploads.service";
import { TRAINING_MIN_MS, type TKeySettings } from "./digital.schema";
import { readFigureCheck, type TFigureView } from "./figures.schema";
import type { TFigureRow } from "./figures.repository";

/** States in which a figure has its loop and keyed still and may be keyed again or used. */
export const USABLE_STATES = ["ready", "training", "train_failed"] as const;

export const keyOf = (row: Pick<TFigureRow, "keyColor" | "keySimilarity" | "keyBlend">): TKeySettings => ({
  color: row.keyColor,
  similarity: row.keySimilarity,
  blend: row.keyBlend,
});

/** The loop and still keep their keys when made again: the time they were made tells the browser to fetch them anew. */
export function versionedUrl(key: string | null, preparedAt: string | null) {
  if (!key) return null;
  return preparedAt ? `${toPublicFileUrl(key)}?v=${Date.parse(preparedAt)}` : toPublicFileUrl(key);
}

function trainingOf(row: TFigureRow, orderedAt: Date | null, durationMs: number | null): TFigureView["training"] {
  const tooShort = durationMs === null || durationMs < TRAINING_MIN_MS;
  const state = row.kind === "trained" ? "trained" : row.state === "training" ? "training" : row.state === "train_failed" ? "failed" : "none";
  return {
    state,
    orderedAt: row.trainingJobId && orderedAt ? orderedAt.toISOString() : null,
    provider: row.provider,
    errorCode: row.state === "train_failed" ? row.errorCode : null,
    canOrder: (row.state === "ready" || row.state === "train_failed") && row.kind !== "trained" && !tooShort && !row.purchasedFromId,
    tooShort,
    consentUrl: row.consentFileKey ? toPublicFileUrl(row.consentFileKey) : null,
  };
}

export function toFigureView(row: TFigureRow, orderedAt: Date | null = null): TFigureView {
  const check = readFigureCheck(row.check);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    state: row.state,
    orientation: row.orientation === "horizontal" ? "horizontal" : "vertical",
    posterUrl: versionedUrl(row.posterFileKey, check.preparedAt),
    loopUrl: versionedUrl(row.loopFileKey, check.preparedAt),
    // A bought figure's filming video is its seller's original: the buyer gets its loop and still only.
    sourceUrl: row.purchasedFromId ? null : toPublicFileUrl(row.sourceFileKey),
    greetingUrl: row.greetingFileKey ? toPublicFileUrl(row.greetingFileKey) : null,
    key: keyOf(row),
    stage: check.stage,
    check: { figure: check.figure, greeting: check.greeting },
    errorCode: row.state === "check_failed" ? row.errorCode : null,
    training: trainingOf(row, orderedAt, check.figure?.facts.durationMs ?? null),
    purchased: row.purchasedFromId !== null,
    salePriceMicro: row.salePriceMicro === null ? null : Number(row.salePriceMicro),
    createdAt: row.createdAt.toISOString(),
  };
}
