// tRPC procedures of training sets: authenticate, parse, call the service, answer. Files
// (Q&A import and export, documents) go through REST: training-sets.http.ts.
import { z } from "zod";
import { authedProcedure, router } from "../trpc/trpc";
import { deleteDocument } from "./training-sets.files.service";
import * as sets from "./training-sets.service";
import {
  ZAddQaItemInput,
  ZCreateTrainingSetInput,
  ZDeletedId,
  ZDocumentRef,
  ZListQaItemsInput,
  ZQaItemPage,
  ZQaItemRef,
  ZQaItemView,
  ZTrainingSetActionInput,
  ZTrainingSetDetail,
  ZTrainingSetId,
  ZTrainingSetSummary,
  ZUpdateQaItemInput,
  ZUpdateTrainingSetInput,
} from "./training-sets.schema";

export const trainingSetsRouter = router({
  list: authedProcedure.output(z.array(ZTrainingSetSummary)).query(({ ctx }) => sets.listTrainingSets(ctx.account)),
  get: authedProcedure
    .input(ZTrainingSetId)
    .output(ZTrainingSetDetail)
    .query(({ ctx, input }) => sets.getTrainingSet(ctx.account, input)),
  create: authedProcedure
    .input(ZCreateTrainingSetInput)
    .output(ZTrainingSetSummary)
    .mutation(({ ctx, input }) => sets.createTrainingSet(ctx.account, input)),
  update: authedProcedure
    .input(ZUpdateTrainingSetInput)
    .output(ZTrainingSetSummary)
    .mutation(({ ctx, input }) => sets.updateTrainingSet(ctx.account, input)),
  delete: authedProcedure
    .input(ZTrainingSetId)
    .output(ZDeletedId)
    .mutation(({ ctx, input }) => sets.deleteTrainingSet(ctx.account, input)),
  /** stop, disable, enable, retrain. */
  act: authedProcedure
    .input(ZTrainingSetActionInput)
    .output(ZTrainingSetSummary)
    .mutation(({ ctx, input }) => sets.applyTrainingSetAction(ctx.account, input)),
  qa: router({
    list: authedProcedure
      .input(ZListQaItemsInput)
      .output(ZQaItemPage)
      .query(({ ctx, input }) => sets.listQaItems(ctx.account, input)),
    add: authedProcedure
      .input(ZAddQaItemInput)
      .output(ZQaItemView)
      .mutation(({ ctx, input }) => sets.addQaItem(ctx.account, input)),
    update: authedProcedure
      .input(ZUpdateQaItemInput)
      .output(ZQaItemView)
      .mutation(({ ctx, input }) => sets.updateQaItem(ctx.account, input)),
    delete: authedProcedure
      .input(ZQaItemRef)
      .output(ZDeletedId)
      .mutation(({ ctx, input }) => sets.deleteQaItem(ctx.account, input)),
  }),
  documents: router({
    delete: authedProcedure
      .input(ZDocumentRef)
      .output(ZDeletedId)
      .mutation(({ ctx, input }) => deleteDocument(ctx.account, input)),
  }),
});
