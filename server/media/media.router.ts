// tRPC procedures of the multimedia library: authenticate, call the service (which parses and
// checks the edition), answer. Uploads are multipart: media.http.ts.
import { authedProcedure, router } from "../trpc/trpc";
import * as media from "./media.service";
import { ZListMediaInput, ZMediaId, ZRenameMediaInput } from "./media.schema";

export const mediaRouter = router({
  list: authedProcedure.input(ZListMediaInput).query(({ ctx, input }) => media.listMedia(ctx.account, input)),
  get: authedProcedure.input(ZMediaId).query(({ ctx, input }) => media.getMedia(ctx.account, input)),
  quota: authedProcedure.query(({ ctx }) => media.getMediaQuota(ctx.account)),
  rename: authedProcedure.input(ZRenameMediaInput).mutation(({ ctx, input }) => media.renameMedia(ctx.account, input)),
  delete: authedProcedure.input(ZMediaId).mutation(({ ctx, input }) => media.deleteMedia(ctx.account, input)),
});
