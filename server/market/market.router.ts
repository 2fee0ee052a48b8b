// tRPC procedures of the market: lists and search for anyone, social actions for signed-in
// accounts, categories and the carousel for platform administrators. Services parse and decide.
import { authedProcedure, publicProcedure, router } from "../trpc/trpc";
import { z } from "zod";
import * as admin from "./market-admin.service";
import * as catalog from "./catalog.service";
import * as social from "./social.service";
import { ZCommentId, ZDeveloperPageInput, ZFollowInput, ZListAgentsInput, ZListAppsInput, ZListCommentsInput, ZListRepliesInput, ZReactionInput, ZSearchInput } from "./market.schema";

// Inputs are parsed by the services (one place, with the field errors); the routers declare shapes loosely.
const any = z.unknown();

export const marketRouter = router({
  apps: publicProcedure.input(ZListAppsInput.partial()).query(({ input }) => catalog.listAppCentre(input)),
  agents: publicProcedure.input(ZListAgentsInput.partial()).query(({ input }) => catalog.listAgentMarket(input)),
  search: publicProcedure.input(ZSearchInput.partial()).query(({ input }) => catalog.searchMarket(input)),
  developerApps: publicProcedure.input(ZDeveloperPageInput.partial()).query(({ input }) => catalog.listDeveloperApps(input)),
  comments: publicProcedure.input(ZListCommentsInput.partial()).query(({ ctx, input }) => social.listComments(ctx.account, input)),
  replies: publicProcedure.input(ZListRepliesInput.partial()).query(({ ctx, input }) => social.listReplies(ctx.account, input)),

  follow: authedProcedure.input(ZFollowInput).mutation(({ ctx, input }) => social.followDeveloper(ctx.account, input)),
  unfollow: authedProcedure.input(ZFollowInput).mutation(({ ctx, input }) => social.unfollowDeveloper(ctx.account, input)),
  react: authedProcedure.input(ZReactionInput).mutation(({ ctx, input }) => social.addReaction(ctx.account, input)),
  unreact: authedProcedure.input(ZReactionInput).mutation(({ ctx, input }) => social.removeReaction(ctx.account, input)),
  // Comments are parsed by the service, so a long one is refused with its field message.
  comment: authedProcedure.input(any).mutation(({ ctx, input }) => social.addComment(ctx.account, input)),
  deleteComment: authedProcedure.input(ZCommentId).mutation(({ ctx, input }) => social.deleteComment(ctx.account, input)),

  // Platform administrators only: the services check the role.
  admin: router({
    categories: authedProcedure.query(({ ctx }) => admin.listCategoriesForAdmin(ctx.account)),
    createCategory: authedProcedure.input(any).mutation(({ ctx, input }) => admin.createCategory(ctx.account, input)),
    updateCategory: authedProcedure.input(any).mutation(({ ctx, input }) => admin.updateCategory(ctx.account, input)),
    deleteCategory: authedProcedure.input(any).mutation(({ ctx, input }) => admin.deleteCategory(ctx.account, input)),
    carousel: authedProcedure.query(({ ctx }) => admin.listCarouselForAdmin(ctx.account)),
    createCarousel: authedProcedure.input(any).mutation(({ ctx, input }) => admin.createCarousel(ctx.account, input)),
    updateCarousel: authedProcedure.input(any).mutation(({ ctx, input }) => admin.updateCarousel(ctx.account, input)),
    deleteCarousel: authedProcedure.input(any).mutation(({ ctx, input }) => admin.deleteCarousel(ctx.account, input)),
  }),
});
