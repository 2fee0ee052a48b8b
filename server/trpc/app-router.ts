import { appsRouter } from "../apps/apps.router";
import { botsRouter } from "../bots/bots.router";
import { agentsRouter } from "../agents/agents.router";
import { apiKeysRouter } from "../apps/api-keys.router";
import { appDataRouter } from "../apps/app-data.router";
import { databaseSetsRouter } from "../knowledge/database/database-sets.router";
import { marketRouter } from "../market/market.router";
import { mediaRouter } from "../media/media.router";
import { mediaJobsRouter } from "../media/media-jobs.router";
import { voicesRouter } from "../media/voices.router";
import { figuresRouter } from "../digital/figures.router";
import { digitalVoicesRouter } from "../digital/voices.router";
import { digitalVideosRouter } from "../digital/videos.router";
import { instancesRouter } from "../digital/instances.router";
import { platformRouter } from "../platform/platform.router";
import { trainingSetsRouter } from "../knowledge/training-sets.router";
import { workshopsRouter } from "../workshops/workshops.router";
import { workshopAppsRouter } from "../apps/workshop-apps.router";
import { router } from "./trpc";

export const appRouter = router({
  platform: platformRouter,
  agents: agentsRouter,
  databaseSets: databaseSetsRouter,
  media: mediaRouter,
  mediaJobs: mediaJobsRouter,
  voices: voicesRouter,
  digitalFigures: figuresRouter,
  digitalVoices: digitalVoicesRouter,
  digitalVideos: digitalVideosRouter,
  digitalInstances: instancesRouter,
  market: marketRouter,
  trainingSets: trainingSetsRouter,
  appData: appDataRouter,
  appApiKeys: apiKeysRouter,
  apps: appsRouter,
  bots: botsRouter,
  workshops: workshopsRouter,
  workshopApps: workshopAppsRouter,
});
export type TAppRouter = typeof appRouter;
