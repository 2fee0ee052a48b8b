// tRPC procedures of the workshop editor and list: authenticate, parse, call the service, answer.
import { z } from "zod";
import { authedProcedure, router } from "../trpc/trpc";
import { listDebugRuns } from "./runs.service";
import * as workshops from "./workshops.service";
import {
  ZCreateWorkshopInput,
  ZRunSummary,
  ZSaveDefinitionInput,
  ZUpdateWorkshopInput,
  ZUsableAgent,
  ZWorkshopDetail,
  ZWorkshopIdInput,
  ZWorkshopSummary,
} from "./workshops.schema";

const ZId = z.object({ id: z.string() });

export const workshopsRouter = router({
  list: authedProcedure.output(z.array(ZWorkshopSummary)).query(({ ctx }) => workshops.listWorkshops(ctx.account)),
  get: authedProcedure
    .input(ZWorkshopIdInput)
    .output(ZWorkshopDetail)
    .query(({ ctx, input }) => workshops.getWorkshop(ctx.account, input.id)),
  create: authedProcedure
    .input(ZCreateWorkshopInput)
    .output(ZId)
    .mutation(({ ctx, input }) => workshops.createWorkshop(ctx.account, input)),
  update: authedProcedure
    .input(ZUpdateWorkshopInput)
    .output(ZId)
    .mutation(({ ctx, input }) => workshops.updateWorkshop(ctx.account, input)),
  saveDefinition: authedProcedure
    .input(ZSaveDefinitionInput)
    .output(z.object({ revision: z.number() }))
    .mutation(({ ctx, input }) => workshops.saveDefinition(ctx.account, input)),
  remove: authedProcedure
    .input(ZWorkshopIdInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(({ ctx, input }) => workshops.deleteWorkshop(ctx.account, input.id)),
  agents: authedProcedure.output(z.array(ZUsableAgent)).query(({ ctx }) => workshops.listUsableAgents(ctx.account)),
  runs: authedProcedure
    .input(ZWorkshopIdInput)
    .output(z.array(ZRunSummary))
    .query(({ ctx, input }) => listDebugRuns(ctx.account, input.id)),
});
