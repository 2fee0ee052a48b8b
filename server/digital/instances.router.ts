// tRPC procedures of digital-human instances, for platform administrators only: authenticate,
// parse, call the service, answer.
import { adminProcedure, router } from "../trpc/trpc";
import * as instances from "./instances.service";
import { ZHourPrice, ZInstanceIdInput, ZInstanceListInput, ZInstancePage, ZRemovedInstance, ZSetHourPriceInput } from "./instances.schema";

export const instancesRouter = router({
  list: adminProcedure
    .input(ZInstanceListInput)
    .output(ZInstancePage)
    .query(({ input }) => instances.listInstancesForAdmin(input)),
  remove: adminProcedure
    .input(ZInstanceIdInput)
    .output(ZRemovedInstance)
    .mutation(({ ctx, input }) => instances.deleteInstance(ctx.account?.id ?? null, input.id)),
  hourPrice: adminProcedure.output(ZHourPrice).query(() => instances.getHourPriceView()),
  setHourPrice: adminProcedure
    .input(ZSetHourPriceInput)
    .output(ZHourPrice)
    .mutation(({ ctx, input }) => instances.setInstanceHourPrice(ctx.account?.id ?? null, input)),
});
