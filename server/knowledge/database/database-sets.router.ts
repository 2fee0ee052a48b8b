// tRPC procedures of database training sets: authenticate, call the service (which parses), answer.
import { authedProcedure, router } from "../../trpc/trpc";
import { ZCreateDatabaseSetInput, ZDatabaseSetId, ZUpdateDatabaseSetInput, ZVerifyDatabaseInput } from "./database-sets.schema";
import * as sets from "./database-sets.service";

export const databaseSetsRouter = router({
  list: authedProcedure.query(({ ctx }) => sets.listDatabaseSets(ctx.account)),
  get: authedProcedure.input(ZDatabaseSetId).query(({ ctx, input }) => sets.getDatabaseSet(ctx.account, input)),
  create: authedProcedure.input(ZCreateDatabaseSetInput).mutation(({ ctx, input }) => sets.createDatabaseSet(ctx.account, input)),
  update: authedProcedure.input(ZUpdateDatabaseSetInput).mutation(({ ctx, input }) => sets.updateDatabaseSet(ctx.account, input)),
  delete: authedProcedure.input(ZDatabaseSetId).mutation(({ ctx, input }) => sets.deleteDatabaseSet(ctx.account, input)),
  /** The form's "verify", before saving: writes nothing. */
  verify: authedProcedure.input(ZVerifyDatabaseInput).mutation(({ ctx, input }) => sets.verifyDatabaseInput(ctx.account, input)),
  /** "Verify again" on a saved set: records done or failed. */
  reverify: authedProcedure.input(ZDatabaseSetId).mutation(({ ctx, input }) => sets.reverifyDatabaseSet(ctx.account, input)),
});
