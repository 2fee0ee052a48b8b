// Figures: a person filmed before a green screen, kept as a clip keyed on our machines.
// - Uploading takes the filming video (and an optional greeting video) through the upload service
//   (content-sniffed, FILMING_LIMITS' bytes) into the public folder media/<account>/figures/, under
//   unguessable keys: digital-human apps show the figure to visitors without a session. The figure
//   starts `checking`, and the worker measures and prepares it (figure-work.service.ts).
// - Another account's figure is not found, on every verb.
// - Keying again keeps the figure usable: only its keyed still is made anew.
// - Removing keeps the row (deletedAt) and removes every file no other figure uses (a bought figure
//   shares its seller's files: figure-files.ts); a figure whose paid training runs is kept until the
//   provider answers.
import type { TSessionAccount } from "../accounts/accounts.schema";
import { AppError, isAppError } from "../errors/app-error";
import { logger } from "../lib/logger";
import type { TUploadedFile } from "../uploads/multipart";
import { acceptVideo, deleteFiles, storeFile, type TAcceptedVideo } from "../uploads/uploads.service";
import { CONSENT_LIMITS, FIGURE_NAME_MAX, FILMING_LIMITS, type TFilmingPurpose } from "./digital.schema";
import { releaseFigureFiles } from "./figure-files";
import { requestFigureMeasure, requestFigurePrepare } from "./figure-work.service";
import { keyOf, toFigureView, USABLE_STATES } from "./figure-view";
import * as repo from "./figures.repository";
import {
  EMPTY_CHECK,
  FIGURE_STATES,
  readFigureCheck,
  ZFigureName,
  type TFigureIdInput,
  type TFigureView,
  type TRenameFigureInput,
  type TSaveKeyInput,
} from "./figures.schema";

export type TFigureActor = Pick<TSessionAccount, "id">;

const fieldError = (path: string, message: string) => new AppError("validation_failed", { data: { fields: [{ path, message }] } });

/** A refusal that names the file field it is about, so the form can put it beside that field. */
function acceptFilming(file: TUploadedFile | undefined, purpose: TFilmingPurpose, field: string): TAcceptedVideo {
  try {
    return acceptVideo(file?.bytes, FILMING_LIMITS[purpose]);
  } catch (err) {
    if (!isAppError(err)) throw err;
    throw new AppError(err.code, { params: err.params, data: { ...(err.data as object | null), field }, cause: err });
  }
}

/** The name given, else the file's own name without its extension, kept within FIGURE_NAME_MAX. */
export function figureName(given: string | undefined, filename: string) {
  if (given?.trim()) {
    const parsed = ZFigureName.safeParse(given);
    if (!parsed.success) throw fieldError("name", parsed.error.issues[0].message);
    return parsed.data;
  }
  const own = (filename.split(/[\\/]/).pop() ?? "").replace(/\.[A-Za-z0-9]{1,5}$/, "").trim();
  return Array.from(own || "figure")
    .slice(0, FIGURE_NAME_MAX)
    .join("");
}

export async function uploadFigure(
  account: TFigureActor,
  files: { file?: TUploadedFile; greeting?: TUploadedFile },
  fields: { name?: string },
): Promise<TFigureView> {
  const video = acceptFilming(files.file, "figure", "file");
  const greeting = files.greeting ? acceptFilming(files.greeting, "greeting", "greeting") : null;
  const name = figureName(fields.name, files.file?.filename ?? "");
  const folder = `media/${account.id}/figures`;
  const keys: string[] = [];
  let row: repo.TFigureRow;
  try {
    keys.push(await storeFile(folder, video));
    if (greeting) keys.push(await storeFile(folder, greeting));
    row = await repo.createFigure({ ownerAccountId: account.id, name, sourceFileKey: keys[0], greetingFileKey: keys[1] ?? null, check: EMPTY_CHECK });
  } catch (err) {
    await deleteFiles(keys);
    throw err;
  }
  // After the commit: the worker reads the row on another connection.
  try {
    await requestFigureMeasure(row.id);
  } catch (err) {
    logger.error({ err, figureId: row.id }, "could not queue a figure's check");
    await repo.updateFigureFrom(row.id, ["checking"], {
      state: "check_failed",
      check: { ...EMPTY_CHECK, stage: "failed" },
      errorCode: "figure_processing_failed",
    });
    throw new AppError("system_busy", { cause: err });
  }
  return toFigureView(row);
}

/** States in which a consent clip may be given or replaced: not while a training that uses it runs. */
const CONSENT_STATES = ["ready", "train_failed"] as const;

