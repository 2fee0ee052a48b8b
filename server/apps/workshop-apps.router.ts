// tRPC procedures of a workshop's apps, for its editor: the apps that publish it with what a sync
// would change, and the sync by hand.
import { z } from "zod";
import { authedProcedure, router } from "../trpc/trpc";
import { ZSyncAppInput, ZWorkshopApp, ZWorkshopIdInput } from "../workshops/workshops.schema";
import { listWorkshopApps, syncWorkshopApp } from "./workshop-apps.service";

export const workshopAppsRouter = router({
  list: authedProcedure
    .input(ZWorkshopIdInput)
    .output(z.array(ZWorkshopApp))
    .query(({ ctx, input }) => listWorkshopApps(ctx.account, input.id)),
  sync: authedProcedure
    .input(ZSyncAppInput)
    .output(z.object({ appId: z.string(), versionNumber: z.number() }))
    .mutation(({ ctx, input }) => syncWorkshopApp(ctx.account, input.app_id)),
});
