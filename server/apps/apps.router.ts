// tRPC procedures of the apps core: parse the input, authenticate, call the service, answer what
// the output schema declares.
import { z } from "zod";
import { authedProcedure, router } from "../trpc/trpc";
import { ZAppCategory, ZAppId, ZAppInput, ZAppReviewItem, ZAppView, ZListAppsInput, ZRemoveAppInput, ZUpdateAppInput } from "./apps.schema";
import * as apps from "./apps.service";

export const appsRouter = router({
  list: authedProcedure
    .input(ZListAppsInput)
    .output(z.array(ZAppView))
    .query(({ ctx, input }) => apps.listApps(ctx.account, input)),
  get: authedProcedure
    .input(ZAppId)
    .output(ZAppView)
    .query(({ ctx, input }) => apps.getApp(ctx.account, input)),
  categories: authedProcedure.output(z.array(ZAppCategory)).query(() => apps.listCategories()),
  create: authedProcedure
    .input(ZAppInput)
    .output(ZAppView)
    .mutation(({ ctx, input }) => apps.createApp(ctx.account, input)),
  update: authedProcedure
    .input(ZUpdateAppInput)
    .output(ZAppView)
    .mutation(({ ctx, input }) => apps.updateApp(ctx.account, input)),
  submit: authedProcedure
    .input(ZAppId)
    .output(ZAppView)
    .mutation(({ ctx, input }) => apps.submitApp(ctx.account, input)),
  takeDown: authedProcedure
    .input(ZAppId)
    .output(ZAppView)
    .mutation(({ ctx, input }) => apps.takeDownApp(ctx.account, input)),
  putBack: authedProcedure
    .input(ZAppId)
    .output(ZAppView)
    .mutation(({ ctx, input }) => apps.putBackApp(ctx.account, input)),
  delete: authedProcedure
    .input(ZAppId)
    .output(ZAppId)
    .mutation(({ ctx, input }) => apps.deleteApp(ctx.account, input)),
  restore: authedProcedure
    .input(ZAppId)
    .output(ZAppView)
    .mutation(({ ctx, input }) => apps.restoreApp(ctx.account, input)),
  purge: authedProcedure
    .input(ZAppId)
    .output(ZAppId)
    .mutation(({ ctx, input }) => apps.purgeApp(ctx.account, input)),
  review: router({
    queue: authedProcedure.output(z.array(ZAppReviewItem)).query(({ ctx }) => apps.listReviewQueue(ctx.account)),
    approve: authedProcedure
      .input(ZAppId)
      .output(ZAppView)
      .mutation(({ ctx, input }) => apps.approveApp(ctx.account, input)),
    remove: authedProcedure
      .input(ZRemoveAppInput)
      .output(ZAppView)
      .mutation(({ ctx, input }) => apps.removeApp(ctx.account, input)),
  }),
});
