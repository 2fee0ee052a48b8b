import { platformRouter } from "../platform/platform.router";
import { router } from "./trpc";

export const appRouter = router({ platform: platformRouter });
export type TAppRouter = typeof appRouter;
