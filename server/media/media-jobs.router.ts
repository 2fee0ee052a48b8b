// tRPC procedures of generation jobs: the drawing and video screens and the gallery. Live progress
// and providers' callbacks are REST (media-jobs.http.ts).
import { z } from "zod";
import { authedProcedure, router } from "../trpc/trpc";
import * as jobs from "./media-jobs.service";
import { ZImageJobInput, ZListMediaJobsInput, ZMediaJob, ZMediaJobId, ZMediaJobPage, ZMediaModel, ZVideoJobInput } from "./generation.schema";

export const mediaJobsRouter = router({
  models: authedProcedure
    .input(z.object({ kind: z.enum(["image", "video"]) }))
    .output(z.array(ZMediaModel))
    .query(({ ctx, input }) => jobs.listMediaModels(ctx.account, input.kind)),
  submitImage: authedProcedure
    .input(ZImageJobInput)
    .output(ZMediaJob)
    .mutation(({ ctx, input }) => jobs.submitImageJob(ctx.account, input)),
  submitVideo: authedProcedure
    .input(ZVideoJobInput)
    .output(ZMediaJob)
    .mutation(({ ctx, input }) => jobs.submitVideoJob(ctx.account, input)),
  list: authedProcedure
    .input(ZListMediaJobsInput)
    .output(ZMediaJobPage)
    .query(({ ctx, input }) => jobs.listMediaJobs(ctx.account, input)),
  get: authedProcedure
    .input(ZMediaJobId)
    .output(ZMediaJob)
    .query(({ ctx, input }) => jobs.getMediaJob(ctx.account, input)),
  retry: authedProcedure
    .input(ZMediaJobId)
    .output(ZMediaJob)
    .mutation(({ ctx, input }) => jobs.retryMediaJob(ctx.account, input)),
  background: authedProcedure
    .input(ZMediaJobId)
    .output(ZMediaJob)
    .mutation(({ ctx, input }) => jobs.continueInBackground(ctx.account, input)),
  remove: authedProcedure
    .input(ZMediaJobId)
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => jobs.removeMediaJob(ctx.account, input)),
});
