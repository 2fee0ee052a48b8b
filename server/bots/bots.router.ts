// tRPC procedures of the console's bots (/create_bot): parse the input, authenticate, call the
// service (which decides, and refuses other people's bots), answer what the output schema declares.
import { z } from "zod";
import { authedProcedure, router } from "../trpc/trpc";
import {
  ZBotCreate,
  ZBotCreated,
  ZBotDeleted,
  ZBotEventView,
  ZBotId,
  ZBotPackageQuote,
  ZBotRenewal,
  ZBotUpdate,
  ZBotView,
  ZDeliveriesPage,
  ZDeliveryView,
  ZScheduleId,
  ZScheduleInput,
  ZScheduleView,
  ZTargetView,
} from "./bots.schema";
import * as schedules from "./bot-schedules.service";
import * as bots from "./bots.service";
import { deleteBot } from "./bot-delete.service";

export const botsRouter = router({
  quote: authedProcedure.output(ZBotPackageQuote).query(({ ctx }) => bots.getBotPackageQuote(ctx.account)),
  list: authedProcedure.output(z.array(ZBotView)).query(({ ctx }) => bots.listBots(ctx.account)),
  get: authedProcedure
    .input(ZBotId)
    .output(ZBotView)
    .query(({ ctx, input }) => bots.getBot(ctx.account, input.bot_id)),
  create: authedProcedure
    .input(ZBotCreate)
    .output(ZBotCreated)
    .mutation(({ ctx, input }) => bots.createBot(ctx.account, input)),
  update: authedProcedure
    .input(ZBotUpdate)
    .output(ZBotView)
    .mutation(({ ctx, input }) => bots.updateBot(ctx.account, input)),
  delete: authedProcedure
    .input(ZBotId)
    .output(ZBotDeleted)
    .mutation(({ ctx, input }) => deleteBot(ctx.account, input.bot_id)),
  renew: authedProcedure
    .input(ZBotId)
    .output(ZBotRenewal)
    .mutation(({ ctx, input }) => bots.renewBotPackage(ctx.account, input.bot_id)),
  relogin: authedProcedure
    .input(ZBotId)
    .output(ZBotView)
    .mutation(({ ctx, input }) => bots.relogin(ctx.account, input.bot_id)),
  schedules: router({
    list: authedProcedure
      .input(ZBotId)
      .output(z.array(ZScheduleView))
      .query(({ ctx, input }) => schedules.listSchedules(ctx.account, input.bot_id)),
    save: authedProcedure
      .input(ZScheduleInput)
      .output(ZScheduleView)
      .mutation(({ ctx, input }) => schedules.saveSchedule(ctx.account, input)),
    delete: authedProcedure
      .input(ZScheduleId)
      .output(z.void())
      .mutation(({ ctx, input }) => schedules.deleteSchedule(ctx.account, input.bot_id, input.schedule_id)),
  }),
  deliveries: authedProcedure
    .input(ZDeliveriesPage)
    .output(z.array(ZDeliveryView))
    .query(({ ctx, input }) => schedules.listDeliveries(ctx.account, input.bot_id, { before: input.before, take: input.take })),
  targets: authedProcedure
    .input(ZBotId)
    .output(z.array(ZTargetView))
    .query(({ ctx, input }) => schedules.listTargets(ctx.account, input.bot_id)),
  events: router({
    list: authedProcedure
      .input(ZBotId)
      .output(z.array(ZBotEventView))
      .query(({ ctx, input }) => bots.listEvents(ctx.account, input.bot_id)),
    markRead: authedProcedure
      .input(ZBotId)
      .output(z.void())
      .mutation(({ ctx, input }) => bots.markEventsRead(ctx.account, input.bot_id)),
  }),
});
