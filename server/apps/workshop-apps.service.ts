// Workshop apps beside their workshop: which apps publish it, at which version, and what a sync
// would bring (roles and nodes added, removed or changed). Syncing by hand pins the draft as it
// is now; until then the app's consumers keep running the version they had.
import type { TActor } from "../accounts/accounts.schema";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { compareWithDraft, pinVersion } from "../workshops/workshop-versions.service";
import type { TWorkshopApp } from "../workshops/workshops.schema";
import * as repo from "./apps.repository";

export async function listWorkshopApps(actor: TActor, workshopId: string): Promise<TWorkshopApp[]> {
  const apps = await repo.listWorkshopApps(actor.id, workshopId);
  const out: TWorkshopApp[] = [];
  for (const app of apps) {
    const settings = app.settings as { version_id?: string };
    const compared = await compareWithDraft(actor.id, workshopId, settings.version_id ?? null);
    if (!compared) throw new AppError("not_found");
    out.push({ appId: app.id, name: app.name, state: app.state, ...compared });
  }
  return out;
}

/** Pins the workshop's current draft on the app; its consumers' next runs run it. */
export async function syncWorkshopApp(actor: TActor, appId: string) {
  return withTransaction(async (tx) => {
    const app = await repo.findAppById(appId, tx);
    if (!app || app.ownerAccountId !== actor.id || app.type !== "workshop") throw new AppError("not_found");
    await repo.lockApp(appId, tx);
    const settings = app.settings as { workshop_id?: string };
    if (!settings.workshop_id) throw new AppError("not_found");
    const pinned = await pinVersion(actor.id, settings.workshop_id, tx);
    await repo.writeAppSettings(appId, { workshop_id: settings.workshop_id, version_id: pinned.versionId }, tx);
    await repo.replaceAppAgents(appId, pinned.agentIds, tx);
    return { appId, versionNumber: pinned.number };
  });
}
