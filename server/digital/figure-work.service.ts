// The worker's two steps of a figure. "digital.figure-measure": the filming video (and the greeting
// video) measured by the file tools and judged by the shared rules (digital.schema.ts); a refused
// figure keeps its problems in `check`, an accepted one gets the measured key colour and its
// orientation, and goes on to "digital.figure-prepare": the loop clip and the keyed still made with
// the figure's key. Keying again runs the second step alone; the figure stays usable meanwhile.
// Both steps read the row when they run, so a step run twice (a retried job) writes the same again.
// A bought figure shares its seller's files: preparing it writes its own loop and still under its
// owner's keys and never over the seller's (figure-files.ts).
import type { Job } from "bullmq";
import { enqueueJob, type TJobPayload } from "../jobs/jobs";
import { logger } from "../lib/logger";
import { getFileWork } from "../media/file-work";
import { DEFAULT_KEY, judgeFilming, type TFilmingFacts, type TKeySettings } from "./digital.schema";
import { chooseOutputKeys, releaseFigureFiles } from "./figure-files";
import { keyOf, USABLE_STATES } from "./figure-view";
import { readFigureCheck, type TFigureCheck } from "./figures.schema";
import * as repo from "./figures.repository";

type TStepOutcome = "done" | "refused" | "failed" | "gone";

/** Queues the measuring of a new figure (once per figure: asking twice is the same job). */
export function requestFigureMeasure(figureId: string) {
  return enqueueJob("digital.figure-measure", { figureId }, { jobId: `figure-measure-${figureId}` });
}

/** Queues making the loop and keyed still with the figure's key as it is when the job runs. */
export function requestFigurePrepare(figureId: string) {
  return enqueueJob("digital.figure-prepare", { figureId });
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const measuredKey = (facts: TFilmingFacts): TKeySettings => ({
  ...DEFAULT_KEY,
  color: HEX.test(facts.keyColor) ? facts.keyColor.toLowerCase() : DEFAULT_KEY.color,
});
const sameKey = (a: TKeySettings, b: TKeySettings) => a.color.toLowerCase() === b.color.toLowerCase() && a.similarity === b.similarity && a.blend === b.blend;

async function measureBoth(sourceKey: string, greetingKey: string | null) {
  const work = getFileWork();
  const figure = await work.measureFilming(sourceKey);
  const greeting = greetingKey ? await work.measureFilming(greetingKey) : null;
  return {
    figure: { facts: figure, problems: judgeFilming(figure, "figure") },
    greeting: greeting ? { facts: greeting, problems: judgeFilming(greeting, "greeting") } : null,
  };
}

export async function handleFigureMeasure({ figureId }: TJobPayload<"digital.figure-measure">, _job?: Job): Promise<TStepOutcome> {
  const figure = await repo.findFigureForWork(figureId);
  if (!figure || figure.state !== "checking") return "gone";
  let judged: Awaited<ReturnType<typeof measureBoth>>;
  try {
    judged = await measureBoth(figure.sourceFileKey, figure.greetingFileKey);
  } catch (err) {
    logger.warn({ err, figureId }, "measuring a figure's filming video failed");
    const check: TFigureCheck = { ...readFigureCheck(figure.check), stage: "failed" };
    await repo.updateFigureFrom(figureId, ["checking"], { state: "check_failed", check, errorCode: "figure_processing_failed" });
    return "failed";
  }
  const refused = judged.figure.problems.length > 0 || (judged.greeting?.problems.length ?? 0) > 0;
  if (refused) {
    await repo.updateFigureFrom(figureId, ["checking"], { state: "check_failed", check: { ...judged, stage: "done", preparedAt: null } });
    return "refused";
  }
  const { width, height } = judged.figure.facts;
  const moved = await repo.updateFigureFrom(figureId, ["checking"], {
    check: { ...judged, stage: "preparing", preparedAt: null },
    orientation: (height ?? 0) > (width ?? 0) ? "vertical" : "horizontal",
    key: measuredKey(judged.figure.facts),
  });
  if (moved) await requestFigurePrepare(figureId);
  return moved ? "done" : "gone";
}

/** After a failed preparation: a new figure is refused; a usable one keeps its previous loop and still. */
async function prepareFailed(figureId: string, err: unknown): Promise<TStepOutcome> {
  logger.warn({ err, figureId }, "preparing a figure's loop and keyed still failed");
  const figure = await repo.findFigureForWork(figureId);
  if (!figure) return "gone";
  const check: TFigureCheck = { ...readFigureCheck(figure.check), stage: figure.state === "checking" ? "failed" : "done" };
  if (figure.state === "checking") await repo.updateFigureFrom(figureId, ["checking"], { state: "check_failed", check, errorCode: "figure_processing_failed" });
  else await repo.updateFigureFrom(figureId, [figure.state], { check });
  return "failed";
}

export async function handleFigurePrepare({ figureId }: TJobPayload<"digital.figure-prepare">, _job?: Job): Promise<TStepOutcome> {
  const figure = await repo.findFigureForWork(figureId);
  if (!figure) return "gone";
  const usable = (USABLE_STATES as readonly string[]).includes(figure.state);
  if (!usable && !(figure.state === "checking" && readFigureCheck(figure.check).stage === "preparing")) return "gone";
  const key = keyOf(figure);
  let made: { loop: string; poster: string };
  try {
    made = await getFileWork().prepareFigure(figure.sourceFileKey, key, await chooseOutputKeys(figure));
  } catch (err) {
    return prepareFailed(figureId, err);
  }
  const now = await repo.findFigureForWork(figureId);
  if (!now) {
    // Removed while its files were made: they go too.
    await releaseFigureFiles([made.loop, made.poster]);
    return "gone";
  }
  // A key saved meanwhile queued another job, which makes the still the creator chose last.
  const current = sameKey(keyOf(now), key);
  const check: TFigureCheck = { ...readFigureCheck(now.check), stage: current ? "done" : "preparing", preparedAt: new Date().toISOString() };
  const moved = await repo.updateFigureFrom(figureId, [now.state], {
    ...(now.state === "checking" ? { state: "ready" as const } : {}),
    check,
    loopFileKey: made.loop,
    posterFileKey: made.poster,
  });
  // Written under fresh keys: the ones it used before are released (a seller's stay while anyone uses them).
  if (moved) await releaseFigureFiles([now.loopFileKey, now.posterFileKey].filter((k) => k !== made.loop && k !== made.poster));
  return moved ? "done" : "gone";
}
