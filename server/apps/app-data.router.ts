// tRPC procedures of an app's data (/application): parse the input, authenticate, call the
// service, answer what the output schema declares. The export's file is downloaded through REST:
// app-export.http.ts.
import { z } from "zod";
import { authedProcedure, router } from "../trpc/trpc";
import { getAppDialogue, getAppOverview, listAppDialogues } from "./app-data.service";
import { getAppExport, listAppExports, startAppExport } from "./app-export.service";
import {
  ZAppDialogueDetail,
  ZAppDialoguePage,
  ZAppDialogueRef,
  ZAppExportRef,
  ZAppExportView,
  ZAppOverview,
  ZAppOverviewInput,
  ZAppRef,
  ZListAppDialoguesInput,
  ZStartAppExportInput,
} from "./app-data.schema";

export const appDataRouter = router({
  overview: authedProcedure
    .input(ZAppOverviewInput)
    .output(ZAppOverview)
    .query(({ ctx, input }) => getAppOverview(ctx.account, input)),
  dialogues: authedProcedure
    .input(ZListAppDialoguesInput)
    .output(ZAppDialoguePage)
    .query(({ ctx, input }) => listAppDialogues(ctx.account, input)),
  dialogue: authedProcedure
    .input(ZAppDialogueRef)
    .output(ZAppDialogueDetail)
    .query(({ ctx, input }) => getAppDialogue(ctx.account, input)),
  exports: router({
    start: authedProcedure
      .input(ZStartAppExportInput)
      .output(ZAppExportView)
      .mutation(({ ctx, input }) => startAppExport(ctx.account, input, ctx.lng)),
    get: authedProcedure
      .input(ZAppExportRef)
      .output(ZAppExportView)
      .query(({ ctx, input }) => getAppExport(ctx.account, input)),
    list: authedProcedure
      .input(ZAppRef)
      .output(z.array(ZAppExportView))
      .query(({ ctx, input }) => listAppExports(ctx.account, input)),
  }),
});