/**
 * The person's consent clip for an avatar training order (POST /api/v1/digital/figures/:id/consent):
 * a video of them reading the page's statement, kept beside the figure's files. A bought figure is
 * not trained, so it takes none; one given again replaces the last.
 */
export async function uploadConsent(account: TFigureActor, id: string, files: { file?: TUploadedFile }): Promise<TFigureView> {
  const row = await findOwnFigure(account, id);
  if (row.purchasedFromId) throw new AppError("figure_purchased_refused");
  if (!(CONSENT_STATES as readonly string[]).includes(row.state) || row.kind === "trained") throw stateRefused(row.kind === "trained" ? "trained" : row.state);
  let video: TAcceptedVideo;
  try {
    video = acceptVideo(files.file?.bytes, CONSENT_LIMITS);
  } catch (err) {
    if (!isAppError(err)) throw err;
    throw new AppError(err.code, { params: err.params, data: { ...(err.data as object | null), field: "file" }, cause: err });
  }
  const key = await storeFile(`media/${account.id}/figures`, video);
  if (!(await repo.updateFigureFrom(id, CONSENT_STATES, { consentFileKey: key }, { ownerAccountId: account.id }))) {
    await deleteFiles([key]);
    throw stateRefused((await findOwnFigure(account, id)).state);
  }
  if (row.consentFileKey) await deleteFiles([row.consentFileKey]);
  return getFigure(account, { id });
}

async function viewOf(row: repo.TFigureRow) {
  const dates = row.trainingJobId ? await repo.findTrainingOrderDates([row.trainingJobId]) : new Map<string, Date>();
  return toFigureView(row, row.trainingJobId ? (dates.get(row.trainingJobId) ?? null) : null);
}

export async function listFigures(account: TFigureActor): Promise<{ items: TFigureView[] }> {
  const rows = await repo.listFigures(account.id);
  const dates = await repo.findTrainingOrderDates(rows.flatMap((r) => (r.trainingJobId ? [r.trainingJobId] : [])));
  return { items: rows.map((r) => toFigureView(r, r.trainingJobId ? (dates.get(r.trainingJobId) ?? null) : null)) };
}

export async function findOwnFigure(account: TFigureActor, id: string) {
  const row = await repo.findFigure(account.id, id);
  if (!row) throw new AppError("not_found");
  return row;
}

export async function getFigure(account: TFigureActor, { id }: TFigureIdInput): Promise<TFigureView> {
  return viewOf(await findOwnFigure(account, id));
}

export async function renameFigure(account: TFigureActor, { id, name }: TRenameFigureInput): Promise<TFigureView> {
  if (!(await repo.renameFigure(account.id, id, name))) throw new AppError("not_found");
  return getFigure(account, { id });
}

/** The refusal of a move the figure's state does not allow, naming the state in the reader's words. */
export const stateRefused = (state: string) => new AppError("figure_state_refused", { params: { state: `$t:figures:refused_state.${state}` } });

/** Saves the key and makes the keyed still again; the figure stays usable with its previous still meanwhile. */
export async function saveFigureKey(account: TFigureActor, { id, ...key }: TSaveKeyInput): Promise<TFigureView> {
  const row = await findOwnFigure(account, id);
  if (!(USABLE_STATES as readonly string[]).includes(row.state)) throw stateRefused(row.state);
  const before = { key: keyOf(row), check: readFigureCheck(row.check) };
  const check = { ...before.check, stage: "preparing" as const };
  if (!(await repo.updateFigureFrom(id, USABLE_STATES, { key: { ...key, color: key.color.toLowerCase() }, check }, { ownerAccountId: account.id }))) {
    throw stateRefused((await findOwnFigure(account, id)).state);
  }
  try {
    await requestFigurePrepare(id);
  } catch (err) {
    await repo.updateFigureFrom(id, USABLE_STATES, before, { ownerAccountId: account.id });
    throw new AppError("system_busy", { cause: err });
  }
  return getFigure(account, { id });
}

export async function removeFigure(account: TFigureActor, { id }: TFigureIdInput, now = new Date()): Promise<{ id: string }> {
  const row = await findOwnFigure(account, id);
  const removable = FIGURE_STATES.filter((s) => s !== "training");
  if (row.state === "training") throw stateRefused(row.state);
  // A training ordered meanwhile keeps the figure (the state guard sees it); a racing removal took it first.
  if (!(await repo.markFigureDeleted(account.id, id, removable, now))) throw stateRefused((await findOwnFigure(account, id)).state);
  await releaseFigureFiles([row.sourceFileKey, row.greetingFileKey, row.loopFileKey, row.posterFileKey]);
  return { id };
}
