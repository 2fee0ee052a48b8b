// A workshop app's consumer starting a run: who may open the app, the app's plans and free counts
// (one use per run, given back when the run cannot start), then the workshop's own start, at the
// version the app pins. Following, speaking in and stopping the run are the workshop's.
import { AppError } from "../errors/app-error";
import { getVersionLineup } from "../workshops/lineup.service";
import { listConsumerRuns, startPinnedRun } from "../workshops/runs.service";
import type { TStartRunInput } from "../workshops/workshops.schema";
import { loadOpenableApp } from "./app-access.service";
import { assertMayUse, claimUse, releaseUse, type TConsumer, type TUseSource } from "./app-entitlements.service";

export async function startWorkshopAppRun(consumer: TConsumer, appId: string, source: TUseSource, input: TStartRunInput, lng: string) {
  const app = await loadOpenableApp(appId, consumer, source);
  if (app.type !== "workshop") throw new AppError("not_found");
  const settings = (app.settings ?? {}) as { workshop_id?: string; version_id?: string };
  if (!settings.workshop_id || !settings.version_id) throw new AppError("not_found");
  await assertMayUse(app, consumer);
  const claim = await claimUse(app, consumer, { source });
  try {
    return await startPinnedRun({
      appId: app.id,
      ownerAccountId: app.ownerAccountId,
      workshopId: settings.workshop_id,
      versionId: settings.version_id,
      consumer,
      source,
      topic: input.topic,
      lng,
    });
  } catch (err) {
    await releaseUse(claim);
    throw err;
  }
}

/** The consumer's own runs of the app (an app they may open), newest first. */
export async function listWorkshopAppRuns(consumer: TConsumer, appId: string, source: TUseSource) {
  const app = await loadOpenableApp(appId, consumer, source);
  if (app.type !== "workshop") throw new AppError("not_found");
  return listConsumerRuns(consumer, app.id);
}

/** Who takes part in the app's workshop (the version it pins), for a consumer who may open the app. */
export async function getWorkshopAppLineup(consumer: TConsumer, appId: string, source: TUseSource) {
  const app = await loadOpenableApp(appId, consumer, source);
  const versionId = app.type === "workshop" ? (app.settings as { version_id?: string } | null)?.version_id : undefined;
  const lineup = versionId ? await getVersionLineup(versionId) : null;
  if (!lineup) throw new AppError("not_found");
  return lineup;
}
