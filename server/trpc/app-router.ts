import { agentsRouter } from "../agents/agents.router";
import { databaseSetsRouter } from "../knowledge/database/database-sets.router";
import { platformRouter } from "../platform/platform.router";
import { router } from "./trpc";

export const appRouter = router({ platform: platformRouter, agents: agentsRouter, databaseSets: databaseSetsRouter });
export type TAppRouter = typeof appRouter;
