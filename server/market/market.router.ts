// tRPC procedures of the market: lists and search for anyone, social actions for signed-in
// accounts, categories and the carousel for platform administrators. Inputs are parsed here; the
// services decide.
import { z } from "zod";
import { assertRole } from "../accounts/access";
import { authedProcedure, publicProcedure, router } from "../trpc/trpc";
import * as admin from "./market-admin.service";
import * as catalog from "./catalog.service";
import * as social from "./social.service";
import {
  ZAgentCardPage,
  ZAppCardPage,
  ZCarouselInput,
  ZCarouselView,
  ZCategoryInput,
  ZCategoryView,
  ZCommentId,
  ZCommentInput,
  ZCommentPage,
  ZCommentView,
  ZDeletedComment,
  ZDeletedNumericId,
  ZDeveloperPageInput,
  ZFollowInput,
  ZFollowState,
  ZListAgentsInput,
  ZListAppsInput,
  ZListCommentsInput,
  ZListRepliesInput,
  ZNumericId,
  ZReactionInput,
  ZReactionState,
  ZSearchInput,
  ZSearchResult,
  ZUpdateCarouselInput,
  ZUpdateCategoryInput,
} from "./market.schema";

// The role is checked before the input is read, so someone else learns "no permission", never
// which fields an administrator's form has.
const platformAdminProcedure = authedProcedure.use(({ ctx, next }) => {
  assertRole(ctx.account, "platform_admin");
  return next();
});

export const marketRouter = router({
  apps: publicProcedure
    .input(ZListAppsInput)
    .output(ZAppCardPage)
    .query(({ input }) => catalog.listAppCentre(input)),
  agents: publicProcedure
    .input(ZListAgentsInput)
    .output(ZAgentCardPage)
    .query(({ input }) => catalog.listAgentMarket(input)),
  search: publicProcedure
    .input(ZSearchInput)
    .output(ZSearchResult)
    .query(({ input }) => catalog.searchMarket(input)),
  developerApps: publicProcedure
    .input(ZDeveloperPageInput)
    .output(ZAppCardPage)
    .query(({ input }) => catalog.listDeveloperApps(input)),
  comments: publicProcedure
    .input(ZListCommentsInput)
    .output(ZCommentPage)
    .query(({ ctx, input }) => social.listComments(ctx.account, input)),
  replies: publicProcedure
    .input(ZListRepliesInput)
    .output(ZCommentPage)
    .query(({ ctx, input }) => social.listReplies(ctx.account, input)),

  follow: authedProcedure
    .input(ZFollowInput)
    .output(ZFollowState)
    .mutation(({ ctx, input }) => social.followDeveloper(ctx.account, input)),
  unfollow: authedProcedure
    .input(ZFollowInput)
    .output(ZFollowState)
    .mutation(({ ctx, input }) => social.unfollowDeveloper(ctx.account, input)),
  react: authedProcedure
    .input(ZReactionInput)
    .output(ZReactionState)
    .mutation(({ ctx, input }) => social.addReaction(ctx.account, input)),
  unreact: authedProcedure
    .input(ZReactionInput)
    .output(ZReactionState)
    .mutation(({ ctx, input }) => social.removeReaction(ctx.account, input)),
  comment: authedProcedure
    .input(ZCommentInput)
    .output(ZCommentView)
    .mutation(({ ctx, input }) => social.addComment(ctx.account, input)),
  deleteComment: authedProcedure
    .input(ZCommentId)
    .output(ZDeletedComment)
    .mutation(({ ctx, input }) => social.deleteComment(ctx.account, input)),

  admin: router({
    categories: platformAdminProcedure.output(z.array(ZCategoryView)).query(({ ctx }) => admin.listCategoriesForAdmin(ctx.account)),
    createCategory: platformAdminProcedure
      .input(ZCategoryInput)
      .output(ZCategoryView)
      .mutation(({ ctx, input }) => admin.createCategory(ctx.account, input)),
    updateCategory: platformAdminProcedure
      .input(ZUpdateCategoryInput)
      .output(ZCategoryView)
      .mutation(({ ctx, input }) => admin.updateCategory(ctx.account, input)),
    deleteCategory: platformAdminProcedure
      .input(ZNumericId)
      .output(ZDeletedNumericId)
      .mutation(({ ctx, input }) => admin.deleteCategory(ctx.account, input)),
    carousel: platformAdminProcedure.output(z.array(ZCarouselView)).query(({ ctx }) => admin.listCarouselForAdmin(ctx.account)),
    createCarousel: platformAdminProcedure
      .input(ZCarouselInput)
      .output(ZCarouselView)
      .mutation(({ ctx, input }) => admin.createCarousel(ctx.account, input)),
    updateCarousel: platformAdminProcedure
      .input(ZUpdateCarouselInput)
      .output(ZCarouselView)
      .mutation(({ ctx, input }) => admin.updateCarousel(ctx.account, input)),
    deleteCarousel: platformAdminProcedure
      .input(ZNumericId)
      .output(ZDeletedNumericId)
      .mutation(({ ctx, input }) => admin.deleteCarousel(ctx.account, input)),
  }),
});
