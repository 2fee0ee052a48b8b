// tRPC procedures of database training sets: authenticate, parse, call the service, answer.
import { z } from "zod";
import { authedProcedure, router } from "../../trpc/trpc";
import {
  ZCreateDatabaseSetInput,
  ZDatabaseSetId,
  ZDatabaseSetView,
  ZDeletedDatabaseSet,
  ZReverifyResult,
  ZUpdateDatabaseSetInput,
  ZVerifyDatabaseInput,
  ZVerifyResult,
} from "./database-sets.schema";
import * as sets from "./database-sets.service";

export const databaseSetsRouter = router({
  list: authedProcedure.output(z.array(ZDatabaseSetView)).query(({ ctx }) => sets.listDatabaseSets(ctx.account)),
  get: authedProcedure
    .input(ZDatabaseSetId)
    .output(ZDatabaseSetView)
    .query(({ ctx, input }) => sets.getDatabaseSet(ctx.account, input)),
  create: authedProcedure
    .input(ZCreateDatabaseSetInput)
    .output(ZDatabaseSetView)
    .mutation(({ ctx, input }) => sets.createDatabaseSet(ctx.account, input)),
  update: authedProcedure
    .input(ZUpdateDatabaseSetInput)
    .output(ZDatabaseSetView)
    .mutation(({ ctx, input }) => sets.updateDatabaseSet(ctx.account, input)),
  delete: authedProcedure
    .input(ZDatabaseSetId)
    .output(ZDeletedDatabaseSet)
    .mutation(({ ctx, input }) => sets.deleteDatabaseSet(ctx.account, input)),
  /** The form's "verify", before saving: writes nothing. */
  verify: authedProcedure
    .input(ZVerifyDatabaseInput)
    .output(ZVerifyResult)
    .mutation(({ ctx, input }) => sets.verifyDatabaseInput(ctx.account, input)),
  /** "Verify again" on a saved set: records done or failed. */
  reverify: authedProcedure
    .input(ZDatabaseSetId)
    .output(ZReverifyResult)
    .mutation(({ ctx, input }) => sets.reverifyDatabaseSet(ctx.account, input)),
});
