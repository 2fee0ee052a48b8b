// tRPC procedures of digital-human videos (the editor at /CreateAppDigital): authenticate, parse,
// call the service, answer. The render runs in the worker (render.service.ts); `progress` is polled.
import { authedProcedure, router } from "../trpc/trpc";
import * as videos from "./videos.service";
import {
  ZCreateVideoInput,
  ZDigitalVideo,
  ZRemovedVideo,
  ZUpdateVideoInput,
  ZVideoIdInput,
  ZVideoList,
  ZVideoProgressInput,
  ZVideoProgressList,
  ZVideoQuote,
} from "./videos.schema";

export const digitalVideosRouter = router({
  list: authedProcedure.output(ZVideoList).query(({ ctx }) => videos.listVideos(ctx.account)),
  get: authedProcedure
    .input(ZVideoIdInput)
    .output(ZDigitalVideo)
    .query(({ ctx, input }) => videos.getVideo(ctx.account, input)),
  create: authedProcedure
    .input(ZCreateVideoInput)
    .output(ZDigitalVideo)
    .mutation(({ ctx, input }) => videos.createVideo(ctx.account, input)),
  update: authedProcedure
    .input(ZUpdateVideoInput)
    .output(ZDigitalVideo)
    .mutation(({ ctx, input }) => videos.updateVideo(ctx.account, input)),
  remove: authedProcedure
    .input(ZVideoIdInput)
    .output(ZRemovedVideo)
    .mutation(({ ctx, input }) => videos.removeVideo(ctx.account, input)),
  quote: authedProcedure
    .input(ZVideoIdInput)
    .output(ZVideoQuote)
    .query(({ ctx, input }) => videos.quoteVideo(ctx.account, input)),
  render: authedProcedure
    .input(ZVideoIdInput)
    .output(ZDigitalVideo)
    .mutation(({ ctx, input }) => videos.renderVideo(ctx.account, input)),
  progress: authedProcedure
    .input(ZVideoProgressInput)
    .output(ZVideoProgressList)
    .query(({ ctx, input }) => videos.videoProgress(ctx.account, input)),
});
