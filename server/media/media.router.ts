// tRPC procedures of the multimedia library: authenticate, parse, call the service (which checks
// the edition), answer. Uploads are multipart: media.http.ts.
import { authedProcedure, router } from "../trpc/trpc";
import * as media from "./media.service";
import { ZDeletedMedia, ZListMediaInput, ZMediaId, ZMediaItem, ZMediaPage, ZMediaQuota, ZRenameMediaInput } from "./media.schema";

export const mediaRouter = router({
  list: authedProcedure
    .input(ZListMediaInput)
    .output(ZMediaPage)
    .query(({ ctx, input }) => media.listMedia(ctx.account, input)),
  get: authedProcedure
    .input(ZMediaId)
    .output(ZMediaItem)
    .query(({ ctx, input }) => media.getMedia(ctx.account, input)),
  quota: authedProcedure.output(ZMediaQuota).query(({ ctx }) => media.getMediaQuota(ctx.account)),
  rename: authedProcedure
    .input(ZRenameMediaInput)
    .output(ZMediaItem)
    .mutation(({ ctx, input }) => media.renameMedia(ctx.account, input)),
  delete: authedProcedure
    .input(ZMediaId)
    .output(ZDeletedMedia)
    .mutation(({ ctx, input }) => media.deleteMedia(ctx.account, input)),
});
