// tRPC procedures of an app's data (/application): authenticate, call the service, answer.
// The export's file is downloaded through REST: app-export.http.ts.
import { authedProcedure, router } from "../trpc/trpc";
import { getAppDialogue, getAppOverview, listAppDialogues } from "./app-data.service";
import { getAppExport, listAppExports, startAppExport } from "./app-export.service";
import { ZAppDialogueRef, ZAppExportRef, ZAppOverviewInput, ZAppRef, ZListAppDialoguesInput, ZStartAppExportInput } from "./app-data.schema";

export const appDataRouter = router({
  overview: authedProcedure.input(ZAppOverviewInput).query(({ ctx, input }) => getAppOverview(ctx.account, input)),
  dialogues: authedProcedure.input(ZListAppDialoguesInput).query(({ ctx, input }) => listAppDialogues(ctx.account, input)),
  dialogue: authedProcedure.input(ZAppDialogueRef).query(({ ctx, input }) => getAppDialogue(ctx.account, input)),
  exports: router({
    start: authedProcedure.input(ZStartAppExportInput).mutation(({ ctx, input }) => startAppExport(ctx.account, input, ctx.lng)),
    get: authedProcedure.input(ZAppExportRef).query(({ ctx, input }) => getAppExport(ctx.account, input)),
    list: authedProcedure.input(ZAppRef).query(({ ctx, input }) => listAppExports(ctx.account, input)),
  }),
});
