// tRPC procedures of the apps core: authenticate, call the service (which parses), answer.
import { authedProcedure, router } from "../trpc/trpc";
import { ZAppId, ZAppInput, ZListAppsInput, ZRemoveAppInput, ZUpdateAppInput } from "./apps.schema";
import * as apps from "./apps.service";

export const appsRouter = router({
  list: authedProcedure.input(ZListAppsInput).query(({ ctx, input }) => apps.listApps(ctx.account, input)),
  get: authedProcedure.input(ZAppId).query(({ ctx, input }) => apps.getApp(ctx.account, input)),
  categories: authedProcedure.query(() => apps.listCategories()),
  create: authedProcedure.input(ZAppInput).mutation(({ ctx, input }) => apps.createApp(ctx.account, input)),
  update: authedProcedure.input(ZUpdateAppInput).mutation(({ ctx, input }) => apps.updateApp(ctx.account, input)),
  submit: authedProcedure.input(ZAppId).mutation(({ ctx, input }) => apps.submitApp(ctx.account, input)),
  takeDown: authedProcedure.input(ZAppId).mutation(({ ctx, input }) => apps.takeDownApp(ctx.account, input)),
  putBack: authedProcedure.input(ZAppId).mutation(({ ctx, input }) => apps.putBackApp(ctx.account, input)),
  delete: authedProcedure.input(ZAppId).mutation(({ ctx, input }) => apps.deleteApp(ctx.account, input)),
  restore: authedProcedure.input(ZAppId).mutation(({ ctx, input }) => apps.restoreApp(ctx.account, input)),
  purge: authedProcedure.input(ZAppId).mutation(({ ctx, input }) => apps.purgeApp(ctx.account, input)),
  review: router({
    queue: authedProcedure.query(({ ctx }) => apps.listReviewQueue(ctx.account)),
    approve: authedProcedure.input(ZAppId).mutation(({ ctx, input }) => apps.approveApp(ctx.account, input)),
    remove: authedProcedure.input(ZRemoveAppInput).mutation(({ ctx, input }) => apps.removeApp(ctx.account, input)),
  }),
});
