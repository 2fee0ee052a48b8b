// tRPC procedures of personal voices and voice packages (digitalVoices.*): authenticate, parse, call
// the service, answer. Recordings are uploaded as multipart: voices.http.ts.
import { authedProcedure, router } from "../trpc/trpc";
import { buyVoicePackage, listVoicePackages } from "./voice-packages.service";
import * as voices from "./voices.service";
import {
  ZBuyVoicePackageInput,
  ZDeletedVoice,
  ZDigitalVoice,
  ZDigitalVoiceList,
  ZRenameVoiceInput,
  ZVoiceId,
  ZVoicePackage,
  ZVoicePackages,
} from "./voices.schema";

export const digitalVoicesRouter = router({
  list: authedProcedure.output(ZDigitalVoiceList).query(({ ctx }) => voices.listDigitalVoices(ctx.account)),
  get: authedProcedure
    .input(ZVoiceId)
    .output(ZDigitalVoice)
    .query(({ ctx, input }) => voices.getDigitalVoice(ctx.account, input)),
  rename: authedProcedure
    .input(ZRenameVoiceInput)
    .output(ZDigitalVoice)
    .mutation(({ ctx, input }) => voices.renameDigitalVoice(ctx.account, input)),
  remove: authedProcedure
    .input(ZVoiceId)
    .output(ZDeletedVoice)
    .mutation(({ ctx, input }) => voices.removeDigitalVoice(ctx.account, input)),
  retry: authedProcedure
    .input(ZVoiceId)
    .output(ZDigitalVoice)
    .mutation(({ ctx, input }) => voices.retryDigitalVoice(ctx.account, input)),
  packages: authedProcedure.output(ZVoicePackages).query(({ ctx }) => listVoicePackages(ctx.account)),
  buyPackage: authedProcedure
    .input(ZBuyVoicePackageInput)
    .output(ZVoicePackage)
    .mutation(({ ctx, input }) => buyVoicePackage(ctx.account, input)),
});
