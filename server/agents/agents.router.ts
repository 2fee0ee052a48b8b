// tRPC procedures of the agent builder: authenticate, call the service (which parses), answer.
import { z } from "zod";
import { authedProcedure, publicProcedure, router } from "../trpc/trpc";
import { AGENT_PLUGINS, ZAgentId, ZAgentInput, ZReorderAgentsInput, ZReviewDecisionInput, ZSaveAgentDraftInput, ZSubmitAgentInput } from "./agents.schema";
import * as agents from "./agents.service";
import { listPublicModels } from "../models/models.service";

export const agentsRouter = router({
  list: authedProcedure.query(({ ctx }) => agents.listAgents(ctx.account)),
  get: authedProcedure.input(ZAgentId).query(({ ctx, input }) => agents.getAgent(ctx.account, input)),
  /** What the editor offers: chat models (with whether they call tools) and the plugins. */
  options: authedProcedure.query(async () => ({ models: await listPublicModels(), plugins: [...AGENT_PLUGINS] })),
  create: authedProcedure.input(ZAgentInput).mutation(({ ctx, input }) => agents.createAgent(ctx.account, input)),
  saveDraft: authedProcedure.input(ZSaveAgentDraftInput).mutation(({ ctx, input }) => agents.saveAgentDraft(ctx.account, input)),
  publish: authedProcedure.input(ZAgentId).mutation(({ ctx, input }) => agents.publishAgent(ctx.account, input)),
  submit: authedProcedure.input(ZSubmitAgentInput).mutation(({ ctx, input }) => agents.submitAgent(ctx.account, input)),
  withdraw: authedProcedure.input(ZAgentId).mutation(({ ctx, input }) => agents.withdrawAgent(ctx.account, input)),
  reorder: authedProcedure.input(ZReorderAgentsInput).mutation(({ ctx, input }) => agents.reorderAgents(ctx.account, input)),
  delete: authedProcedure.input(ZAgentId).mutation(({ ctx, input }) => agents.deleteAgent(ctx.account, input)),
  updateLog: publicProcedure.input(ZAgentId).query(({ ctx, input }) => agents.getUpdateLog(ctx.account, input)),
  review: router({
    queue: authedProcedure.query(({ ctx }) => agents.listReviewQueue(ctx.account)),
    approve: authedProcedure.input(ZReviewDecisionInput).mutation(({ ctx, input }) => agents.approveAgentVersion(ctx.account, input)),
    reject: authedProcedure.input(ZReviewDecisionInput.extend({ reason: z.string().trim().min(1, "validation.reject_reason").max(200, "validation.reject_reason") })).mutation(({ ctx, input }) => agents.rejectAgentVersion(ctx.account, input)),
    takeDown: authedProcedure.input(ZReviewDecisionInput.extend({ reason: z.string().trim().min(1, "validation.reject_reason").max(200, "validation.reject_reason") })).mutation(({ ctx, input }) => agents.takeDownAgentVersion(ctx.account, input)),
  }),
});
