// Avatar training orders: a provider trains an avatar from a figure's filming video, so renders can
// lip-sync it to new audio. The order is a media job (kind avatar_training) paid when ordered (held,
// charged when the provider delivers, released when it fails); it takes working days. Its ending
// reaches the figure through a job-end hook inside the transaction that ends the job: done makes the
// figure trained with the provider's avatar, failed leaves it a usable green-screen figure.
import type { TTx } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { submitAvatarTraining } from "../media/digital-jobs.service";
import { onMediaJobEnded, type TEndedJob } from "../media/job-finish-hooks";
import { TRAINING_MIN_MS } from "./digital.schema";
import { findOwnFigure, getFigure, stateRefused, type TFigureActor } from "./figures.service";
import * as repo from "./figures.repository";
import { FIGURE_STATES, readFigureCheck, type TFigureIdInput, type TFigureState, type TFigureView } from "./figures.schema";

const ORDERABLE: readonly TFigureState[] = ["ready", "train_failed"];

/**
 * Orders the figure's training. The figure is taken into `training` first, so two orders at once
 * cannot both pay; a refused order (no provider, the balance) puts it back as it was.
 */
export async function orderFigureTraining(account: TFigureActor, { id }: TFigureIdInput): Promise<{ figure: TFigureView; holdMicro: number }> {
  const row = await findOwnFigure(account, id);
  // A bought figure is what its seller made it: its avatar (if any) came with it.
  if (row.purchasedFromId) throw new AppError("figure_purchased_refused");
  if (!ORDERABLE.includes(row.state) || row.kind === "trained") throw stateRefused(row.kind === "trained" ? "trained" : row.state);
  const durationMs = readFigureCheck(row.check).figure?.facts.durationMs ?? null;
  if (durationMs === null || durationMs < TRAINING_MIN_MS) throw new AppError("figure_footage_too_short");
  if (!row.consentFileKey) throw new AppError("figure_consent_missing");

  const before = { state: row.state, errorCode: row.errorCode, trainingJobId: row.trainingJobId };
  if (!(await repo.updateFigureFrom(id, ORDERABLE, { state: "training", errorCode: null, trainingJobId: null }, { ownerAccountId: account.id }))) {
    throw stateRefused((await findOwnFigure(account, id)).state);
  }
  let order: { jobId: string; holdMicro: number };
  try {
    order = await submitAvatarTraining({
      ownerAccountId: account.id,
      figureId: id,
      footageKey: row.sourceFileKey,
      consentKey: row.consentFileKey,
      name: row.name,
    });
  } catch (err) {
    await repo.updateFigureFrom(id, ["training"], before, { ownerAccountId: account.id });
    throw err;
  }
  // The job may have ended already (its hook found the figure by the id in its params): the id is kept whatever the state.
  await repo.updateFigureFrom(id, FIGURE_STATES, { trainingJobId: order.jobId }, { ownerAccountId: account.id });
  return { figure: await getFigure(account, { id }), holdMicro: order.holdMicro };
}

/** The figure a training job was ordered for: by the job's id, or (before the order kept it) by the id in its params. */
async function figureOfJob(job: TEndedJob, tx: TTx) {
  const byJob = await repo.findFigureByTrainingJob(job.id, tx);
  if (byJob) return byJob;
  const figureId = (job.params as { figureId?: unknown } | null)?.figureId;
  const figure = typeof figureId === "string" ? await repo.findFigureForWork(figureId, tx) : null;
  return figure && figure.ownerAccountId === job.ownerAccountId && figure.trainingJobId === null ? figure : null;
}

/** What a training's end does to its figure (in the job's own transaction). */
export async function applyTrainingEnd(job: TEndedJob, tx: TTx) {
  const figure = await figureOfJob(job, tx);
  if (!figure || figure.state !== "training") return;
  const avatarId = job.state === "done" ? (job.result?.avatarId ?? null) : null;
  if (avatarId) {
    const provider = job.result?.provider ?? (await repo.findJobProvider(job.id, tx));
    const trained = { state: "ready" as const, kind: "trained" as const, provider, providerAvatarId: avatarId, errorCode: null, trainingJobId: job.id };
    await repo.updateFigureFrom(figure.id, ["training"], trained, {}, tx);
    return;
  }
  await repo.updateFigureFrom(figure.id, ["training"], { state: "train_failed", errorCode: job.errorCode ?? "training_failed", trainingJobId: job.id }, {}, tx);
}

/** Registers the hook in this process (the worker, where jobs end); calling it again changes nothing. */
export function registerFigureHooks() {
  onMediaJobEnded(["avatar_training"], applyTrainingEnd);
}
