import { ZScreenLock, ZSetScreenLockInput, ZSystemConfig } from "./platform.schema";
import { getScreenLock, getSystemConfig, setScreenLock } from "./platform.service";
import { ZAdminQueue } from "./admin-queue.schema";
import { getAdminQueue } from "./admin-queue.service";
import { adminProcedure, publicProcedure, router } from "../trpc/trpc";

export const platformRouter = router({
  systemConfig: publicProcedure.output(ZSystemConfig).query(() => getSystemConfig()),
  screenLock: publicProcedure.output(ZScreenLock).query(() => getScreenLock()),
  setScreenLock: adminProcedure
    .input(ZSetScreenLockInput)
    .output(ZScreenLock)
    .mutation(({ input }) => setScreenLock(input.items)),
  adminQueue: adminProcedure.output(ZAdminQueue).query(() => getAdminQueue()),
});
