import { agentsRouter } from "../agents/agents.router";
import { platformRouter } from "../platform/platform.router";
import { router } from "./trpc";

export const appRouter = router({ platform: platformRouter, agents: agentsRouter });
export type TAppRouter = typeof appRouter;
