// tRPC procedures of the agent builder: parse the input, authenticate, call the service, answer
// what the output schema declares.
import { z } from "zod";
import { authedProcedure, publicProcedure, router } from "../trpc/trpc";
import {
  AGENT_PLUGINS,
  ZAgentDetail,
  ZAgentId,
  ZAgentInput,
  ZAgentOptions,
  ZAgentReviewItem,
  ZAgentSummary,
  ZAgentVersionView,
  ZReorderAgentsInput,
  ZReviewDecisionInput,
  ZReviewRefusalInput,
  ZSaveAgentDraftInput,
  ZSubmitAgentInput,
  ZUpdateLog,
} from "./agents.schema";
import * as agents from "./agents.service";
import { listPublicModels } from "../models/models.service";

export const agentsRouter = router({
  list: authedProcedure.output(z.array(ZAgentSummary)).query(({ ctx }) => agents.listAgents(ctx.account)),
  get: authedProcedure
    .input(ZAgentId)
    .output(ZAgentDetail)
    .query(({ ctx, input }) => agents.getAgent(ctx.account, input)),
  options: authedProcedure.output(ZAgentOptions).query(async () => ({ models: await listPublicModels(), plugins: [...AGENT_PLUGINS] })),
  create: authedProcedure
    .input(ZAgentInput)
    .output(ZAgentDetail)
    .mutation(({ ctx, input }) => agents.createAgent(ctx.account, input)),
  saveDraft: authedProcedure
    .input(ZSaveAgentDraftInput)
    .output(ZAgentDetail)
    .mutation(({ ctx, input }) => agents.saveAgentDraft(ctx.account, input)),
  publish: authedProcedure
    .input(ZAgentId)
    .output(ZAgentDetail)
    .mutation(({ ctx, input }) => agents.publishAgent(ctx.account, input)),
  submit: authedProcedure
    .input(ZSubmitAgentInput)
    .output(ZAgentDetail)
    .mutation(({ ctx, input }) => agents.submitAgent(ctx.account, input)),
  withdraw: authedProcedure
    .input(ZAgentId)
    .output(ZAgentDetail)
    .mutation(({ ctx, input }) => agents.withdrawAgent(ctx.account, input)),
  reorder: authedProcedure
    .input(ZReorderAgentsInput)
    .output(z.array(ZAgentSummary))
    .mutation(({ ctx, input }) => agents.reorderAgents(ctx.account, input)),
  delete: authedProcedure
    .input(ZAgentId)
    .output(ZAgentId)
    .mutation(({ ctx, input }) => agents.deleteAgent(ctx.account, input)),
  updateLog: publicProcedure
    .input(ZAgentId)
    .output(ZUpdateLog)
    .query(({ ctx, input }) => agents.getUpdateLog(ctx.account, input)),
  review: router({
    queue: authedProcedure.output(z.array(ZAgentReviewItem)).query(({ ctx }) => agents.listReviewQueue(ctx.account)),
    approve: authedProcedure
      .input(ZReviewDecisionInput)
      .output(ZAgentVersionView)
      .mutation(({ ctx, input }) => agents.approveAgentVersion(ctx.account, input)),
    reject: authedProcedure
      .input(ZReviewRefusalInput)
      .output(ZAgentVersionView)
      .mutation(({ ctx, input }) => agents.rejectAgentVersion(ctx.account, input)),
    takeDown: authedProcedure
      .input(ZReviewRefusalInput)
      .output(ZAgentVersionView)
      .mutation(({ ctx, input }) => agents.takeDownAgentVersion(ctx.account, input)),
  }),
});
