// tRPC procedures of training sets: authenticate, call the service (which parses), answer. Files
// (Q&A import and export, documents) go through REST: training-sets.http.ts.
import { authedProcedure, router } from "../trpc/trpc";
import { deleteDocument } from "./training-sets.files.service";
import * as sets from "./training-sets.service";
import {
  ZAddQaItemInput,
  ZCreateTrainingSetInput,
  ZDocumentRef,
  ZListQaItemsInput,
  ZQaItemRef,
  ZTrainingSetActionInput,
  ZTrainingSetId,
  ZUpdateQaItemInput,
  ZUpdateTrainingSetInput,
} from "./training-sets.schema";

export const trainingSetsRouter = router({
  list: authedProcedure.query(({ ctx }) => sets.listTrainingSets(ctx.account)),
  get: authedProcedure.input(ZTrainingSetId).query(({ ctx, input }) => sets.getTrainingSet(ctx.account, input)),
  create: authedProcedure.input(ZCreateTrainingSetInput).mutation(({ ctx, input }) => sets.createTrainingSet(ctx.account, input)),
  update: authedProcedure.input(ZUpdateTrainingSetInput).mutation(({ ctx, input }) => sets.updateTrainingSet(ctx.account, input)),
  delete: authedProcedure.input(ZTrainingSetId).mutation(({ ctx, input }) => sets.deleteTrainingSet(ctx.account, input)),
  /** stop, disable, enable, retrain. */
  act: authedProcedure.input(ZTrainingSetActionInput).mutation(({ ctx, input }) => sets.applyTrainingSetAction(ctx.account, input)),
  qa: router({
    list: authedProcedure.input(ZListQaItemsInput).query(({ ctx, input }) => sets.listQaItems(ctx.account, input)),
    add: authedProcedure.input(ZAddQaItemInput).mutation(({ ctx, input }) => sets.addQaItem(ctx.account, input)),
    update: authedProcedure.input(ZUpdateQaItemInput).mutation(({ ctx, input }) => sets.updateQaItem(ctx.account, input)),
    delete: authedProcedure.input(ZQaItemRef).mutation(({ ctx, input }) => sets.deleteQaItem(ctx.account, input)),
  }),
  documents: router({
    delete: authedProcedure.input(ZDocumentRef).mutation(({ ctx, input }) => deleteDocument(ctx.account, input)),
  }),
});
